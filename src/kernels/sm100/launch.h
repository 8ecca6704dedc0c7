// SPDX-License-Identifier: MIT
// Enqueuing the sm100 kernel for a problem (no guard): used by the family's
// launcher once the guard allows it, and by the self-check.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "dispatch/device_caps.h"
#include "dispatch/problem.h"

namespace bwgemm::sm100 {

cudaError_t enqueue(const GemmProblem& p, const DeviceCaps& caps, uint32_t* error_flag);

}  // namespace bwgemm::sm100
