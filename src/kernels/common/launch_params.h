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
};

// How a view's operands are loaded and D is stored (gemm_params.h). Not
// `supported`: the kernels cannot take the layout and cuBLAS computes it.
struct LoadPlan {
  bool supported;
  OperandLoad row, col;
  bool out_by_threads;
};
LoadPlan plan_loads(const KernelView& v);

// The maps of one operand: one, or one per residue class with its shift.
struct OperandMapSpecs {
  int count;
  TmaMapSpec specs[kLoadClasses];
  int32_t shift[kLoadClasses];
};

// The TMA map specs of a launch (exposed for unit tests); `out` is unused
// when D is stored by threads.
struct LaunchMaps {
  LoadPlan plan;
  OperandMapSpecs row, col;
  TmaMapSpec out;
};
LaunchMaps launch_map_specs(const KernelView& v, const TileShape& shape);

// Fills everything but the encoded maps (exposed for unit tests).
GemmParams launch_params_without_maps(const KernelView& v, const TileShape& shape);

// The whole parameter block. False when the driver rejects a map; call only
// for a supported plan.
bool make_launch_params(const KernelView& v, const TileShape& shape, GemmParams* out);

}  // namespace bwgemm
