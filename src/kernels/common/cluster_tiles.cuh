// SPDX-License-Identifier: MIT
// The persistent loop over a cluster's work units: cluster c takes units c,
// c + clusters, c + 2 * clusters, ... (tile_scheduler.h: a unit is a tile or
// a piece of one). Every role of every CTA walks the same sequence, so their
// rings stay in step.
#pragma once

#include "kernels/common/tile_scheduler.h"
#include "kernels/ptx/index.cuh"

namespace bwgemm {

// for (int64_t u : ClusterTiles<Cfg>(p.scheduler)) visits this cluster's
// units: its tiles, where Cfg::kSplitTiles is false (the bound then costs
// the producer warps no registers).
template <class Cfg>
class ClusterTiles {
 public:
  struct End {};

  class Iterator {
   public:
    BWGEMM_DEVICE Iterator(int64_t unit, const TileScheduler& scheduler)
        : unit_(unit), scheduler_(&scheduler) {}
    BWGEMM_DEVICE int64_t operator*() const { return unit_; }
    BWGEMM_DEVICE void operator++() { unit_ += ptx::cluster_count(); }
    BWGEMM_DEVICE bool operator!=(End) const {
      return unit_ < (Cfg::kSplitTiles ? scheduler_->unit_count() : scheduler_->tile_count());
    }

   private:
    int64_t unit_;
    const TileScheduler* scheduler_;
  };

  BWGEMM_DEVICE explicit ClusterTiles(const TileScheduler& scheduler) : scheduler_(scheduler) {}
  BWGEMM_DEVICE Iterator begin() const { return {ptx::cluster_index(), scheduler_}; }
  BWGEMM_DEVICE End end() const { return {}; }

 private:
  const TileScheduler& scheduler_;
};

}  // namespace bwgemm
