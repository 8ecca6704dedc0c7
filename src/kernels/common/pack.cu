// SPDX-License-Identifier: MIT
#include "kernels/common/pack.h"

#include <cuda_runtime.h>

#include <algorithm>

namespace bwgemm {
namespace {

constexpr int kChunk = 8;  // elements per 16-byte store

// One thread per 16-byte chunk of the packed copy: eight 2-byte loads (the
// source rows are only 2-byte aligned), one 16-byte store. A plain CUDA
// kernel outside the primitive layer: dispatch enqueues it before a family's
// launch, so the emulator, which runs the families' kernels, never runs it.
__global__ void pack16_kernel(const uint16_t* __restrict__ src, int64_t rows, int64_t ld,
                              int64_t stride, uint4* __restrict__ dst, int64_t chunks_per_col,
                              int64_t cols, int64_t total_chunks) {
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < total_chunks;
       c += int64_t(gridDim.x) * blockDim.x) {
    const int64_t col_linear = c / chunks_per_col;  // batch * cols + column
    const int64_t row0 = (c - col_linear * chunks_per_col) * kChunk;
    const int64_t b = col_linear / cols, j = col_linear - b * cols;
    const uint16_t* column = src + b * stride + j * ld;
    uint16_t v[kChunk];
#pragma unroll
    for (int t = 0; t < kChunk; ++t) v[t] = row0 + t < rows ? column[row0 + t] : uint16_t{0};
    uint4 packed;
    packed.x = v[0] | uint32_t(v[1]) << 16;
    packed.y = v[2] | uint32_t(v[3]) << 16;
    packed.z = v[4] | uint32_t(v[5]) << 16;
    packed.w = v[6] | uint32_t(v[7]) << 16;
    dst[c] = packed;
  }
}

}  // namespace

cudaError_t enqueue_pack16(const Matrix16& m, void* dst, cudaStream_t stream) {
  const int64_t chunks_per_col = packed_ld(m) / kChunk;
  const int64_t total = chunks_per_col * m.cols * (m.stride == 0 ? 1 : m.batch);
  if (total == 0) return cudaSuccess;
  constexpr int kThreads = 256;
  const int64_t blocks = std::min<int64_t>((total + kThreads - 1) / kThreads, 65536);
  pack16_kernel<<<unsigned(blocks), kThreads, 0, stream>>>(
      static_cast<const uint16_t*>(m.base), m.rows, m.ld, m.stride, static_cast<uint4*>(dst),
      chunks_per_col, m.cols, total);
  return cudaGetLastError();
}

}  // namespace bwgemm
