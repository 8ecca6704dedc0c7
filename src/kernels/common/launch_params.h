// SPDX-License-Identifier: MIT
// Host side of a launch: GemmParams from a kernel view, for a family's tile
// shape.
#pragma once

#include "kernels/common/gemm_params.h"
#include "kernels/common/kernel_view.h"

namespace bwgemm {

// What the parameter builder needs to know of a kernel configuration; a
// family fills every field for the output type.
struct TileShape {
  int cluster_size;
  int block_rows, block_cols, block_k;  // per CTA (rows loaded), block_cols shared by the cluster
  int mn_box;                           // M/N extent of a box of an M/N-major operand
  int out_box_cols, out_box_rows;       // one epilogue chunk
  int group;                            // scheduler group (cluster-row blocks)
  // The cluster's CTAs split K of one block_rows x block_cols tile, each
  // loading all of it, instead of stacking along the rows and sharing the
  // column block.
  bool split_k;
  // The family's kernel runs row classes (gemm_params.h).
  bool row_classes;
  // The configuration reads M/N-major row operands through row windows
  // (RowClassUse::kRowWindows), whatever their alignment.
  bool row_windows;
  // > 0: each CTA loads only this many rows of the row operand per stage
  // (block_rows of them), so the configuration takes at most one such block.
  int max_rows = 0;
  // The row windows land in the stages and the consumers read them into
  // registers; the column operand, M/N-major, is loaded in the windows' k
  // order (k % 8, then k / 8), so k must be a multiple of 8.
  bool register_windows = false;
  // The kernel runs a tile's k blocks as pieces on different clusters where
  // the scheduler splits it (tile_split.h).
  bool split_tiles = false;

  int row_ctas() const { return split_k ? 1 : cluster_size; }
  bool takes_rows(int64_t rows) const { return max_rows == 0 || rows <= max_rows; }
  int loaded_cols() const { return block_cols / row_ctas(); }
};

// Whether TMA can address a matrix as it is: base, leading dimension and
// batch stride (0 when one matrix serves every batch) all multiples of 16
// bytes.
inline bool tma_addressable(const void* base, int64_t ld, int64_t plane_stride, DType type) {
  const int64_t elem = static_cast<int64_t>(dtype_size(type));
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && ld * elem % 16 == 0 &&
         plane_stride * elem % 16 == 0;
}
inline bool tma_addressable(const OperandView& op, DType type) {
  return tma_addressable(op.base, op.ld, op.stride, type);
}

// Whether a view runs as row classes (gemm_params.h) with a shape whose
// family has them: one matrix (batch 1), the row operand K-major, and
// either it starts its rows unaligned while the column operand is M/N-major
// (its k is an outer coordinate) and D is aligned (kRowOperand), or D starts
// its rows unaligned while both operands are aligned and the column operand
// is K-major (its columns are an outer coordinate: kOut). Cutting the rows
// eight ways (and for kOut widening the columns by the largest shift) must
// add at most 1/32 to the tiles. The column operand's
// alignment is not asked: dispatch packs it first where TMA cannot read it.
// A shape with row windows uses them for every M/N-major row operand of one
// matrix with k >= 8 (each k class has a column), and nothing else: other
// views with k > 0 are not supported by it. With register windows, also
// only an M/N-major column operand and k a multiple of 8.
RowClassUse row_class_use(const KernelView& v, const TileShape& shape);

// How a view is loaded and stored. Not `supported`: an operand whose base,
// leading dimension or batch stride is not a multiple of 16 bytes, which TMA
// cannot address (a box must start 16-byte aligned; seen on H100 and H200: an
// unaligned start is an illegal instruction), unless row classes or row
// windows read it;
// dispatch packs such operands into a workspace first (dispatch/launch.cpp).
// D may be anything element-aligned: row classes store it, or where TMA
// cannot store its rows (out_rotated) the epilogue stages them rotated and
// its warps write them with 16-byte stores (epilogue_store.cuh).
struct LoadPlan {
  bool supported;
  bool out_rotated;
  RowClassUse classes;
};
LoadPlan plan_loads(const KernelView& v, const TileShape& shape);

// alpha, beta, bias and activation of a view, as every kernel receives them.
OutputStage output_stage(const KernelView& v);

// The TMA map specs of a launch (exposed for unit tests); `out` is unused
// when D is staged rotated (plan.out_rotated).
struct LaunchMaps {
  LoadPlan plan;
  TmaMapSpec row, col, out;
  // With row classes: each class's row operand and D (row and out unused);
  // with row windows, each class's row operand (row unused).
  TmaMapSpec class_row[kRowClasses], class_out[kRowClasses];
};
LaunchMaps launch_map_specs(const KernelView& v, const TileShape& shape);

// Fills everything but the encoded maps (exposed for unit tests).
GemmParams launch_params_without_maps(const KernelView& v, const TileShape& shape);

// The whole parameter block. False when the driver rejects a map; call only
// for a supported plan.
bool make_launch_params(const KernelView& v, const TileShape& shape, GemmParams* out);

// The scheduler's batch_col_mask for a grid of `clusters`: where the batches
// (more than one, of more than one column block) share the column operand
// (row classes, a broadcast column operand), one batch has no more tiles than
// the grid has clusters and the grid runs more than one wave, the largest
// 2^j - 1 with 2^j <= col_blocks (so batches 0 .. 2^j - 1 start on distinct
// column blocks); elsewhere 0, not rotated.
// 4097 x 4095 TN by row classes on 256 x 128 tiles, 66 tiles a class on 66
// clusters, ran 4.4 % fewer cycles rotated on an H200 (docs/perf.md v40).
// Not where the batches share no operand, or a batch outnumbers the clusters
// (GPT-2's logits): rotating measured 0.9-2.4 % slower (v39); nor where every
// tile runs at once, where it only reassigns tiles to clusters (GPT-2's input
// gradient, one wave of 8 classes of 8 tiles, read 2-6 % slower so, v40).
uint32_t batch_col_mask(const GemmParams& g, int64_t clusters);

}  // namespace bwgemm
