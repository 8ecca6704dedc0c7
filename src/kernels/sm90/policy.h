// SPDX-License-Identifier: MIT
// Which sm90 configuration runs a problem under BWGEMM_POLICY_AUTO, or cuBLAS:
// one table of shape classes (policy.cpp keeps it, with the measurements or
// arguments behind each row).
#pragma once

#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/common/ragged_edge.h"
#include "kernels/kernel_family.h"

namespace bwgemm::sm90 {

// The configuration is an index into config.h's kShapes; -1: cuBLAS.
ConfigChoice select_config(const GemmProblem& p, const DeviceCaps& caps);

// A grid of configuration 0's tiles whose last wave would run mostly idle,
// cut by columns (cuBLAS's m) into whole waves of them (parts.body) and the
// rest on smaller tiles (parts.edge on tail_config), each a launch.
struct WaveSplit {
  EdgeSplit parts;
  int tail_config;
};

// True, with *out filled, where `config` is 0 and the split is measured or
// predicted faster on `clusters` 2-CTA clusters.
bool split_last_wave(const GemmProblem& p, int64_t clusters, int config, WaveSplit* out);

}  // namespace bwgemm::sm90
