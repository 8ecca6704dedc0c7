// SPDX-License-Identifier: MIT
// Tensor maps for the emulated TMA: cuTensorMapEncodeTiled's parameters,
// validated as the driver documents them (CUDA Driver API, Tensor Map Object
// Management) and stored in the 128-byte CUtensorMap for the emulated
// cp.async.bulk.tensor to read back.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace bwgemm::emu {

// The emulator models tiled maps of rank 1 to 3 (the kernels' 2-D matrices
// plus a batch dimension).
constexpr uint32_t kMaxTensorRank = 3;

struct TensorMapInfo {
  uint32_t magic;
  uint32_t rank;
  uint32_t elem_bytes;
  CUtensorMapDataType dtype;
  const uint8_t* base;
  uint64_t dims[kMaxTensorRank];     // elements, innermost first
  uint64_t strides[kMaxTensorRank];  // bytes; strides[0] = elem_bytes, then dims 1..
  uint32_t box[kMaxTensorRank];
  uint32_t element_strides[kMaxTensorRank];
  uint8_t interleave, swizzle, l2_promotion, oob_fill;

  uint32_t box_bytes() const {
    uint32_t b = elem_bytes;
    for (uint32_t i = 0; i < rank; ++i) b *= box[i];
    return b;
  }
};
static_assert(sizeof(TensorMapInfo) <= sizeof(CUtensorMap));

// cuTensorMapEncodeTiled with the same arguments and error behaviour
// (CUDA_ERROR_INVALID_VALUE for what the driver rejects).
CUresult encode_tensor_map_tiled(CUtensorMap* map, CUtensorMapDataType dtype, cuuint32_t rank,
                                 void* base, const cuuint64_t* dims, const cuuint64_t* strides,
                                 const cuuint32_t* box, const cuuint32_t* element_strides,
                                 CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                 CUtensorMapL2promotion l2_promotion,
                                 CUtensorMapFloatOOBfill oob_fill);

// The map encode_tensor_map_tiled stored; false for anything else.
bool decode_tensor_map(const CUtensorMap* map, TensorMapInfo* out);

// Swizzle span in bytes (0 for none) of CUtensorMapSwizzle `s`.
uint32_t swizzle_span(uint8_t s);

// The address pattern of the TMA swizzle modes, applied to shared-window
// addresses: the 16-byte chunk bits [4, 4 + log2(span / 16)) are XORed with
// the bits starting at 7 (CUTLASS Swizzle<3,4,3>, <2,4,3>, <1,4,3>; the same
// patterns wgmma and tcgen05 descriptors name).
inline uint32_t swizzle_address(uint32_t address, uint32_t span) {
  if (span == 0) return address;
  const uint32_t mask = span / 16 - 1;
  return address ^ (((address >> 7) & mask) << 4);
}

}  // namespace bwgemm::emu
