// SPDX-License-Identifier: MIT
// The kernels' view of a GEMM, and the TMA maps that describe it.
//
// cuBLAS's column-major C[m x n] = op(A) op(B) is, read row-major, the
// transposed product D[n x m] = op(B)^T op(A)^T with m contiguous. The kernels
// compute that row-major D: its rows are cuBLAS's n, its columns cuBLAS's m.
// The "row operand" (D's rows x K) is op(B)^T, the "column operand" (K x D's
// columns) is op(A)^T, and the output tile's contiguous dimension is m, so
// each thread's accumulator pairs land next to each other in memory.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "core/problem.h"

namespace bwgemm {

struct OperandView {
  const void* base;
  int64_t ld;      // elements between consecutive rows of storage
  int64_t stride;  // elements between batch matrices; 0: the same matrix for all
  bool mn_major;   // contiguous along M/N (rows or columns of D) rather than K
};

struct KernelView {
  DType ab_type, out_type;
  int64_t rows, cols, depth, batch;
  OperandView row_operand;  // op(B)^T: rows x depth
  OperandView col_operand;  // op(A)^T: depth x cols
  void* out;                // D
  int64_t out_ld, out_stride;
  const void* c_in;  // C (D itself in place; NULL when beta == 0 allows it)
  int64_t c_ld, c_stride;
  Scalar alpha, beta;
  Epilogue epilogue;  // bias per column of the view (per m), activation
};

// The only place cuBLAS's transposes become operand majorness: launchers
// compute the view once per call and derive everything else from it.
KernelView to_kernel_view(const GemmProblem& p);

// Which compiled instantiation of a family runs a view.
struct VariantKey {
  DType ab_type, out_type;
  bool row_mn, col_mn;  // the operands' majorness (OperandView::mn_major)
};
VariantKey variant_key(const KernelView& v);

// The arguments of cuTensorMapEncodeTiled for a 3-D (dim 2 = batch) map.
struct TmaMapSpec {
  CUtensorMapDataType dtype;
  const void* base;
  uint64_t dims[3];     // elements, innermost first
  uint64_t strides[2];  // bytes of dims 1 and 2
  uint32_t box[3];
  CUtensorMapSwizzle swizzle;
};

inline bool operator==(const TmaMapSpec& a, const TmaMapSpec& b) {
  return a.base == b.base && a.dtype == b.dtype && a.swizzle == b.swizzle &&
         a.dims[0] == b.dims[0] && a.dims[1] == b.dims[1] && a.dims[2] == b.dims[2] &&
         a.strides[0] == b.strides[0] && a.strides[1] == b.strides[1] && a.box[0] == b.box[0] &&
         a.box[1] == b.box[1] && a.box[2] == b.box[2];
}

// A map over an operand with `mn_extent` rows (or columns) and `depth` K.
// K-major operands get boxes of box_k x box_mn (K innermost), MN-major ones
// box_mn x box_k (M/N innermost).
TmaMapSpec operand_tma_spec(const OperandView& op, DType type, int64_t mn_extent, int64_t depth,
                            int64_t batch, uint32_t box_mn, uint32_t box_k);

// A map over D with boxes of box_cols x box_rows.
TmaMapSpec output_tma_spec(const KernelView& v, uint32_t box_cols, uint32_t box_rows);

// cuTensorMapEncodeTiled through the driver entry point. False when the
// driver rejects the spec (or cannot be reached). The library's version
// keeps each thread's last few encodings and copies one whose spec matches
// (tma_encode.cpp).
bool encode_tma_map(const TmaMapSpec& spec, CUtensorMap* out);

}  // namespace bwgemm
