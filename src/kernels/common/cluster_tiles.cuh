// SPDX-License-Identifier: MIT
// The persistent loop over a cluster's tiles: cluster c takes linear tiles c,
// c + clusters, c + 2 * clusters, ... (tile_scheduler.h). Every role of every
// CTA walks the same sequence, so their rings stay in step.
#pragma once

#include <utility>

#include "kernels/common/pipeline_state.h"
#include "kernels/common/tile_scheduler.h"
#include "kernels/ptx/index.cuh"

namespace bwgemm {

// for (int64_t t : ClusterTiles(p.scheduler)) visits this cluster's tiles.
class ClusterTiles {
 public:
  struct End {};

  class Iterator {
   public:
    BWGEMM_DEVICE Iterator(int64_t tile, const TileScheduler& scheduler)
        : tile_(tile), scheduler_(&scheduler) {}
    BWGEMM_DEVICE int64_t operator*() const { return tile_; }
    BWGEMM_DEVICE void operator++() { tile_ += ptx::cluster_count(); }
    BWGEMM_DEVICE bool operator!=(End) const { return tile_ < scheduler_->tile_count(); }

   private:
    int64_t tile_;
    const TileScheduler* scheduler_;
  };

  BWGEMM_DEVICE explicit ClusterTiles(const TileScheduler& scheduler) : scheduler_(scheduler) {}
  BWGEMM_DEVICE Iterator begin() const { return {ptx::cluster_index(), scheduler_}; }
  BWGEMM_DEVICE End end() const { return {}; }

 private:
  const TileScheduler& scheduler_;
};

// Where a producer is in its steps (ClusterSteps): the tile, the k block of
// it, the ring stage the step fills, and what the producer derives from the
// tile (`at`, e.g. its place), computed once per tile: the derivation
// divides 64-bit numbers, far too slow for every step.
template <int kStages, class At>
struct StepCursor {
  int64_t tile;
  int32_t k_block;
  PipelineState<kStages> ring;
  At at;
};

// The producers' steps: this cluster's tiles in ClusterTiles' order,
// `per_tile` k blocks of each from `first_k_block`, walked by cursors
// (several at once: the line loader works on two steps, kernels/common/
// line_load.cuh). derive(tile) gives a cursor's `at` for each tile.
template <class Derive>
class ClusterSteps {
 public:
  BWGEMM_DEVICE ClusterSteps(const TileScheduler& scheduler, int32_t first_k_block,
                             int32_t per_tile, const Derive& derive)
      : first_k_block_(first_k_block), end_k_block_(first_k_block + per_tile), derive_(derive) {
    const int64_t first = ptx::cluster_index(), stride = ptx::cluster_count();
    const int64_t tiles = scheduler.tile_count() > first
                              ? (scheduler.tile_count() - first + stride - 1) / stride
                              : 0;
    count_ = per_tile > 0 ? tiles * per_tile : 0;
  }
  BWGEMM_DEVICE int64_t count() const { return count_; }

  template <int kStages>
  using Cursor = StepCursor<kStages, decltype(std::declval<Derive>()(int64_t{}))>;

  // The first step; valid only when count() > 0.
  template <int kStages>
  BWGEMM_DEVICE Cursor<kStages> first() const {
    const int64_t tile = ptx::cluster_index();
    return {tile, first_k_block_, {}, derive_(tile)};
  }
  template <class Cursor>
  BWGEMM_DEVICE void advance(Cursor* c) const {
    if (++c->k_block == end_k_block_) {
      c->k_block = first_k_block_;
      c->tile += ptx::cluster_count();
      c->at = derive_(c->tile);
    }
    c->ring.advance();
  }

 private:
  int32_t first_k_block_, end_k_block_;
  int64_t count_;
  const Derive& derive_;
};

}  // namespace bwgemm
