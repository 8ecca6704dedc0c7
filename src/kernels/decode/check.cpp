// SPDX-License-Identifier: MIT
#include "kernels/decode/check.h"

#include <climits>

#include "kernels/common/kernel_view.h"
#include "kernels/common/launch_params.h"
#include "kernels/decode/config.h"

namespace bwgemm::decode {

bwgemmReason_t check(const GemmProblem& p, const DeviceCaps& caps) {
  const KernelView v = to_kernel_view(p);
  const bool fits = v.rows >= 1 && v.rows <= kMaxTokens && v.cols >= 1 && v.cols <= INT_MAX &&
                    v.depth <= INT_MAX && v.depth % 8 == 0 && v.batch >= 1 &&
                    (v.cols + 15) / 16 * v.batch <= INT_MAX && !v.row_operand.mn_major &&
                    tma_addressable(v.row_operand, v.ab_type) &&
                    (!v.col_operand.mn_major || v.cols % 8 == 0 || p.a_padded) &&
                    tma_addressable(v.col_operand, v.ab_type) &&
                    (p.sm_count_target == 0 || p.sm_count_target >= caps.sm_count);
  return fits ? BWGEMM_REASON_KERNEL_SELECTED : BWGEMM_REASON_UNSUPPORTED_LAYOUT;
}

int64_t ctas(const GemmProblem& p) {
  const KernelView v = to_kernel_view(p);
  return col_blocks(v.cols, kShapes[shape_for(v.rows, v.col_operand.mn_major)]) * v.batch;
}

int shape_of(const GemmProblem& p, const DeviceCaps& caps) {
  const KernelView v = to_kernel_view(p);
  return launch_shape(shape_for(v.rows, v.col_operand.mn_major), ctas(p), caps.sm_count);
}

}  // namespace bwgemm::decode
