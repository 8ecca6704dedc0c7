// SPDX-License-Identifier: MIT
#include "kernels/common/launch_params.h"

namespace bwgemm {

LoadPlan plan_loads(const KernelView& v, bool thread_loads) {
  // With k == 0 no operand is ever loaded.
  const auto by_threads = [&](const OperandView& op) {
    return v.depth > 0 && !tma_addressable(op.base, op.ld, op.stride, v.ab_type);
  };
  LoadPlan plan;
  plan.row_by_threads = by_threads(v.row_operand);
  plan.col_by_threads = by_threads(v.col_operand);
  plan.supported = thread_loads || !(plan.row_by_threads || plan.col_by_threads);
  plan.out_rotated = !tma_addressable(v.out, v.out_ld, v.out_stride, v.out_type);
  return plan;
}

OutputStage output_stage(const KernelView& v) {
  OutputStage s{};
  s.alpha = {v.alpha.on_device ? 0.0f : v.alpha.value,
             v.alpha.on_device ? v.alpha.device : nullptr};
  s.beta = {v.beta.on_device ? 0.0f : v.beta.value, v.beta.on_device ? v.beta.device : nullptr};
  s.has_epilogue = v.epilogue.bias != nullptr || v.epilogue.activation != Activation::None;
  s.activation = v.epilogue.activation == Activation::Relu   ? EpilogueActivation::kRelu
                 : v.epilogue.activation == Activation::Gelu ? EpilogueActivation::kGelu
                                                             : EpilogueActivation::kNone;
  s.bias_type = v.epilogue.bias_type == DType::F16    ? EpilogueBiasType::kF16
                : v.epilogue.bias_type == DType::BF16 ? EpilogueBiasType::kBF16
                                                      : EpilogueBiasType::kF32;
  s.bias = v.epilogue.bias;
  s.bias_stride = v.batch > 1 ? v.epilogue.bias_stride : 0;
  return s;
}

LaunchMaps launch_map_specs(const KernelView& v, const TileShape& s) {
  LaunchMaps maps{};
  maps.plan = plan_loads(v, s.thread_loads);
  // K-major operands load a whole block per box; M/N-major ones mn_box at a
  // time (the 128-byte swizzle span).
  const uint32_t row_box = v.row_operand.mn_major ? s.mn_box : s.block_rows;
  const uint32_t col_box = v.col_operand.mn_major ? s.mn_box : s.loaded_cols();
  maps.row =
      operand_tma_spec(v.row_operand, v.ab_type, v.rows, v.depth, v.batch, row_box, s.block_k);
  maps.col =
      operand_tma_spec(v.col_operand, v.ab_type, v.cols, v.depth, v.batch, col_box, s.block_k);
  maps.out = output_tma_spec(v, s.out_box_cols, s.out_box_rows);
  return maps;
}

GemmParams launch_params_without_maps(const KernelView& v, const TileShape& s) {
  GemmParams g{};
  g.scheduler = make_tile_scheduler(v.rows, v.cols, v.batch, s.row_ctas() * s.block_rows,
                                    s.block_cols, s.group);
  g.rows = static_cast<int32_t>(v.rows);
  g.cols = static_cast<int32_t>(v.cols);
  g.depth = static_cast<int32_t>(v.depth);
  const LoadPlan plan = plan_loads(v, s.thread_loads);
  const auto set_operand = [&](OperandMap* g_op, const OperandView& op, bool by_threads) {
    g_op->batched = v.batch > 1 && op.stride != 0;
    g_op->by_threads = by_threads;
    if (by_threads) {
      g_op->base = op.base;
      g_op->ld = op.ld;
      g_op->stride = g_op->batched ? op.stride : 0;
    }
  };
  set_operand(&g.row, v.row_operand, plan.row_by_threads);
  set_operand(&g.col, v.col_operand, plan.col_by_threads);
  g.out_batched = v.batch > 1;
  g.out_rotated = plan.out_rotated;
  g.out_store_exact = (v.cols * static_cast<int64_t>(dtype_size(v.out_type))) % 16 == 0;
  g.out = v.out;
  g.out_ld = v.out_ld;
  g.out_stride = v.out_stride;
  g.c_in = v.c_in;
  g.c_ld = v.c_ld;
  g.c_stride = v.c_stride;
  g.stage = output_stage(v);
  return g;
}

bool make_launch_params(const KernelView& v, const TileShape& s, GemmParams* out) {
  *out = launch_params_without_maps(v, s);
  const LaunchMaps maps = launch_map_specs(v, s);
  // D staged rotated needs no map (and its pitch could not be encoded).
  if (!out->out_rotated && !encode_tma_map(maps.out, &out->out_map)) return false;
  // With k == 0 no operand is ever loaded (and a map cannot have a 0 extent),
  // and the loader warps need none: those maps stay zero and unused.
  return v.depth == 0 || ((out->row.by_threads || encode_tma_map(maps.row, &out->row.map)) &&
                          (out->col.by_threads || encode_tma_map(maps.col, &out->col.map)));
}

}  // namespace bwgemm
