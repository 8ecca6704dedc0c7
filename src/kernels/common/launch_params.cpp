// SPDX-License-Identifier: MIT
#include "kernels/common/launch_params.h"

namespace bwgemm {

LoadPlan plan_loads(const KernelView& v) {
  const OperandView& row = v.row_operand;
  const OperandView& col = v.col_operand;
  // With k == 0 no operand is ever loaded.
  return {v.depth == 0 || (tma_addressable(row.base, row.ld, row.stride, v.ab_type) &&
                           tma_addressable(col.base, col.ld, col.stride, v.ab_type)),
          !tma_addressable(v.out, v.out_ld, v.out_stride, v.out_type)};
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
  maps.plan = plan_loads(v);
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
  g.row.batched = v.batch > 1 && v.row_operand.stride != 0;
  g.col.batched = v.batch > 1 && v.col_operand.stride != 0;
  g.out_batched = v.batch > 1;
  g.out_rotated = plan_loads(v).out_rotated;
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
  // With k == 0 no operand is ever loaded (and a map cannot have a 0 extent):
  // the operand maps stay zero and unused.
  return v.depth == 0 ||
         (encode_tma_map(maps.row, &out->row.map) && encode_tma_map(maps.col, &out->col.map));
}

}  // namespace bwgemm
