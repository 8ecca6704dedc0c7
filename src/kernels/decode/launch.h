// SPDX-License-Identifier: MIT
// The decode kernel's host side: its parameter block and its launch.
#pragma once

#include "core/problem.h"
#include "kernels/common/kernel_view.h"
#include "kernels/decode/params.h"
#include "kernels/kernel_family.h"

namespace bwgemm::decode {

// The parameter block of a view check() accepted, for a shape of config.h
// (exposed for unit tests).
DecodeParams make_params(const KernelView& v, int shape);

// Enqueues the kernel on p.stream: kEnqueued, or kForward with LAUNCH_FAILED.
LaunchResult launch(const GemmProblem& p);

}  // namespace bwgemm::decode
