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
  int block_rows, block_cols, block_k;  // per CTA, block_cols shared by the cluster
  int mn_box;                           // M/N extent of a box of an M/N-major operand
  int out_box_cols, out_box_rows;       // one epilogue chunk
  int group;                            // scheduler group (cluster-row blocks)
  // The cluster's CTAs split K of one block_rows x block_cols tile, each
  // loading all of it, instead of stacking along the rows and sharing the
  // column block.
  bool split_k;

  int row_ctas() const { return split_k ? 1 : cluster_size; }
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

// How a view is loaded and stored. Not `supported`: an operand whose base,
// leading dimension or batch stride is not a multiple of 16 bytes, which TMA
// cannot address (a box must start 16-byte aligned; seen on H100: an
// unaligned start is an illegal instruction); dispatch packs such operands
// into a workspace first (dispatch/launch.cpp). D may be anything
// element-aligned: where TMA cannot store its rows (out_rotated) the epilogue
// stages them rotated and writes them by bulk copies and threads
// (epilogue_store.cuh).
struct LoadPlan {
  bool supported;
  bool out_rotated;
};
LoadPlan plan_loads(const KernelView& v);

// alpha, beta, bias and activation of a view, as every kernel receives them.
OutputStage output_stage(const KernelView& v);

// The TMA map specs of a launch (exposed for unit tests); `out` is unused
// when D is staged rotated (plan.out_rotated).
struct LaunchMaps {
  LoadPlan plan;
  TmaMapSpec row, col, out;
};
LaunchMaps launch_map_specs(const KernelView& v, const TileShape& shape);

// Fills everything but the encoded maps (exposed for unit tests).
GemmParams launch_params_without_maps(const KernelView& v, const TileShape& shape);

// The whole parameter block. False when the driver rejects a map; call only
// for a supported plan.
bool make_launch_params(const KernelView& v, const TileShape& shape, GemmParams* out);

}  // namespace bwgemm
