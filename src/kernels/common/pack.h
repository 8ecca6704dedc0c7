// SPDX-License-Identifier: MIT
// Copying a 16-bit operand whose rows TMA cannot address (a leading
// dimension, base or batch stride that is not a multiple of 16 bytes) into a
// workspace with 16-byte rows, so that the kernels' TMA loads can read it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace bwgemm {

// A column-major matrix of 16-bit elements, `batch` of them `stride` apart
// (stride 0: one matrix read by every batch).
struct Matrix16 {
  const void* base;
  int64_t rows, cols, ld, stride, batch;
};

// The packed copy's leading dimension (rows rounded up to 8 elements) and
// bytes; a broadcast matrix (stride 0) is packed once.
inline int64_t packed_ld(const Matrix16& m) { return ((m.rows > 1 ? m.rows : 1) + 7) / 8 * 8; }
inline size_t packed_bytes(const Matrix16& m) {
  return size_t(packed_ld(m)) * size_t(m.cols) * size_t(m.stride == 0 ? 1 : m.batch) * 2;
}

// Enqueues the copy of `m` into `dst` (16-byte aligned, packed_bytes(m)
// long) on `stream`: rows padded with zeros to packed_ld, batches
// packed_ld * cols apart. cudaSuccess when enqueued.
cudaError_t enqueue_pack16(const Matrix16& m, void* dst, cudaStream_t stream);

}  // namespace bwgemm
