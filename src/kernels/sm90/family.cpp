// SPDX-License-Identifier: MIT
// The sm90 kernel family as dispatch sees it.
#include "kernels/sm90/family.h"

#include "core/launch_order.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/pack.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/common/tile_split.h"
#include "kernels/decode/check.h"
#include "kernels/decode/config.h"
#include "kernels/decode/launch.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/selection.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {

// Its kernel releases its dependents early (gemm_kernel.cuh).
extern const VariantCatalog kCatalog = {"sm90", select_variant, tile_shape, true};

namespace {

static_assert(decode::kMaxTokens <= kMaxTransposedColumns,
              "dispatch's room after an N-major B holds a decode edge's tokens");

// Whether `config`'s grid for the whole of `p` splits its last wave's tiles
// over K (tile_split.h: where the problem's workspace holds their partials).
bool splits_tiles(const GemmProblem& p, const DeviceCaps& caps, int config, ErrorFlag error_flag) {
  if (p.workspace == nullptr || !kShapes[config].split_tiles) return false;
  const KernelVariant* variant = nullptr;
  GemmParams params;
  return build_launch(kCatalog, p, caps, config, error_flag, &variant, &params) ==
             BWGEMM_REASON_KERNEL_SELECTED &&
         params.scheduler.pieces > 1;
}

// A grid split in two launches (policy.h, plan_grid_split), the body first.
// A thin remainder of up to decode::kMaxTokens rows is a decode GEMM: the
// decode kernel streams A over every SM, where 64 x 128 tiles leave most SMs
// idle (4095x4097x4096 TN on an H200: 0.79-0.80x -> 0.84-0.85x cuBLAS's
// throughput on 4096^3; after the body rather than before it, +0.7 %:
// docs/perf.md v22); NT and TT's N-major tokens through a K-major copy in
// the workspace dispatch leaves after its operand copies (4095x4097x4096:
// 3.6 us copy + 11 us against 22 us on 64 x 128 tiles, docs/perf.md v29). Both parts are built
// before either is enqueued: the edge's configuration may not read every operand the body's reads
// in place (a B read through row windows), and a part that cannot be built leaves the call whole.
bool launch_split(const GemmProblem& p, const DeviceCaps& caps, int config, ErrorFlag error_flag,
                  LaunchResult* out) {
  GridSplit split;
  if (!plan_grid_split(p, caps, config, splits_tiles(p, caps, config, error_flag), &split))
    return false;
  // The workspace is the edge's (its tokens' copy), not the body's.
  split.parts.body.workspace = nullptr;
  split.parts.body.workspace_bytes = 0;
  GemmProblem copied{};
  Matrix16 tokens{};
  const bool copies_tokens = split.edge_may_decode &&
                             decode_edge_from_copy(split.parts.edge, caps, &copied, &tokens) &&
                             decode::has_kernel(copied);
  const GemmProblem& edge_problem = copies_tokens ? copied : split.parts.edge;
  const bool edge_decodes =
      copies_tokens || (split.edge_may_decode &&
                        decode::check(edge_problem, caps) == BWGEMM_REASON_KERNEL_SELECTED &&
                        decode::has_kernel(edge_problem));
  const KernelVariant *edge_variant = nullptr, *body_variant = nullptr;
  GemmParams edge, body;
  if ((!edge_decodes && build_launch(kCatalog, edge_problem, caps, split.edge_config, error_flag,
                                     &edge_variant, &edge) != BWGEMM_REASON_KERNEL_SELECTED) ||
      build_launch(kCatalog, split.parts.body, caps, config, error_flag, &body_variant, &body) !=
          BWGEMM_REASON_KERNEL_SELECTED ||
      (copies_tokens &&
       enqueue_transpose16(tokens, split.parts.edge.workspace, p.stream) != cudaSuccess) ||
      enqueue_built(kCatalog, *body_variant, body, split.parts.body, caps, false) != cudaSuccess)
    return false;
  // The body is on the stream: the call can no longer go to cuBLAS whole.
  const bool enqueued =
      edge_decodes
          ? decode::launch(edge_problem, caps, true).status == LaunchStatus::kEnqueued
          : enqueue_built(kCatalog, *edge_variant, edge, edge_problem, caps, true) == cudaSuccess;
  // The next call follows the edge where it reads the call's B, not the
  // edge's part (or copy) of it.
  if (enqueued) record_releasing_grid({p.stream, p.b});
  *out = enqueued ? LaunchResult{LaunchStatus::kEnqueued, BWGEMM_REASON_KERNEL_SELECTED}
                  : LaunchResult{LaunchStatus::kEarlierFailure, BWGEMM_REASON_LAUNCH_FAILED};
  return true;
}

LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, int config,
                    ErrorFlag error_flag) {
  if (config == kDecodeConfig) return decode::launch(p, caps, false);
  LaunchResult split;
  if (launch_split(p, caps, config, error_flag, &split)) return split;
  return launch_gemm(kCatalog, p, caps, config, error_flag);
}

// Room for the partials of a last wave split over K (tile_split.h).
size_t workspace_room(const GemmProblem& p, const DeviceCaps& caps, int config) {
  if (config < 0 || config >= kConfigCount) return 0;
  return tile_split_room(target_sms(p, caps) / kShapes[config].cluster_size, p.k,
                         tile_shape(config, p.c_type));
}

}  // namespace

extern const KernelFamily kFamily = {BWGEMM_PATH_SM90,
                                     "sm90",
                                     false,
                                     runs_on,
                                     supports,
                                     choose_config,
                                     config_name,
                                     kFamilyConfigCount,
                                     launch,
                                     reads_unaligned_b,
                                     config_takes,
                                     workspace_room};

}  // namespace bwgemm::sm90
