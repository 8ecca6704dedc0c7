// SPDX-License-Identifier: MIT
// Position in a ring of pipeline stages: the stage index and the parity of
// the barrier phase that stage is in. Kernel bodies advance it; nobody writes
// parity arithmetic by hand.
#pragma once

#include <cstdint>

#include "kernels/ptx/device.cuh"

namespace bwgemm {

template <int kStages>
struct PipelineState {
  uint32_t stage = 0;
  uint32_t phase = 0;

  BWGEMM_HOST_DEVICE void advance() {
    if (++stage == kStages) {
      stage = 0;
      phase ^= 1;
    }
  }
};

}  // namespace bwgemm
