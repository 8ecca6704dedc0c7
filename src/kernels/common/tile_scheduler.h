// SPDX-License-Identifier: MIT
// The persistent tile scheduler shared by the kernel families.
//
// The output is cut into cluster tiles of (cluster_size x block_rows) x
// block_cols; every CTA of a cluster works on the same cluster tile (its own
// block of rows), so both run identical k-loops. Cluster c takes linear tiles
// c, c + clusters, c + 2 * clusters, ... Linear tiles are ordered batch by
// batch, and within a batch in groups of `group` cluster-row blocks: down the
// rows of a group, then across the columns, snaking back on every other group
// so consecutive tiles share operand blocks in L2. With a batch_col_mask,
// batch b's column blocks start (b & batch_col_mask) blocks on (wrapping).
//
// Clusters walk work units: a unit is a whole tile, or where the last wave's
// tiles are split over K (split_from < tile_count: tile_split.h) one piece of
// one, so that they fill more clusters. Units 0 .. split_from - 1 are tiles
// 0 .. split_from - 1; then tile split_from + i is units split_from +
// i * pieces + q, q < pieces, piece q taking the q-th share of its k blocks.
#pragma once

#include <cstdint>

#include "kernels/ptx/device.cuh"

namespace bwgemm {

struct TileCoord {
  int32_t batch;
  int32_t row_block;  // in cluster tiles
  int32_t col_block;
};

// One unit of work: a tile, or piece `piece` of the `pieces` of a split tile.
struct TileUnit {
  int64_t tile;
  int32_t piece, pieces;
};

struct TileScheduler {
  int32_t row_blocks;  // cluster tiles along the rows
  int32_t col_blocks;
  int32_t batch;
  int32_t group;  // cluster-row blocks per group, >= 1
  // Batch b's columns are rotated by b & batch_col_mask blocks, so that
  // clusters working on different batches of a shared column operand at once
  // start on different column blocks (launch_params.h, batch_col_mask). 0:
  // not rotated; else 2^j - 1 with 2^j <= col_blocks, so that one subtraction
  // wraps (a remainder's branch added 204-219 SASS instructions to every sm90
  // kernel, docs/perf.md v40-v41).
  uint32_t batch_col_mask;
  // The first split tile (tile_count(): none) and each split tile's pieces.
  int64_t split_from;
  int32_t pieces;

  BWGEMM_HOST_DEVICE int64_t tile_count() const { return int64_t{row_blocks} * col_blocks * batch; }
  BWGEMM_HOST_DEVICE int64_t unit_count() const {
    return tile_count() + (tile_count() - split_from) * (pieces - 1);
  }
  BWGEMM_HOST_DEVICE TileUnit unit(int64_t u) const {
    if (u < split_from) return {u, 0, 1};
    const int64_t split = (u - split_from) / pieces;
    return {split_from + split, static_cast<int32_t>(u - split_from - split * pieces), pieces};
  }

  BWGEMM_HOST_DEVICE TileCoord tile(int64_t linear) const {
    const int64_t per_batch = int64_t{row_blocks} * col_blocks;
    const int32_t b = static_cast<int32_t>(linear / per_batch);
    const int64_t t = linear - b * per_batch;
    const int64_t per_group = int64_t{group} * col_blocks;
    const int32_t g = static_cast<int32_t>(t / per_group);
    const int32_t first_row = g * group;
    const int32_t rows_in_group = row_blocks - first_row < group ? row_blocks - first_row : group;
    const int64_t in_group = t - g * per_group;
    const int32_t row = first_row + static_cast<int32_t>(in_group % rows_in_group);
    int32_t col = static_cast<int32_t>(in_group / rows_in_group);
    if (g & 1) col = col_blocks - 1 - col;
    col += static_cast<int32_t>(static_cast<uint32_t>(b) & batch_col_mask);
    if (col >= col_blocks) col -= col_blocks;
    return {b, row, col};
  }
};

inline int32_t ceil_div(int64_t a, int64_t b) { return static_cast<int32_t>((a + b - 1) / b); }

// A scheduler over rows x cols x batch for the given cluster tile.
inline TileScheduler make_tile_scheduler(int64_t rows, int64_t cols, int64_t batch,
                                         int cluster_rows, int block_cols, int group) {
  TileScheduler s;
  s.row_blocks = ceil_div(rows, cluster_rows);
  s.col_blocks = ceil_div(cols, block_cols);
  s.batch = static_cast<int32_t>(batch);
  s.group = group < 1 ? 1 : group;
  s.batch_col_mask = 0;
  s.split_from = s.tile_count();
  s.pieces = 1;
  return s;
}

// The widest batch_col_mask over col_blocks column blocks (0 for one).
inline uint32_t widest_batch_col_mask(int32_t col_blocks) {
  uint32_t span = 1;
  while (int64_t{span} * 2 <= col_blocks) span *= 2;
  return span - 1;
}

}  // namespace bwgemm
