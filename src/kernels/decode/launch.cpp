// SPDX-License-Identifier: MIT
#include "kernels/decode/launch.h"

#include <algorithm>
#include <atomic>

#include "core/launch_order.h"
#include "core/log.h"
#include "kernels/common/launch_params.h"
#include "kernels/decode/check.h"
#include "kernels/decode/config.h"
#include "kernels/decode/variants.h"

namespace bwgemm::decode {
namespace {

std::atomic<bool> g_launch_failure_warned{false};

// Every shape is built for the same type pairs.
DecodeKernel kernel_of(const KernelView& v, int shape) {
  return kernel_for(v.ab_type, v.out_type, shape);
}

}  // namespace

DecodeParams make_params(const KernelView& v, int shape) {
  DecodeParams d{};
  d.tokens = v.row_operand.base;
  d.tokens_ld = v.row_operand.ld;
  d.tokens_stride = v.row_operand.stride;
  d.weight = v.col_operand.base;
  d.weight_ld = v.col_operand.ld;
  d.weight_stride = v.col_operand.stride;
  d.out = v.out;
  d.out_ld = v.out_ld;
  d.out_stride = v.out_stride;
  d.c_in = v.c_in;
  d.c_ld = v.c_ld;
  d.c_stride = v.c_stride;
  d.rows = static_cast<int32_t>(v.rows);
  d.cols = static_cast<int32_t>(v.cols);
  d.depth = static_cast<int32_t>(v.depth);
  d.col_blocks = static_cast<int32_t>(col_blocks(v.cols, kShapes[shape]));
  d.stage = output_stage(v);
  // Where alpha == 0 the weight need not be a valid address (cuBLAS reads
  // no operand then); a device alpha is known only after the wait.
  const bool reads_weight = d.stage.alpha.device == nullptr && d.stage.alpha.value != 0.0f;
  d.prefetch_k = reads_weight
                     ? static_cast<int32_t>(std::min<int64_t>(kShapes[shape].prefetch_k, v.depth))
                     : 0;
  return d;
}

bool has_kernel(const GemmProblem& p) {
  const KernelView v = to_kernel_view(p);
  return kernel_of(v, shape_for(v.rows, v.col_operand.mn_major)) != nullptr;
}

LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, bool after_own_grid) {
  const KernelView v = to_kernel_view(p);
  const int shape = shape_of(p, caps);
  const DecodeKernel kernel = kernel_of(v, shape);
  if (kernel == nullptr) return {LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
  const DecodeParams params = make_params(v, shape);
  const GridInputs inputs{p.stream, p.b};
  const bool programmatic = after_own_grid || follows_releasing_grid(inputs);
  const cudaError_t err =
      enqueue_decode(kernel, unsigned(params.col_blocks * v.batch), smem_bytes(kShapes[shape]),
                     params, programmatic, p.stream);
  if (err != cudaSuccess) {
    if (!g_launch_failure_warned.exchange(true))
      log_warning("decode kernel launch failed (CUDA error %d)", static_cast<int>(err));
    return {LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
  }
  record_releasing_grid(inputs);  // as decode_kernel.cuh does
  return {LaunchStatus::kEnqueued, BWGEMM_REASON_KERNEL_SELECTED};
}

}  // namespace bwgemm::decode
