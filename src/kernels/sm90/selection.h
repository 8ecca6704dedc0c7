// SPDX-License-Identifier: MIT
// Where the sm90 family runs and what it takes: pure functions of the
// problem and the device, unit-tested with mocked capabilities.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/sm90/policy.h"

namespace bwgemm::sm90 {

// Compute capability 9.0 (H100/H200): the sm_90a code in this library.
bool runs_on(const DeviceCaps& caps);

bwgemmReason_t supports(const GemmProblem& p, const DeviceCaps& caps);

// KernelFamily::config_takes: the configuration is compiled for p's layout,
// takes its rows (and, with row windows, reads its row operand through them)
// and fits the device's shared memory; the decode configuration, where
// decode::check takes p.
bool config_takes(const GemmProblem& p, const DeviceCaps& caps, int config);

// The policy table's configuration (policy.h) where it prefers the kernel
// and the configuration is compiled for the layout; when `forced`, that or
// else configuration 0; -1 otherwise. `named` (a configuration index, or -1)
// replaces the choice wherever the kernel runs and it is compiled for the
// layout (BWGEMM_SM90_CONFIG). `rule` says which row decided.
ConfigChoice choose(const GemmProblem& p, const DeviceCaps& caps, bool forced, int named);

// choose() with BWGEMM_SM90_CONFIG's configuration.
ConfigChoice choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced);

}  // namespace bwgemm::sm90
