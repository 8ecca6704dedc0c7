// SPDX-License-Identifier: MIT
// The sm90 kernel family as dispatch sees it.
#include "kernels/sm90/family.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/common/ragged_edge.h"
#include "kernels/decode/check.h"
#include "kernels/decode/launch.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/selection.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {

extern const VariantCatalog kCatalog = {"sm90", select_variant, tile_shape};

namespace {

// The remainder's configuration where the decode kernel does not take it:
// one CTA per 64 x 128 tile, so that a remainder of up to 64 rows of a large
// grid is one short wave.
constexpr int kEdgeConfig = shape_index("sm90_64x128x64_8stage_1cta");
static_assert(kEdgeConfig > 0 && kShapes[kEdgeConfig].layouts == kAllLayouts);

// A grid split into two launches, the body on `config` first: a thin
// remainder of rows that would take a wave of its own (ragged_edge.h), else
// the columns past the last whole wave of configuration 0's tiles (policy.h,
// split_last_wave). A thin remainder of up to decode::kMaxTokens rows is a
// decode GEMM: the decode kernel streams A over every SM, where
// kEdgeConfig's m / 128 CTAs leave most SMs idle (4095x4097x4096 TN on an
// H200: 0.79-0.80x -> 0.84-0.85x cuBLAS's throughput on 4096^3; after the
// body rather than before it, +0.7 %: docs/perf.md v22). Both parts are built
// before either is enqueued: the edge's configuration may not read every
// operand the body's reads in place (a B read through row windows), and a
// part that cannot be built leaves the call whole.
bool launch_split(const GemmProblem& p, const DeviceCaps& caps, int config, ErrorFlag error_flag,
                  LaunchResult* out) {
  const int sms = p.sm_count_target > 0 && p.sm_count_target < caps.sm_count ? p.sm_count_target
                                                                             : caps.sm_count;
  const int64_t clusters = sms / kShapes[config].cluster_size;
  EdgeSplit split;
  int edge_config = kEdgeConfig;
  WaveSplit wave;
  if (!split_ragged_edge(p, tile_shape(config, p.c_type), clusters, &split)) {
    if (!split_last_wave(p, clusters, config, &wave)) return false;
    split = wave.parts;
    edge_config = wave.tail_config;
  }
  const bool edge_decodes = edge_config == kEdgeConfig &&
                            decode::check(split.edge, caps) == BWGEMM_REASON_KERNEL_SELECTED &&
                            decode::has_kernel(split.edge);
  const KernelVariant *edge_variant = nullptr, *body_variant = nullptr;
  GemmParams edge, body;
  if ((!edge_decodes && build_launch(kCatalog, split.edge, edge_config, error_flag, &edge_variant,
                                     &edge) != BWGEMM_REASON_KERNEL_SELECTED) ||
      build_launch(kCatalog, split.body, config, error_flag, &body_variant, &body) !=
          BWGEMM_REASON_KERNEL_SELECTED ||
      launch_persistent(*body_variant, body, caps, p.sm_count_target, p.stream) != cudaSuccess)
    return false;
  // The body is on the stream: the call can no longer go to cuBLAS whole.
  const bool enqueued = edge_decodes
                            ? decode::launch(split.edge).status == LaunchStatus::kEnqueued
                            : launch_persistent(*edge_variant, edge, caps, p.sm_count_target,
                                                p.stream) == cudaSuccess;
  *out = enqueued ? LaunchResult{LaunchStatus::kEnqueued, BWGEMM_REASON_KERNEL_SELECTED}
                  : LaunchResult{LaunchStatus::kEarlierFailure, BWGEMM_REASON_LAUNCH_FAILED};
  return true;
}

LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, int config,
                    ErrorFlag error_flag) {
  if (config == kDecodeConfig) return decode::launch(p);
  LaunchResult split;
  if (launch_split(p, caps, config, error_flag, &split)) return split;
  return launch_gemm(kCatalog, p, caps, config, error_flag);
}

}  // namespace

extern const KernelFamily kFamily = {
    BWGEMM_PATH_SM90, "sm90",           false,       runs_on,
    supports,         choose_config,    config_name, kFamilyConfigCount,
    launch,           reads_unaligned_b};

}  // namespace bwgemm::sm90
