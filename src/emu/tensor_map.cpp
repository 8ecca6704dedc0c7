// SPDX-License-Identifier: MIT
#include "emu/tensor_map.h"

#include <cstring>

namespace bwgemm::emu {
namespace {

constexpr uint32_t kMagic = 0x454d5554;  // "TUME"

// Bytes per element of the data types the emulator models (cuda.h
// CUtensorMapDataType); 0 for the packed sub-byte types it does not.
uint32_t element_bytes(CUtensorMapDataType t) {
  switch (t) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32:
    case CU_TENSOR_MAP_DATA_TYPE_INT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 4;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64:
    case CU_TENSOR_MAP_DATA_TYPE_INT64:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
    default: return 0;
  }
}

}  // namespace

uint32_t swizzle_span(uint8_t s) {
  switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
    case CU_TENSOR_MAP_SWIZZLE_128B: return 128;
    default: return 0;
  }
}

// The checks are those cuTensorMapEncodeTiled's documentation states for
// tiled, non-interleaved maps: a 16-byte aligned base; 0 < dims <= 2^32;
// strides multiples of 16 below 2^40; 0 < box <= 256 with an inner box of a
// multiple of 16 bytes; 0 < element strides <= 8; with a swizzle, an inner
// box no wider than the swizzle span.
CUresult encode_tensor_map_tiled(CUtensorMap* map, CUtensorMapDataType dtype, cuuint32_t rank,
                                 void* base, const cuuint64_t* dims, const cuuint64_t* strides,
                                 const cuuint32_t* box, const cuuint32_t* element_strides,
                                 CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                 CUtensorMapL2promotion l2_promotion,
                                 CUtensorMapFloatOOBfill oob_fill) {
  const uint32_t elem = element_bytes(dtype);
  if (map == nullptr || elem == 0 || rank < 1 || rank > kMaxTensorRank) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE) return CUDA_ERROR_INVALID_VALUE;
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0) return CUDA_ERROR_INVALID_VALUE;
  TensorMapInfo info{};
  info.magic = kMagic;
  info.rank = rank;
  info.elem_bytes = elem;
  info.dtype = dtype;
  info.base = static_cast<const uint8_t*>(base);
  info.strides[0] = elem;
  for (uint32_t i = 0; i < rank; ++i) {
    if (dims[i] == 0 || dims[i] > (uint64_t{1} << 32)) return CUDA_ERROR_INVALID_VALUE;
    if (box[i] == 0 || box[i] > 256) return CUDA_ERROR_INVALID_VALUE;
    if (element_strides[i] == 0 || element_strides[i] > 8) return CUDA_ERROR_INVALID_VALUE;
    info.dims[i] = dims[i];
    info.box[i] = box[i];
    info.element_strides[i] = element_strides[i];
    if (i > 0) {
      const uint64_t s = strides[i - 1];
      if (s % 16 != 0 || s >= (uint64_t{1} << 40)) return CUDA_ERROR_INVALID_VALUE;
      info.strides[i] = s;
    }
  }
  const uint32_t inner_bytes = box[0] * elem;
  if (inner_bytes % 16 != 0) return CUDA_ERROR_INVALID_VALUE;
  const uint32_t span = swizzle_span(static_cast<uint8_t>(swizzle));
  if (swizzle != CU_TENSOR_MAP_SWIZZLE_NONE && span == 0) return CUDA_ERROR_INVALID_VALUE;
  if (span != 0 && inner_bytes > span) return CUDA_ERROR_INVALID_VALUE;
  const bool float_type =
      dtype == CU_TENSOR_MAP_DATA_TYPE_FLOAT16 || dtype == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 ||
      dtype == CU_TENSOR_MAP_DATA_TYPE_FLOAT32 || dtype == CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  if (oob_fill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && !float_type) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  info.interleave = static_cast<uint8_t>(interleave);
  info.swizzle = static_cast<uint8_t>(swizzle);
  info.l2_promotion = static_cast<uint8_t>(l2_promotion);
  info.oob_fill = static_cast<uint8_t>(oob_fill);
  std::memset(map, 0, sizeof *map);
  std::memcpy(map, &info, sizeof info);
  return CUDA_SUCCESS;
}

bool decode_tensor_map(const CUtensorMap* map, TensorMapInfo* out) {
  std::memcpy(out, map, sizeof *out);
  return out->magic == kMagic;
}

}  // namespace bwgemm::emu
