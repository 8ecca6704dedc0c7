// SPDX-License-Identifier: MIT
#include "kernels/common/pack.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>

#include "core/launch_order.h"
#include "kernels/common/word_window.cuh"

namespace bwgemm {
namespace {

constexpr int kChunk = 8;  // elements per 16-byte store

// Quotient and remainder, in 32 bits where both fit (a 64-bit division takes
// several times the instructions of a 32-bit one).
__device__ __forceinline__ void split_index(int64_t c, int64_t d, bool narrow, int64_t& q,
                                            int64_t& r) {
  if (narrow) {
    q = uint32_t(c) / uint32_t(d);
    r = uint32_t(c) - uint32_t(q) * uint32_t(d);
  } else {
    q = c / d;
    r = c - q * d;
  }
}

// Eight elements as one 16-byte store, the first in the low bits.
__device__ __forceinline__ uint4 chunk_of(const uint16_t (&v)[kChunk]) {
  return uint4{v[0] | uint32_t(v[1]) << 16, v[2] | uint32_t(v[3]) << 16,
               v[4] | uint32_t(v[5]) << 16, v[6] | uint32_t(v[7]) << 16};
}

// One thread per 16-byte chunk of the packed copy, one 16-byte store. The
// source rows are only 2-byte aligned: a chunk whose 8 rows are all inside
// the column is cut from the one or two aligned 16-byte words around it, as
// long as those words end inside the operand (`src_end`; a word starts at or
// after the 16-byte boundary below the operand's base, inside the same
// allocation); the column's last, partial chunk and a word past the end are
// read element by element. Rows past the column are zeros. A plain CUDA
// kernel outside the primitive layer: dispatch enqueues it before a family's
// launch, so the emulator, which runs the families' kernels, never runs it.
__global__ void pack16_kernel(const uint16_t* __restrict__ src, const uint16_t* src_end,
                              int64_t rows, int64_t ld, int64_t stride, uint4* __restrict__ dst,
                              int64_t chunks_per_col, int64_t cols, int64_t total_chunks) {
  const bool narrow = total_chunks <= UINT32_MAX;
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < total_chunks;
       c += int64_t(gridDim.x) * blockDim.x) {
    int64_t col_linear, chunk, b = 0, j;  // col_linear = batch * cols + column
    split_index(c, chunks_per_col, narrow, col_linear, chunk);
    if (col_linear >= cols)
      split_index(col_linear, cols, narrow, b, j);
    else
      j = col_linear;
    const int64_t row0 = chunk * kChunk;
    const uint16_t* first = src + b * stride + j * ld + row0;
    const int e = int(reinterpret_cast<uintptr_t>(first) % 16) / 2;
    const uint4* word = reinterpret_cast<const uint4*>(first - e);
    uint4 packed;
    if (row0 + kChunk <= rows && reinterpret_cast<const uint16_t*>(word + (e ? 2 : 1)) <= src_end) {
      const uint4 lo = word[0];
      packed = e ? word_window(lo, word[1], e) : lo;
    } else {
      uint16_t v[kChunk];
#pragma unroll
      for (int t = 0; t < kChunk; ++t) v[t] = row0 + t < rows ? first[t] : uint16_t{0};
      packed = chunk_of(v);
    }
    dst[c] = packed;
  }
}

// One thread per 8 elements of a row of the source, one 16-byte store into
// dst's column: 8 loads a leading dimension apart. Neighbouring threads take
// neighbouring rows, so their loads share sectors where there are several.
__global__ void transpose16_kernel(const uint16_t* __restrict__ src, int64_t rows, int64_t ld,
                                   int64_t cols, uint4* __restrict__ dst, int64_t total_chunks) {
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < total_chunks;
       c += int64_t(gridDim.x) * blockDim.x) {
    const int64_t row = c % rows, col0 = c / rows * kChunk;
    const uint16_t* first = src + col0 * ld + row;
    uint16_t v[kChunk];
#pragma unroll
    for (int t = 0; t < kChunk; ++t) v[t] = first[t * ld];
    dst[(row * cols + col0) / kChunk] = chunk_of(v);
  }
}

constexpr int kThreads = 256;

unsigned blocks_for(int64_t threads) {
  return unsigned(std::min<int64_t>((threads + kThreads - 1) / kThreads, INT_MAX));
}

}  // namespace

cudaError_t enqueue_pack16(const Matrix16& m, void* dst, cudaStream_t stream) {
  const int64_t chunks_per_col = packed_ld(m) / kChunk;
  const int64_t batches = m.stride == 0 ? 1 : m.batch;
  const int64_t total = chunks_per_col * m.cols * batches;
  if (total == 0) return cudaSuccess;
  // One past the operand's last element, in its last batch (batch strides
  // are not negative: api/decode.cpp leaves those to cuBLAS).
  const auto* base = static_cast<const uint16_t*>(m.base);
  const int64_t last_col = (m.cols - 1) * m.ld + m.rows;
  const int64_t far = (batches - 1) * m.stride;
  record_other_grid();  // it does not release its dependents early
  pack16_kernel<<<blocks_for(total), kThreads, 0, stream>>>(
      base, base + far + last_col, m.rows, m.ld, m.stride, static_cast<uint4*>(dst), chunks_per_col,
      m.cols, total);
  return cudaGetLastError();
}

cudaError_t enqueue_transpose16(const Matrix16& m, void* dst, cudaStream_t stream) {
  const int64_t total = m.rows * (m.cols / kChunk);
  if (total == 0) return cudaSuccess;
  record_other_grid();
  transpose16_kernel<<<blocks_for(total), kThreads, 0, stream>>>(
      static_cast<const uint16_t*>(m.base), m.rows, m.ld, m.cols, static_cast<uint4*>(dst), total);
  return cudaGetLastError();
}

}  // namespace bwgemm
