// SPDX-License-Identifier: MIT
// Which kernel families the environment switches off for the process
// (BWGEMM_SM90=off, BWGEMM_SM100=off). A family that fails at run time is
// switched off per device by its guard (family_guard.h).
#pragma once

#include "bwgemm/bwgemm.h"
#include "dispatch/plan.h"

namespace bwgemm {

DisabledPaths disabled_paths();

}  // namespace bwgemm
