// SPDX-License-Identifier: MIT
#include "kernels/common/launch_params.h"

namespace bwgemm {
namespace {

// TMA can address the operand as it is: base, row pitch and batch stride are
// all multiples of 16 bytes.
bool tma_aligned(const void* base, int64_t ld, int64_t plane_stride, DType type) {
  const int64_t elem = static_cast<int64_t>(dtype_size(type));
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && ld * elem % 16 == 0 &&
         plane_stride * elem % 16 == 0;
}

// Residue classes need a 16-byte batch stride (each class keeps its own
// base) and at least one row in every class.
bool classes_possible(const OperandView& op, DType type, int64_t strided_extent) {
  return op.stride * static_cast<int64_t>(dtype_size(type)) % 16 == 0 &&
         strided_extent >= kLoadClasses;
}

OperandMapSpecs tiled_specs(const OperandView& op, DType type, int64_t mn_extent, int64_t depth,
                            int64_t batch, uint32_t box_mn, uint32_t box_k) {
  OperandMapSpecs m{};
  m.count = 1;
  m.specs[0] = operand_tma_spec(op, type, mn_extent, depth, batch, box_mn, box_k);
  return m;
}

// Class c covers the rows of the strided index (M/N for a K-major operand,
// K for an M/N-major one) that are c modulo 8, from the 16-byte boundary at
// or below its first row; boxes of box_inner x 8 rows.
OperandMapSpecs class_specs(const OperandView& op, DType type, int64_t mn_extent, int64_t depth,
                            int64_t batch, uint32_t box_inner) {
  const int64_t elem = static_cast<int64_t>(dtype_size(type));
  const int64_t inner = op.mn_major ? mn_extent : depth;
  const int64_t strided = op.mn_major ? depth : mn_extent;
  OperandMapSpecs m{};
  m.count = kLoadClasses;
  for (int c = 0; c < kLoadClasses; ++c) {
    const uintptr_t first = reinterpret_cast<uintptr_t>(op.base) + uintptr_t(c * op.ld * elem);
    const uintptr_t aligned = first & ~uintptr_t{15};
    m.shift[c] = static_cast<int32_t>((first - aligned) / uintptr_t(elem));
    // The same map as a K-major tiled one over (inner + shift) x class rows,
    // from the aligned base, with 8 rows' pitch.
    OperandView class_rows = op;
    class_rows.base = reinterpret_cast<const void*>(aligned);
    class_rows.ld = kLoadClasses * op.ld;
    class_rows.mn_major = false;
    m.specs[c] = operand_tma_spec(class_rows, type, (strided - c + kLoadClasses - 1) / kLoadClasses,
                                  inner + m.shift[c], batch, kLoadClasses, box_inner);
  }
  return m;
}

}  // namespace

LoadPlan plan_loads(const KernelView& v) {
  const OperandView& row = v.row_operand;
  const OperandView& col = v.col_operand;
  const bool row_tiled = tma_aligned(row.base, row.ld, row.stride, v.ab_type);
  const bool col_tiled = tma_aligned(col.base, col.ld, col.stride, v.ab_type);
  LoadPlan plan{true, OperandLoad::kTiled, OperandLoad::kTiled,
                !tma_aligned(v.out, v.out_ld, v.out_stride, v.out_type)};
  // An unaligned M/N-major operand permutes K, so both operands must.
  if ((!row_tiled && row.mn_major) || (!col_tiled && col.mn_major)) {
    plan.supported = row.mn_major && col.mn_major && classes_possible(row, v.ab_type, v.depth) &&
                     classes_possible(col, v.ab_type, v.depth);
    plan.row = plan.col = OperandLoad::kDepthClasses;
    return plan;
  }
  // An unaligned K-major row operand permutes D's rows, which the epilogue
  // puts back; permuted columns it does not (a K-major column operand).
  if (!row_tiled) {
    plan.row = OperandLoad::kRowClasses;
    plan.supported = classes_possible(row, v.ab_type, v.rows);
  }
  if (!col_tiled) plan.supported = false;
  return plan;
}

LaunchMaps launch_map_specs(const KernelView& v, const TileShape& s) {
  LaunchMaps maps{};
  maps.plan = plan_loads(v);
  // K-major operands load a whole block per box; M/N-major ones mn_box at a
  // time (the 128-byte swizzle span). Classes load boxes of 8 rows.
  const uint32_t row_box = v.row_operand.mn_major ? s.mn_box : s.block_rows;
  const uint32_t col_box = v.col_operand.mn_major ? s.mn_box : s.block_cols / s.cluster_size;
  const uint32_t row_inner = v.row_operand.mn_major ? s.mn_box : s.block_k;
  const uint32_t col_inner = v.col_operand.mn_major ? s.mn_box : s.block_k;
  maps.row =
      maps.plan.row == OperandLoad::kTiled
          ? tiled_specs(v.row_operand, v.ab_type, v.rows, v.depth, v.batch, row_box, s.block_k)
          : class_specs(v.row_operand, v.ab_type, v.rows, v.depth, v.batch, row_inner);
  maps.col =
      maps.plan.col == OperandLoad::kTiled
          ? tiled_specs(v.col_operand, v.ab_type, v.cols, v.depth, v.batch, col_box, s.block_k)
          : class_specs(v.col_operand, v.ab_type, v.cols, v.depth, v.batch, col_inner);
  maps.out = output_tma_spec(v, s.out_box_cols, s.out_box_rows);
  return maps;
}

GemmParams launch_params_without_maps(const KernelView& v, const TileShape& s) {
  const LoadPlan plan = plan_loads(v);
  GemmParams g{};
  g.scheduler = make_tile_scheduler(v.rows, v.cols, v.batch, s.cluster_size * s.block_rows,
                                    s.block_cols, s.group);
  g.rows = static_cast<int32_t>(v.rows);
  g.cols = static_cast<int32_t>(v.cols);
  g.depth = static_cast<int32_t>(v.depth);
  g.row.load = plan.row;
  g.col.load = plan.col;
  g.row.batched = v.batch > 1 && v.row_operand.stride != 0;
  g.col.batched = v.batch > 1 && v.col_operand.stride != 0;
  g.out_batched = v.batch > 1;
  g.out_by_threads = plan.out_by_threads;
  g.out_store_exact = (v.cols * static_cast<int64_t>(dtype_size(v.out_type))) % 16 == 0;
  g.out = v.out;
  g.out_ld = v.out_ld;
  g.out_stride = v.out_stride;
  g.alpha = {v.alpha.on_device ? 0.0f : v.alpha.value,
             v.alpha.on_device ? v.alpha.device : nullptr};
  g.beta = {v.beta.on_device ? 0.0f : v.beta.value, v.beta.on_device ? v.beta.device : nullptr};
  return g;
}

namespace {

bool encode_operand(const OperandMapSpecs& specs, OperandMaps* out) {
  for (int c = 0; c < specs.count; ++c) {
    out->shift[c] = specs.shift[c];
    if (!encode_tma_map(specs.specs[c], &out->maps[c])) return false;
  }
  return true;
}

}  // namespace

bool make_launch_params(const KernelView& v, const TileShape& s, GemmParams* out) {
  *out = launch_params_without_maps(v, s);
  const LaunchMaps maps = launch_map_specs(v, s);
  // D stored by threads needs no map (and its pitch could not be encoded).
  if (!out->out_by_threads && !encode_tma_map(maps.out, &out->out_map)) return false;
  // With k == 0 no operand is ever loaded (and a map cannot have a 0 extent):
  // the operand maps stay zero and unused.
  return v.depth == 0 ||
         (encode_operand(maps.row, &out->row) && encode_operand(maps.col, &out->col));
}

}  // namespace bwgemm
