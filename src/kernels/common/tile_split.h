// SPDX-License-Identifier: MIT
// Tiles split over K where a grid's last wave would leave most clusters idle.
// GPT-2's input gradient (768 x 8192 x 50257 NN) makes 96 tiles of 256 x 256
// on 66 clusters: the second wave's 30 tiles leave 36 clusters idle for a
// whole tile's time. Split in two pieces of K each, they make 60 units, and
// the grid takes 1.5 tiles' time instead of 2. Each piece writes its fp32
// partial block to the workspace; the piece that arrives last adds them all
// in piece order (a fixed order: bitwise reproducible, whichever arrives
// last) and stores D (tile_split.cuh). No piece waits for another.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/gemm_params.h"
#include "kernels/common/launch_params.h"

namespace bwgemm {

// Each piece runs at least this many k blocks: the partial blocks' traffic
// (each CTA writes, and the last piece reads, 128 KB per piece of a 256 x 256
// tile) stays small beside the piece's mainloop.
constexpr int64_t kMinPieceBlocks = 32;
// At most this many pieces per tile.
constexpr int32_t kMaxPieces = 4;

struct TileSplitPlan {
  int64_t split_from;  // the first split tile; `tiles` where none is
  int32_t pieces;      // 1: none
  size_t bytes;        // of workspace
};

// The split of `tiles` tiles of `shape`, `k_blocks` deep, over `clusters`
// clusters: where the last wave holds at most half the clusters' worth of
// tiles, each of them in min(clusters / its tiles, kMaxPieces) pieces of at
// least kMinPieceBlocks k blocks.
TileSplitPlan plan_tile_split(int64_t tiles, int64_t clusters, int64_t k_blocks,
                              const TileShape& shape);

// At least plan_tile_split's bytes for any grid of `shape` on `clusters`
// clusters `k` deep (0 where none would split): the workspace a launch may
// ask for before its grid is known.
size_t tile_split_room(int64_t clusters, int64_t k, const TileShape& shape);

// Applies `plan` to the scheduler and the buffers, in `workspace` (of at
// least plan.bytes, 256-byte aligned).
void apply_tile_split(const TileSplitPlan& plan, const TileShape& shape, void* workspace,
                      GemmParams* g);

}  // namespace bwgemm
