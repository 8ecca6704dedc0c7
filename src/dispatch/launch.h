// SPDX-License-Identifier: MIT
// Launching a planned call: the guard of a guarded family, operands TMA
// cannot address packed into the stream's workspace, then the family's
// launcher.
#pragma once

#include "core/device_caps.h"
#include "core/problem.h"
#include "dispatch/plan.h"

namespace bwgemm {

// plan.family must be set. kForward carries the reason cuBLAS gets the call.
LaunchResult launch_planned(const Plan& plan, const GemmProblem& p, const DeviceCaps& caps);

}  // namespace bwgemm
