// SPDX-License-Identifier: MIT
// The TMA boxes that fill one operand's part of a pipeline stage, for both
// kernel families. The family supplies the box load (its TMA flavour and
// barrier) and keeps its own barrier protocol around the call.
#pragma once

#include <cstdint>

#include "kernels/common/gemm_params.h"
#include "kernels/ptx/device.cuh"

namespace bwgemm {

// Loads kExtent rows of M or N from mn0, one k block from k0, into part
// `part` of a tile cut into equal parts of kExtent rows (the CTA's half of a
// shared column block; 0 for a tile loaded whole). load_box(dst, map, c0, c1)
// issues one box of `map` at coordinates (c0, c1), innermost first.
//  - Tiled: a K-major operand is one box (K innermost); an M/N-major one is
//    kExtent / kMNBox boxes of kMNBox M/N elements each (M/N innermost).
//  - Residue classes (gemm_params.h): the same bytes as boxes of 8 rows, one
//    128B-swizzle atom each; class c's box of every 64 rows (K-major) or of
//    every 64 K (M/N-major) fills the atom c of that group.
template <class Cfg, bool kMNMajor, int kExtent, class LoadBox>
BWGEMM_DEVICE void load_operand(const OperandMaps& op, uint8_t* tile, uint32_t part, int32_t mn0,
                                int32_t k0, const LoadBox& load_box) {
  constexpr uint32_t kAtomBytes = 8 * 128;
  if constexpr (kMNMajor) {
    constexpr int kBoxes = kExtent / Cfg::kMNBox;
    for (int j = 0; j < kBoxes; ++j) {
      uint8_t* box = tile + (part * kBoxes + j) * Cfg::kBoxBytes;
      const int32_t mn = mn0 + j * Cfg::kMNBox;
      if (op.load == OperandLoad::kTiled) {
        load_box(box, &op.maps[0], mn, k0);
      } else {
        // Not unrolled: the producer warp runs on few registers.
#pragma unroll 1
        for (int c = 0; c < kLoadClasses; ++c)
          load_box(box + c * kAtomBytes, &op.maps[c], mn + op.shift[c], k0 / kLoadClasses);
      }
    }
  } else {
    constexpr uint32_t kPartBytes = kExtent * Cfg::kBlockK * sizeof(typename Cfg::AB);
    uint8_t* rows = tile + part * kPartBytes;
    if (op.load == OperandLoad::kTiled) {
      load_box(rows, &op.maps[0], k0, mn0);
    } else {
      for (int g = 0; g < kExtent / 64; ++g)
#pragma unroll 1
        for (int c = 0; c < kLoadClasses; ++c)
          load_box(rows + g * 8 * kAtomBytes + c * kAtomBytes, &op.maps[c], k0 + op.shift[c],
                   (mn0 + 64 * g) / kLoadClasses);
    }
  }
}

}  // namespace bwgemm
