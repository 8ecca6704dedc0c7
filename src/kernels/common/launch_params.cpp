// SPDX-License-Identifier: MIT
#include "kernels/common/launch_params.h"

#include <algorithm>

namespace bwgemm {
namespace {

bool out_addressable(const KernelView& v) {
  return tma_addressable(v.out, v.out_ld, v.out_stride, v.out_type);
}

// Row class c's first row (row c of a matrix of leading dimension ld) as a
// 16-byte aligned base and the elements from there to the row.
struct ClassBase {
  const void* base;
  int32_t shift;
};

ClassBase class_base(const void* matrix, int64_t ld, int c, size_t elem) {
  const uintptr_t start = reinterpret_cast<uintptr_t>(matrix) + uintptr_t(c) * uintptr_t(ld) * elem;
  const uintptr_t aligned = start / 16 * 16;
  return {reinterpret_cast<const void*>(aligned), int32_t((start - aligned) / elem)};
}

int64_t class_rows(int64_t rows, int c) { return (rows - c + kRowClasses - 1) / kRowClasses; }

// The shift of class c (gemm_params.h): of the row operand's rows (or, for
// row windows, its k columns) or D's.
int32_t class_shift(const KernelView& v, RowClassUse use, int c) {
  return use == RowClassUse::kOut
             ? class_base(v.out, v.out_ld, c, dtype_size(v.out_type)).shift
             : class_base(v.row_operand.base, v.row_operand.ld, c, dtype_size(v.ab_type)).shift;
}

// The largest shift of the classes (what kRowOperand adds to k and kOut to
// the columns).
int32_t largest_shift(const KernelView& v, RowClassUse use) {
  int32_t most = 0;
  for (int c = 0; c < kRowClasses; ++c) most = std::max(most, class_shift(v, use, c));
  return most;
}

}  // namespace

RowClassUse row_class_use(const KernelView& v, const TileShape& shape) {
  if (shape.row_windows)
    return v.batch == 1 && v.depth >= kRowClasses && v.row_operand.mn_major &&
                   (!shape.register_windows ||
                    (v.col_operand.mn_major && v.depth % kRowClasses == 0))
               ? RowClassUse::kRowWindows
               : RowClassUse::kNone;
  if (!shape.row_classes || v.batch != 1 || v.depth == 0 || v.row_operand.mn_major ||
      v.rows < kRowClasses)
    return RowClassUse::kNone;
  const bool row_aligned = tma_addressable(v.row_operand, v.ab_type);
  RowClassUse use = RowClassUse::kNone;
  if (!row_aligned && v.col_operand.mn_major && out_addressable(v))
    use = RowClassUse::kRowOperand;
  else if (row_aligned && !v.col_operand.mn_major && !out_addressable(v))
    use = RowClassUse::kOut;
  if (use == RowClassUse::kNone) return use;
  // kOut also widens the columns by the largest shift (an extra column block
  // where they nearly fill their last one).
  const int32_t widen = use == RowClassUse::kOut ? largest_shift(v, use) : 0;
  const int64_t cluster_rows = int64_t{shape.row_ctas()} * shape.block_rows;
  const int64_t tiles = ceil_div(v.rows, cluster_rows) * ceil_div(v.cols, shape.block_cols);
  const int64_t class_tiles = int64_t{kRowClasses} * ceil_div(class_rows(v.rows, 0), cluster_rows) *
                              ceil_div(v.cols + widen, shape.block_cols);
  return class_tiles * 32 <= tiles * 33 ? use : RowClassUse::kNone;
}

LoadPlan plan_loads(const KernelView& v, const TileShape& shape) {
  const RowClassUse classes = row_class_use(v, shape);
  const bool row_readable = classes == RowClassUse::kRowOperand ||
                            classes == RowClassUse::kRowWindows ||
                            (!shape.row_windows && tma_addressable(v.row_operand, v.ab_type));
  // With k == 0 no operand is ever loaded.
  return {shape.takes_rows(v.rows) &&
              (v.depth == 0 || (row_readable && tma_addressable(v.col_operand, v.ab_type))),
          classes != RowClassUse::kOut && !out_addressable(v), classes};
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
  maps.plan = plan_loads(v, s);
  // K-major operands load a whole block per box; M/N-major ones mn_box at a
  // time (the 128-byte swizzle span).
  const uint32_t row_box = v.row_operand.mn_major ? s.mn_box : s.block_rows;
  const uint32_t col_box = v.col_operand.mn_major ? s.mn_box : s.loaded_cols();
  maps.row =
      operand_tma_spec(v.row_operand, v.ab_type, v.rows, v.depth, v.batch, row_box, s.block_k);
  maps.col =
      operand_tma_spec(v.col_operand, v.ab_type, v.cols, v.depth, v.batch, col_box, s.block_k);
  maps.out = output_tma_spec(v, s.out_box_cols, s.out_box_rows);
  if (maps.plan.classes == RowClassUse::kRowWindows) {
    // Class c: columns k = c + 8i of the rounded base, rows from -shift on;
    // a box is a window's share: the CTA's rows and 8 more, 8 k, unswizzled.
    for (int c = 0; c < kRowClasses; ++c) {
      const ClassBase r =
          class_base(v.row_operand.base, v.row_operand.ld, c, dtype_size(v.ab_type));
      const OperandView class_operand{r.base, kRowClasses * v.row_operand.ld, 0, true};
      TmaMapSpec& m = maps.class_row[c];
      m = operand_tma_spec(class_operand, v.ab_type, v.rows + r.shift, class_rows(v.depth, c), 1,
                           uint32_t(s.block_rows + kRowClasses), uint32_t(s.block_k / kRowClasses));
      m.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    }
    if (s.register_windows) {
      // The column operand's rows k = c + 8i as (M/N, i, c): a k block's box
      // holds them as the windows do, slot 8c + i (sm90 gemm_kernel.cuh).
      TmaMapSpec& m = maps.col;
      m.dims[1] = uint64_t(v.depth / kRowClasses);
      m.dims[2] = kRowClasses;
      m.strides[1] = m.strides[0];
      m.strides[0] *= kRowClasses;
      m.box[1] = uint32_t(s.block_k / kRowClasses);
      m.box[2] = kRowClasses;
    }
    return maps;
  }
  if (maps.plan.classes == RowClassUse::kNone) return maps;
  // Each class: its rows 8 leading dimensions apart from its rounded base,
  // the shift elements before its rows inside the map.
  for (int c = 0; c < kRowClasses; ++c) {
    const ClassBase r = class_base(v.row_operand.base, v.row_operand.ld, c, dtype_size(v.ab_type));
    const OperandView class_operand{r.base, kRowClasses * v.row_operand.ld, 0, false};
    maps.class_row[c] = operand_tma_spec(class_operand, v.ab_type, class_rows(v.rows, c),
                                         v.depth + r.shift, 1, s.block_rows, s.block_k);
    const ClassBase o = class_base(v.out, v.out_ld, c, dtype_size(v.out_type));
    KernelView class_out = v;
    class_out.out = const_cast<void*>(o.base);
    class_out.cols = v.cols + o.shift;
    class_out.rows = class_rows(v.rows, c);
    class_out.out_ld = kRowClasses * v.out_ld;
    maps.class_out[c] = output_tma_spec(class_out, s.out_box_cols, s.out_box_rows);
  }
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
  const LoadPlan plan = plan_loads(v, s);
  g.out_rotated = plan.out_rotated;
  g.out_store_exact = (v.cols * static_cast<int64_t>(dtype_size(v.out_type))) % 16 == 0;
  g.out = v.out;
  g.out_ld = v.out_ld;
  g.out_stride = v.out_stride;
  g.c_in = v.c_in;
  g.c_ld = v.c_ld;
  g.c_stride = v.c_stride;
  g.stage = output_stage(v);
  const RowClassUse use = plan.classes;
  if (use == RowClassUse::kRowWindows) {
    g.classes.use = use;
    for (int c = 0; c < kRowClasses; ++c) g.classes.shift[c] = class_shift(v, use, c);
    return g;
  }
  if (use == RowClassUse::kNone) return g;
  // Row classes (gemm_params.h): the classes are the scheduler's batch.
  g.classes.use = use;
  for (int c = 0; c < kRowClasses; ++c) {
    g.classes.shift[c] = class_shift(v, use, c);
    g.classes.rows[c] = static_cast<int32_t>(class_rows(v.rows, c));
  }
  const int32_t most = *std::max_element(g.classes.shift, g.classes.shift + kRowClasses);
  const bool shifts_cols = use == RowClassUse::kOut;
  g.rows = g.classes.rows[0];
  g.depth = static_cast<int32_t>(v.depth) + (shifts_cols ? 0 : most);
  g.scheduler = make_tile_scheduler(g.rows, v.cols + (shifts_cols ? most : 0), kRowClasses,
                                    s.row_ctas() * s.block_rows, s.block_cols, s.group);
  g.out_ld = kRowClasses * v.out_ld;
  g.out_stride = v.out_ld;
  g.c_ld = kRowClasses * v.c_ld;
  g.c_stride = v.c_ld;
  // A shifted class map's last columns cannot be clipped exactly.
  if (shifts_cols) g.out_store_exact = false;
  return g;
}

bool make_launch_params(const KernelView& v, const TileShape& s, GemmParams* out) {
  *out = launch_params_without_maps(v, s);
  const LaunchMaps maps = launch_map_specs(v, s);
  // Row classes and row windows read the row operand through a map per
  // class; row classes store D through a map per class too.
  const bool row_maps_per_class = maps.plan.classes != RowClassUse::kNone;
  const bool out_maps_per_class =
      row_maps_per_class && maps.plan.classes != RowClassUse::kRowWindows;
  for (int c = 0; row_maps_per_class && c < kRowClasses; ++c)
    if (!encode_tma_map(maps.class_row[c], &out->classes.row_map[c]) ||
        (out_maps_per_class && !encode_tma_map(maps.class_out[c], &out->classes.out_map[c])))
      return false;
  // D staged rotated needs no map (and its pitch could not be encoded).
  if (!out_maps_per_class && !out->out_rotated && !encode_tma_map(maps.out, &out->out_map))
    return false;
  // With k == 0 (never with classes) no operand is ever loaded, and a map
  // cannot have a 0 extent: the operand maps stay zero and unused.
  return v.depth == 0 || ((row_maps_per_class || encode_tma_map(maps.row, &out->row.map)) &&
                          encode_tma_map(maps.col, &out->col.map));
}

uint32_t batch_col_mask(const GemmParams& g, int64_t clusters) {
  const TileScheduler& s = g.scheduler;
  const int64_t per_batch = int64_t{s.row_blocks} * s.col_blocks;
  if (s.batch <= 1 || g.col.batched || s.col_blocks <= 1 || per_batch > clusters ||
      s.tile_count() <= clusters)
    return 0;
  return widest_batch_col_mask(s.col_blocks);
}

}  // namespace bwgemm
