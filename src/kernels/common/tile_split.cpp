// SPDX-License-Identifier: MIT
#include "kernels/common/tile_split.h"

namespace bwgemm {
namespace {

// Arrival counters, one per split tile's CTA and consumer (64 rows), then
// the partial blocks, per counter and piece: 64 rows x block_cols fp32.
int64_t consumers(const TileShape& shape) { return shape.block_rows / 64; }

size_t counter_bytes(int64_t split_tiles, const TileShape& shape) {
  const size_t bytes = size_t(split_tiles * shape.cluster_size * consumers(shape)) * 4;
  return (bytes + 255) / 256 * 256;
}

size_t partial_bytes(int64_t units, const TileShape& shape) {
  return size_t(units * shape.cluster_size * consumers(shape)) * 64 * size_t(shape.block_cols) * 4;
}

}  // namespace

TileSplitPlan plan_tile_split(int64_t tiles, int64_t clusters, int64_t k_blocks,
                              const TileShape& shape) {
  const TileSplitPlan none{tiles, 1, 0};
  if (!shape.split_tiles || clusters <= 0 || shape.block_rows % 64 != 0) return none;
  const int64_t last = tiles % clusters;
  if (last == 0 || 2 * last > clusters) return none;
  int64_t pieces = clusters / last;
  if (pieces > kMaxPieces) pieces = kMaxPieces;
  if (pieces > k_blocks / kMinPieceBlocks) pieces = k_blocks / kMinPieceBlocks;
  if (pieces < 2) return none;
  return {tiles - last, int32_t(pieces),
          counter_bytes(last, shape) + partial_bytes(last * pieces, shape)};
}

size_t tile_split_room(int64_t clusters, int64_t k, const TileShape& shape) {
  // Split tiles and their pieces are at most the clusters (plan_tile_split).
  if (!shape.split_tiles || (k + 63) / 64 < 2 * kMinPieceBlocks) return 0;
  return counter_bytes(clusters, shape) + partial_bytes(clusters, shape);
}

void apply_tile_split(const TileSplitPlan& plan, const TileShape& shape, void* workspace,
                      GemmParams* g) {
  g->scheduler.split_from = plan.split_from;
  g->scheduler.pieces = plan.pieces;
  if (plan.pieces == 1) {
    g->split = {nullptr, nullptr, 0};
    return;
  }
  const int64_t split_tiles = g->scheduler.tile_count() - plan.split_from;
  auto* base = static_cast<uint8_t*>(workspace);
  g->split.arrivals = reinterpret_cast<uint32_t*>(base);
  g->split.arrival_count = uint32_t(split_tiles * shape.cluster_size * consumers(shape));
  g->split.partials = reinterpret_cast<float*>(base + counter_bytes(split_tiles, shape));
}

}  // namespace bwgemm
