// SPDX-License-Identifier: MIT
// Where a CTA works for one scheduled tile: shared by the kernel families.
#pragma once

#include "kernels/common/gemm_params.h"

namespace bwgemm {

struct TilePlace {
  // First row and column of the CTA's block; col0 is D's own column (below
  // 0 in a kOut row class's first column block, gemm_params.h).
  int32_t row0, col0;
  int32_t row_plane, col_plane, out_plane;  // batch coordinates of the maps
  int32_t batch;                            // the batch, or the row class
  int32_t rows;                             // D's rows (the row class's)
  int32_t out_col_offset;                   // added to col0 in the D map's coordinates
  int32_t col_k_offset;                     // subtracted from k in the column operand's coordinates
  // The unit's piece of its tile, of `pieces` (1: the whole tile), and
  // where split, the tile's index among the split tiles (tile_split.cuh).
  int32_t piece, pieces;
  int64_t split_tile;
  const CUtensorMap* row_map;
  const CUtensorMap* out_map;
};

// Cfg: kRowCtas CTAs stacked along the rows, kBlockRows each, sharing a
// kBlockCols-wide column block (CTAs of a cluster that split K instead share
// the whole tile: kRowCtas is 1).
// `unit`: a work unit of the scheduler (tile_scheduler.h), a whole tile
// unless Cfg::kSplitTiles.
template <class Cfg>
BWGEMM_HOST_DEVICE TilePlace place_tile(const GemmParams& p, int64_t unit, uint32_t rank) {
  TileUnit u{unit, 0, 1};
  if constexpr (Cfg::kSplitTiles) u = p.scheduler.unit(unit);
  const TileCoord t = p.scheduler.tile(u.tile);
  TilePlace place;
  place.piece = u.piece;
  place.pieces = u.pieces;
  place.split_tile = u.tile - p.scheduler.split_from;
  place.row0 = (t.row_block * Cfg::kRowCtas + int32_t(rank % Cfg::kRowCtas)) * Cfg::kBlockRows;
  place.col0 = t.col_block * Cfg::kBlockCols;
  place.row_plane = p.row.batched ? t.batch : 0;
  place.col_plane = p.col.batched ? t.batch : 0;
  place.out_plane = p.out_batched ? t.batch : 0;
  place.batch = t.batch;
  place.rows = p.rows;
  place.out_col_offset = 0;
  place.col_k_offset = 0;
  place.row_map = &p.row.map;
  place.out_map = &p.out_map;
  if (cuts_rows(p.classes.use)) {
    const int32_t shift = p.classes.shift[t.batch];
    place.rows = p.classes.rows[t.batch];
    place.row_map = &p.classes.row_map[t.batch];
    place.out_map = &p.classes.out_map[t.batch];
    if (p.classes.use == RowClassUse::kOut) {
      place.col0 -= shift;
      place.out_col_offset = shift;
    } else {
      place.col_k_offset = shift;
    }
  }
  return place;
}

}  // namespace bwgemm
