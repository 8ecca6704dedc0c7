// SPDX-License-Identifier: MIT
// Which sm90 configuration runs a problem under BWGEMM_POLICY_AUTO, or cuBLAS:
// one table of shape classes (policy.cpp keeps it, with the measurements or
// arguments behind each row).
#pragma once

#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/common/pack.h"
#include "kernels/common/ragged_edge.h"
#include "kernels/kernel_family.h"

namespace bwgemm::sm90 {

// The SMs a persistent grid may use: the device's, or the handle's SM count
// target where that is smaller.
int target_sms(const GemmProblem& p, const DeviceCaps& caps);

// The configuration is an index into config.h's kShapes; -1: cuBLAS.
ConfigChoice select_config(const GemmProblem& p, const DeviceCaps& caps);

// A call launched as two GEMMs on `config`'s grid, the body first (family.cpp):
//  - a thin remainder of rows that would take a wave of its own
//    (ragged_edge.h) runs on 64 x 128 tiles, or where it is a decode GEMM
//    the decode kernel may take it (edge_may_decode);
//  - else, where configuration 0's last wave is thin enough that a wave model
//    (policy.cpp, split_last_wave) predicts the split saves a twentieth of
//    the time, the columns (cuBLAS's m) past its full waves run on 256 x 128
//    tiles.
// `config` is a row of kShapes (not the decode kernel).
struct GridSplit {
  EdgeSplit parts;
  int edge_config;
  bool edge_may_decode;
};

// True, with *out filled, where `config`'s grid is split on this device
// (its SMs, or the handle's SM count target). `tiles_split`: the whole grid
// splits its last wave's tiles over K instead (tile_split.h), which leaves
// fewer idle clusters than any split by columns.
bool plan_grid_split(const GemmProblem& p, const DeviceCaps& caps, int config, bool tiles_split,
                     GridSplit* out);

// A ragged edge whose op(B) columns are N-major (NT, TT: the decode kernel
// reads tokens K-major) as a decode GEMM on a K-major copy of them in the
// call's workspace (GemmProblem::workspace): true, with *copied (the edge
// reading the copy) and *tokens (what enqueue_transpose16 copies there)
// filled, where the workspace holds the copy and the decode kernel takes it.
bool decode_edge_from_copy(const GemmProblem& edge, const DeviceCaps& caps, GemmProblem* copied,
                           Matrix16* tokens);

}  // namespace bwgemm::sm90
