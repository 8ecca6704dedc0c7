// SPDX-License-Identifier: MIT
// encode_tma_map through the driver's cuTensorMapEncodeTiled, reached via the
// runtime's entry-point query so that libbwgemm needs no link to libcuda.
#include <cuda_runtime_api.h>

#include <atomic>

#include "core/recent_values.h"
#include "kernels/common/kernel_view.h"

namespace bwgemm {
namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                 const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                                 const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiled encode_entry_point() {
  static std::atomic<EncodeTiled> cached{nullptr};
  EncodeTiled fn = cached.load(std::memory_order_acquire);
  if (fn == nullptr) {
    void* sym = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &sym, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      return nullptr;
    fn = reinterpret_cast<EncodeTiled>(sym);
    cached.store(fn, std::memory_order_release);
  }
  return fn;
}

// cuTensorMapEncodeTiled is a pure function of its arguments, and a kernel
// call encodes up to three maps, mostly the ones the same thread encoded for
// an earlier call (a model's layers repeat their buffers and shapes): each
// thread keeps its last 8 encodings and copies a match instead of
// calling the driver (host time per call, docs/perf.md).
thread_local RecentValues<TmaMapSpec, CUtensorMap, 8> t_recent;

// How much L2 fetches around a box row it misses on. A row of a 128-byte
// swizzled box is 128 bytes; where rows start off 128-byte boundaries (the
// base or a pitch not a multiple of 128 bytes, as in row classes) each spans
// two lines, and 256-byte promotion fetched up to 512 bytes for it: GPT-2's
// input gradient read twice the memory and ran 26 % slower than with 128
// (docs/perf.md v18). Aligned rows keep 256, as measured throughout.
CUtensorMapL2promotion l2_promotion(const TmaMapSpec& s) {
  const bool aligned = reinterpret_cast<uintptr_t>(s.base) % 128 == 0 && s.strides[0] % 128 == 0 &&
                       s.strides[1] % 128 == 0;
  return aligned ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
}

bool encode_with_driver(const TmaMapSpec& s, CUtensorMap* out) {
  EncodeTiled encode = encode_entry_point();
  if (encode == nullptr) return false;
  const cuuint64_t dims[3] = {s.dims[0], s.dims[1], s.dims[2]};
  const cuuint64_t strides[2] = {s.strides[0], s.strides[1]};
  const cuuint32_t box[3] = {s.box[0], s.box[1], s.box[2]};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  // Out-of-bounds loads fill zeros (FLOAT_OOB_FILL_NONE), which the kernels
  // rely on for partial tiles.
  return encode(out, s.dtype, 3, const_cast<void*>(s.base), dims, strides, box, element_strides,
                CU_TENSOR_MAP_INTERLEAVE_NONE, s.swizzle, l2_promotion(s),
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace

bool encode_tma_map(const TmaMapSpec& s, CUtensorMap* out) {
  if (const CUtensorMap* kept = t_recent.find(s)) {
    *out = *kept;
    return true;
  }
  if (!encode_with_driver(s, out)) return false;
  t_recent.keep(s, *out);
  return true;
}

}  // namespace bwgemm
