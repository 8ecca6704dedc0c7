// SPDX-License-Identifier: MIT
// Where a CTA works for one scheduled tile: shared by the kernel families.
#pragma once

#include "kernels/common/gemm_params.h"

namespace bwgemm {

struct TilePlace {
  int32_t row0, col0;                       // first row and column of the CTA's block
  int32_t row_plane, col_plane, out_plane;  // batch coordinates of the maps
  int32_t batch;
};

// Cfg: kRowCtas CTAs stacked along the rows, kBlockRows each, sharing a
// kBlockCols-wide column block (CTAs of a cluster that split K instead share
// the whole tile: kRowCtas is 1).
template <class Cfg>
BWGEMM_HOST_DEVICE TilePlace place_tile(const GemmParams& p, int64_t linear, uint32_t rank) {
  const TileCoord t = p.scheduler.tile(linear);
  TilePlace place;
  place.row0 = (t.row_block * Cfg::kRowCtas + int32_t(rank % Cfg::kRowCtas)) * Cfg::kBlockRows;
  place.col0 = t.col_block * Cfg::kBlockCols;
  place.row_plane = p.row.batched ? t.batch : 0;
  place.col_plane = p.col.batched ? t.batch : 0;
  place.out_plane = p.out_batched ? t.batch : 0;
  place.batch = t.batch;
  return place;
}

}  // namespace bwgemm
