// SPDX-License-Identifier: MIT
// A grid cut in two GEMMs, a body and an edge, and its ragged edge: where
// the kernel view's last row of cluster tiles holds only a thin remainder
// that costs a whole extra wave (4097 rows are 17 rows of 256-row tiles, 16
// of them full), the body runs on whole tiles and the remainder as a GEMM of
// its own (the family's policy picks its kernel: sm90's decode kernel or
// small tiles). Ragged columns are not cut here: the policy gives them
// 128-wide tiles (docs/perf.md v15), or cuts a thin last wave off by columns
// (sm90 policy.h, plan_grid_split).
#pragma once

#include "core/problem.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/waves.h"

namespace bwgemm {

struct EdgeSplit {
  GemmProblem body;  // whole cluster tiles
  GemmProblem edge;  // the remainder
};

// p as a body of cuBLAS's first `keep` columns of op(B), C and D (the view's
// rows, kernel_view.h) and an edge of the rest, 0 < keep < p.n.
EdgeSplit split_rows(const GemmProblem& p, int64_t keep);
// p as a body of cuBLAS's first `keep` rows of op(A), C, D and the bias (the
// view's columns) and an edge of the rest, 0 < keep < p.m.
EdgeSplit split_cols(const GemmProblem& p, int64_t keep);

// The remainder costs more than its share of the flops: measured on an H200
// with 256 x 256 tiles and the remainder on 64 x 128 tiles, splitting
// 4095x4097 at k = 4096 gained 6-9 %, 2047x2049 at k = 1023 lost 6 %
// (docs/perf.md v15).
constexpr int64_t kMinEdgeDepth = 2048;

// True, with *out filled, where the view's last row of cluster tiles of
// `shape` holds at most a quarter of a tile and leaving it out saves a wave
// on `clusters` clusters. One matrix (batch 1), k at least
// kMinEdgeDepth.
bool split_ragged_edge(const GemmProblem& p, const TileShape& shape, int64_t clusters,
                       EdgeSplit* out);

}  // namespace bwgemm
