// SPDX-License-Identifier: MIT
// What the decode kernel receives, in the kernel view (kernel_view.h): its
// rows are the tokens (cuBLAS's n), its columns the weight's rows (cuBLAS's
// m); both operands are K-contiguous.
#pragma once

#include <cstdint>

#include "kernels/common/gemm_params.h"

namespace bwgemm::decode {

struct DecodeParams {
  const void* tokens;  // the row operand: rows x depth
  int64_t tokens_ld, tokens_stride;
  const void* weight;  // the column operand: cols x depth
  int64_t weight_ld, weight_stride;
  void* out;  // D, rows x cols, any element alignment
  int64_t out_ld, out_stride;
  const void* c_in;  // C, read when beta != 0
  int64_t c_ld, c_stride;
  int32_t rows, cols, depth;
  int32_t col_blocks;  // CTAs per batch
  // K of each CTA's weight rows asked of L2 before the wait for the previous
  // grid (Shape::prefetch_k, at most depth; 0: none, also where alpha is 0 or
  // on the device).
  int32_t prefetch_k;
  OutputStage stage;
};

}  // namespace bwgemm::decode
