// SPDX-License-Identifier: MIT
// Where the sm100 family runs and what it takes: pure functions of the
// problem and the device, unit-tested with mocked capabilities.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/device_caps.h"
#include "core/problem.h"

namespace bwgemm::sm100 {

// Compute capability 10.0 (B200/GB200) and 10.3 (B300/GB300): the sm_100a and
// sm_103a code in this library.
bool runs_on(const DeviceCaps& caps);

bwgemmReason_t supports(const GemmProblem& p, const DeviceCaps& caps);

// The family is the reason bwgemm exists on sm_100: under AUTO it takes every
// call it supports (dispatch's guard checks it first). Nothing is measured
// on sm_100 yet, so there is no shape table: always configuration 0.
int choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced);

}  // namespace bwgemm::sm100
