// SPDX-License-Identifier: MIT
// The part of the dynamic shared memory both kernel families lay out alike:
// kStages stages (the row tile, then the column tile), the epilogue staging at
// kStagingOffset, and the stage ring's full[] then empty[] barriers at
// kBarrierOffset. A family's SharedStorage derives from it and adds its own
// pieces (per-consumer staging, TMEM barriers, ...).
#pragma once

#include <cstdint>

#include "kernels/ptx/barrier.cuh"

namespace bwgemm {

template <class Cfg>
struct StageStorage {
  uint8_t* base;

  BWGEMM_DEVICE uint8_t* row_tile(uint32_t stage) const { return base + stage * Cfg::kStageBytes; }
  // The column operand as this CTA holds it (Cfg::kColTileBytes).
  BWGEMM_DEVICE uint8_t* col_tile(uint32_t stage) const {
    return row_tile(stage) + Cfg::kRowTileBytes;
  }
  BWGEMM_DEVICE uint8_t* staging() const { return base + Cfg::kStagingOffset; }
  BWGEMM_DEVICE ptx::Mbarrier* full(uint32_t stage) const {
    return reinterpret_cast<ptx::Mbarrier*>(base + Cfg::kBarrierOffset) + stage;
  }
  BWGEMM_DEVICE ptx::Mbarrier* empty(uint32_t stage) const { return full(Cfg::kStages) + stage; }
  // The barriers after the stage ring's, for the family's own use.
  BWGEMM_DEVICE ptx::Mbarrier* after_stage_barriers() const { return empty(Cfg::kStages); }
};

}  // namespace bwgemm
