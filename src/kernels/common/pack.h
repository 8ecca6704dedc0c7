// SPDX-License-Identifier: MIT
// Copying a 16-bit operand into a workspace in a layout the kernels read:
// with 16-byte rows where TMA cannot address the operand's (a leading
// dimension, base or batch stride that is not a multiple of 16 bytes), or
// transposed.
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

// The packed copy's leading dimension and bytes; a broadcast matrix (stride
// 0) is packed once. Rows are rounded up to 64 elements, so that each column
// starts a 128-byte line, as in a padded matrix (GPT-2's 50304; with a
// 50264-element pitch the kernels read the copy markedly slower, docs/perf.md
// v13); fewer than 64 rows to 8 (16 bytes), so short columns do not grow
// eightfold.
inline int64_t packed_ld(const Matrix16& m) {
  const int64_t rows = m.rows > 1 ? m.rows : 1;
  const int64_t unit = rows >= 64 ? 64 : 8;
  return (rows + unit - 1) / unit * unit;
}
inline size_t packed_bytes(const Matrix16& m) {
  return size_t(packed_ld(m)) * size_t(m.cols) * size_t(m.stride == 0 ? 1 : m.batch) * 2;
}

// Enqueues the copy of `m` into `dst` (16-byte aligned, packed_bytes(m)
// long) on `stream`: rows padded with zeros to packed_ld, batches
// packed_ld * cols apart. cudaSuccess when enqueued.
cudaError_t enqueue_pack16(const Matrix16& m, void* dst, cudaStream_t stream);

// Enqueues the copy of `m` (one matrix, m.cols a multiple of 8) transposed
// into `dst` (16-byte aligned, m.rows * m.cols elements): dst is m.cols x
// m.rows with leading dimension m.cols. For a few N-major columns of op(B)
// that a kernel reads K-major (sm90/family.cpp). cudaSuccess when enqueued.
cudaError_t enqueue_transpose16(const Matrix16& m, void* dst, cudaStream_t stream);

// The columns of op(B) a transposed copy may take: dispatch leaves room for
// that many after the copy of an N-major B (dispatch/launch.cpp).
constexpr int64_t kMaxTransposedColumns = 32;

}  // namespace bwgemm
