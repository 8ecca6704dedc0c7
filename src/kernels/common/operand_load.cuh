// SPDX-License-Identifier: MIT
// The TMA boxes that fill one operand's part of a pipeline stage, for both
// kernel families. The family supplies the box load (its TMA flavour and
// barrier) and keeps its own barrier protocol around the call.
#pragma once

#include <cstdint>

#include "kernels/ptx/device.cuh"

namespace bwgemm {

// Loads kExtent rows of M or N from mn0, one k block from k0, into part
// `part` of a tile cut into equal parts of kExtent rows (the CTA's half of a
// shared column block; 0 for a tile loaded whole). A K-major operand is one
// box (K innermost); an M/N-major one is kExtent / kMNBox boxes of kMNBox
// M/N elements each (M/N innermost). load_box(dst, c0, c1) issues one box at
// the map coordinates (c0, c1), innermost first.
template <class Cfg, bool kMNMajor, int kExtent, class LoadBox>
BWGEMM_DEVICE void load_operand(uint8_t* tile, uint32_t part, int32_t mn0, int32_t k0,
                                const LoadBox& load_box) {
  if constexpr (kMNMajor) {
    constexpr int kBoxes = kExtent / Cfg::kMNBox;
    for (int j = 0; j < kBoxes; ++j)
      load_box(tile + (part * kBoxes + j) * Cfg::kBoxBytes, mn0 + j * Cfg::kMNBox, k0);
  } else {
    constexpr uint32_t kPartBytes = kExtent * Cfg::kBlockK * sizeof(typename Cfg::AB);
    load_box(tile + part * kPartBytes, k0, mn0);
  }
}

}  // namespace bwgemm
