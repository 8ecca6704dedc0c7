// SPDX-License-Identifier: MIT
// The decode kernel's host side: its parameter block and its launch.
#pragma once

#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/common/kernel_view.h"
#include "kernels/decode/params.h"
#include "kernels/kernel_family.h"

namespace bwgemm::decode {

// The parameter block of a view check() accepted, for a shape of config.h
// (exposed for unit tests).
DecodeParams make_params(const KernelView& v, int shape);

// Whether launch() has a kernel for `p` (check()ed): one is built for its
// type pair. Callers that must know before enqueuing anything else ask this.
bool has_kernel(const GemmProblem& p);

// Enqueues the kernel on p.stream: kEnqueued, or kForward with LAUNCH_FAILED
// (nothing enqueued; the caller decides where the call goes).
// As a programmatic dependent where it follows a grid that releases its
// dependents early: `after_own_grid` (the caller has just enqueued one on
// p.stream: a ragged edge after its body) or as launch_order.h tells.
LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, bool after_own_grid);

}  // namespace bwgemm::decode
