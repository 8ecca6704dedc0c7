// SPDX-License-Identifier: MIT
// Where the sm100 family runs and what it takes: pure functions of the
// problem and the device, unit-tested with mocked capabilities.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/kernel_family.h"

namespace bwgemm::sm100 {

// Compute capability 10.0 (B200/GB200) and 10.3 (B300/GB300): the sm_100f
// (family) code in this library runs on both.
bool runs_on(const DeviceCaps& caps);

bwgemmReason_t supports(const GemmProblem& p, const DeviceCaps& caps);

// KernelFamily::config_takes: the configuration is compiled for p's layout
// and fits the device's shared memory (every one takes any rows).
bool config_takes(const GemmProblem& p, const DeviceCaps& caps, int config);

// Nothing is measured on sm_100 yet (no Blackwell GPU has run the kernel):
// under AUTO the family takes only what its 2-CTA configuration 0 was
// designed for, products of at least 2^30 multiply-adds with every matrix
// 16-byte aligned (no copy into a workspace, TMA stores) and m and n at
// least one 256-wide tile; cuBLAS keeps the rest. When `forced`,
// configuration 0 for anything supported. `named` (a configuration index,
// or -1) replaces the choice wherever the kernel runs (BWGEMM_SM100_CONFIG);
// a policy file measured on the user's GPU (bwgemm-bench --tune) picks the
// other configurations before this is asked. `rule` says which row decided.
ConfigChoice choose(const GemmProblem& p, const DeviceCaps& caps, bool forced, int named);

// choose() with BWGEMM_SM100_CONFIG's configuration.
ConfigChoice choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced);

}  // namespace bwgemm::sm100
