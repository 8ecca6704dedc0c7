// SPDX-License-Identifier: MIT
#include "kernels/common/kernel_view.h"

namespace bwgemm {
namespace {

CUtensorMapDataType tma_dtype(DType t) {
  switch (t) {
    case DType::F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case DType::BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case DType::F32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  }
  return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

// The batch dimension of a map: a broadcast operand (stride 0) or a single
// matrix is one plane. A one-plane stride is never used but must be valid.
void set_batch_dim(TmaMapSpec* s, int64_t batch, int64_t stride_elems, size_t elem) {
  const bool planes = batch > 1 && stride_elems != 0;
  s->dims[2] = planes ? static_cast<uint64_t>(batch) : 1;
  s->strides[1] = planes ? static_cast<uint64_t>(stride_elems) * elem : s->strides[0];
}

}  // namespace

KernelView to_kernel_view(const GemmProblem& p) {
  KernelView v{};
  v.ab_type = p.ab_type;
  v.out_type = p.c_type;
  v.rows = p.n;
  v.cols = p.m;
  v.depth = p.k;
  v.batch = p.batch;
  // op(B)^T is K-major exactly when B is not transposed.
  v.row_operand = {p.b, p.ldb, p.batch > 1 ? p.stride_b : 0, p.trans_b};
  // op(A)^T is K-major exactly when A is transposed.
  v.col_operand = {p.a, p.lda, p.batch > 1 ? p.stride_a : 0, !p.trans_a};
  v.out = p.d;
  v.out_ld = p.ldd;
  v.out_stride = p.batch > 1 ? p.stride_d : 0;
  v.c_in = p.c;
  v.c_ld = p.ldc;
  v.c_stride = p.batch > 1 ? p.stride_c : 0;
  v.alpha = p.alpha;
  v.beta = p.beta;
  // cuBLAS's bias runs along m, the view's columns: no transpose to undo.
  v.epilogue = p.epilogue;
  return v;
}

VariantKey variant_key(const KernelView& v) {
  return {v.ab_type, v.out_type, v.row_operand.mn_major, v.col_operand.mn_major};
}

TmaMapSpec operand_tma_spec(const OperandView& op, DType type, int64_t mn_extent, int64_t depth,
                            int64_t batch, uint32_t box_mn, uint32_t box_k) {
  const size_t elem = dtype_size(type);
  TmaMapSpec s{};
  s.dtype = tma_dtype(type);
  s.base = op.base;
  if (op.mn_major) {
    s.dims[0] = static_cast<uint64_t>(mn_extent);
    s.dims[1] = static_cast<uint64_t>(depth);
    s.box[0] = box_mn;
    s.box[1] = box_k;
  } else {
    s.dims[0] = static_cast<uint64_t>(depth);
    s.dims[1] = static_cast<uint64_t>(mn_extent);
    s.box[0] = box_k;
    s.box[1] = box_mn;
  }
  s.box[2] = 1;
  s.strides[0] = static_cast<uint64_t>(op.ld) * elem;
  set_batch_dim(&s, batch, op.stride, elem);
  s.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  return s;
}

TmaMapSpec output_tma_spec(const KernelView& v, uint32_t box_cols, uint32_t box_rows) {
  const size_t elem = dtype_size(v.out_type);
  TmaMapSpec s{};
  s.dtype = tma_dtype(v.out_type);
  s.base = v.out;
  s.dims[0] = static_cast<uint64_t>(v.cols);
  s.dims[1] = static_cast<uint64_t>(v.rows);
  s.box[0] = box_cols;
  s.box[1] = box_rows;
  s.box[2] = 1;
  s.strides[0] = static_cast<uint64_t>(v.out_ld) * elem;
  set_batch_dim(&s, v.batch, v.out_stride, elem);
  s.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  return s;
}

}  // namespace bwgemm
