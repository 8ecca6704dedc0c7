// SPDX-License-Identifier: MIT
// Waves: a grid of more CTAs or clusters than fit at once runs in rounds,
// and the last round's idle slots cost as much time as busy ones.
#pragma once

#include <cstdint>

namespace bwgemm {

// The waves `units` CTAs or clusters take on `slots` resident ones (> 0).
constexpr int64_t waves(int64_t units, int64_t slots) { return (units + slots - 1) / slots; }

// The share of its waves' slots such a grid keeps busy.
constexpr double wave_fill(int64_t units, int64_t slots) {
  return double(units) / double(waves(units, slots) * slots);
}

}  // namespace bwgemm
