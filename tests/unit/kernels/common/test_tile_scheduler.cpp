// SPDX-License-Identifier: MIT
// src/kernels/common/tile_scheduler.h and tile_place.cuh: the persistent tile
// order, walked the way the kernels walk it (cluster c takes linear tiles c,
// c + clusters, ...; CTA r of a cluster owns block row row_block * 2 + r).
#include <cstdint>
#include <vector>

#include "kernels/common/k_range.cuh"
#include "kernels/common/tile_place.cuh"
#include "kernels/common/tile_scheduler.h"
#include "kernels/common/tile_split.h"
#include "kernels/sm90/config.h"
#include "support/cmocka_cxx.h"

using bwgemm::TileCoord;
using bwgemm::TilePlace;
using bwgemm::TileScheduler;

namespace {

// One scheduler configuration, as make_tile_scheduler receives it.
struct Shape {
  int64_t rows, cols, batch;
  int cluster_rows, block_cols, group;
};

void print_shape(const Shape& s) {
  print_error("rows %lld cols %lld batch %lld cluster_rows %d block_cols %d group %d\n",
              static_cast<long long>(s.rows), static_cast<long long>(s.cols),
              static_cast<long long>(s.batch), s.cluster_rows, s.block_cols, s.group);
}

// Every combination of these, edges included: one tile, partial tiles, group
// of 0 (clamped to 1), groups larger than the row blocks, odd counts, batches.
std::vector<Shape> shapes() {
  std::vector<Shape> out;
  for (int64_t rows : {1, 255, 256, 257, 512, 1000, 4097})
    for (int64_t cols : {1, 256, 257, 700, 2049})
      for (int64_t batch : {1, 2, 3})
        for (int cluster_rows : {256, 128})
          for (int block_cols : {256, 128})
            for (int group : {0, 1, 2, 3, 8, 64})
              out.push_back({rows, cols, batch, cluster_rows, block_cols, group});
  return out;
}

TileScheduler make(const Shape& s) {
  return bwgemm::make_tile_scheduler(s.rows, s.cols, s.batch, s.cluster_rows, s.block_cols,
                                     s.group);
}

// Cluster tiles needed to cover `extent` with tiles of `tile`, by counting.
int32_t tiles_to_cover(int64_t extent, int tile) {
  int32_t n = 0;
  for (int64_t covered = 0; covered < extent; covered += tile) ++n;
  return n;
}

void the_sizes_are_the_cluster_tiles_covering_the_output(void**) {
  for (const Shape& s : shapes()) {
    const TileScheduler t = make(s);
    const int32_t row_blocks = tiles_to_cover(s.rows, s.cluster_rows);
    const int32_t col_blocks = tiles_to_cover(s.cols, s.block_cols);
    if (t.row_blocks != row_blocks || t.col_blocks != col_blocks || t.batch != s.batch ||
        t.group != (s.group < 1 ? 1 : s.group) ||
        t.tile_count() != int64_t{row_blocks} * col_blocks * s.batch) {
      print_shape(s);
      fail_msg("scheduler %d x %d x %d group %d, %lld tiles", t.row_blocks, t.col_blocks, t.batch,
               t.group, static_cast<long long>(t.tile_count()));
    }
  }
  // Worked values.
  const TileScheduler t = bwgemm::make_tile_scheduler(4097, 4095, 3, 256, 256, 8);
  assert_int_equal(t.row_blocks, 17);
  assert_int_equal(t.col_blocks, 16);
  assert_int_equal(t.tile_count(), 17 * 16 * 3);
  assert_int_equal(bwgemm::make_tile_scheduler(1, 1, 1, 256, 256, 8).tile_count(), 1);
  assert_int_equal(bwgemm::make_tile_scheduler(256, 256, 1, 256, 256, 0).group, 1);
}

// Every cluster count from one cluster to more clusters than tiles, with and
// without batches' columns rotated: the clusters together take every (batch,
// row block, column block) exactly once.
void clusters_cover_every_tile_exactly_once(void**) {
  for (const Shape& s : shapes()) {
    for (bool rotate : {false, true}) {
      TileScheduler t = make(s);
      t.batch_col_mask = rotate ? bwgemm::widest_batch_col_mask(t.col_blocks) : 0;
      const int64_t count = t.tile_count();
      for (int64_t clusters : {int64_t{1}, int64_t{2}, int64_t{7}, int64_t{66}, count + 1}) {
        std::vector<int> visits(static_cast<size_t>(count), 0);
        int64_t taken = 0;
        for (int64_t c = 0; c < clusters; ++c) {
          for (int64_t linear = c; linear < count; linear += clusters) {
            const TileCoord tc = t.tile(linear);
            if (tc.batch < 0 || tc.batch >= t.batch || tc.row_block < 0 ||
                tc.row_block >= t.row_blocks || tc.col_block < 0 || tc.col_block >= t.col_blocks) {
              print_shape(s);
              fail_msg("tile %lld -> (%d, %d, %d) out of range", static_cast<long long>(linear),
                       tc.batch, tc.row_block, tc.col_block);
            }
            ++visits[static_cast<size_t>(
                (int64_t{tc.batch} * t.row_blocks + tc.row_block) * t.col_blocks + tc.col_block)];
            ++taken;
          }
        }
        if (taken != count) {
          print_shape(s);
          fail_msg("%lld clusters took %lld of %lld tiles", static_cast<long long>(clusters),
                   static_cast<long long>(taken), static_cast<long long>(count));
        }
        for (size_t i = 0; i < visits.size(); ++i) {
          if (visits[i] != 1) {
            print_shape(s);
            fail_msg("%lld clusters, rotated %d: tile %zu taken %d times",
                     static_cast<long long>(clusters), int(rotate), i, visits[i]);
          }
        }
      }
    }
  }
}

// With a batch_col_mask, batch b's order is batch 0's with every column
// block moved b & mask blocks on, wrapping: the same rows, in the same
// sequence.
void a_rotated_batch_is_the_first_batch_moved_along_the_columns(void**) {
  std::vector<Shape> all = shapes();
  // More batches than column blocks, and 3 column blocks (mask 1).
  all.push_back({512, 3 * 256, 8, 256, 256, 2});
  for (const Shape& s : all) {
    const TileScheduler plain = make(s);
    for (uint32_t mask = 1; mask < uint32_t(plain.col_blocks); mask = mask * 2 + 1) {
      TileScheduler t = plain;
      t.batch_col_mask = mask;
      const int64_t per_batch = int64_t{t.row_blocks} * t.col_blocks;
      for (int64_t linear = 0; linear < t.tile_count(); ++linear) {
        const TileCoord first = plain.tile(linear % per_batch);
        const TileCoord tc = t.tile(linear);
        const int32_t b = static_cast<int32_t>(linear / per_batch);
        const int32_t moved = static_cast<int32_t>(uint32_t(b) & mask);
        if (tc.batch != b || tc.row_block != first.row_block ||
            tc.col_block != (first.col_block + moved) % t.col_blocks) {
          print_shape(s);
          fail_msg("mask %u: tile %lld -> (%d, %d, %d), batch 0's was (%d, %d)", mask,
                   static_cast<long long>(linear), tc.batch, tc.row_block, tc.col_block,
                   first.row_block, first.col_block);
        }
      }
    }
  }
  // Worked: 8 batches of one row block and 32 column blocks (mask 31): batch
  // 5 starts in column block 5, batch 7's last tile is in column block 6;
  // with 3 column blocks (mask 1) batch 7 starts in column block 1, batch 6
  // in 0.
  TileScheduler classes = bwgemm::make_tile_scheduler(512, 4096, 8, 512, 128, 8);
  classes.batch_col_mask = 31;
  assert_int_equal(classes.tile(5 * 32).col_block, 5);
  assert_int_equal(classes.tile(8 * 32 - 1).col_block, 6);
  TileScheduler three = bwgemm::make_tile_scheduler(256, 3 * 256, 8, 256, 256, 8);
  three.batch_col_mask = 1;
  assert_int_equal(three.tile(7 * 3).col_block, 1);
  assert_int_equal(three.tile(6 * 3).col_block, 0);
}

// The widest mask is 2^j - 1 for the largest 2^j <= col_blocks, by
// counting: every rotation it gives stays under col_blocks, and the next
// wider one would not.
void the_widest_mask_is_the_largest_power_of_two_in_the_columns(void**) {
  for (int32_t cols = 1; cols <= 4100; ++cols) {
    const uint32_t mask = bwgemm::widest_batch_col_mask(cols);
    if ((mask & (mask + 1)) != 0 || int64_t{mask} >= cols || 2 * int64_t{mask} + 1 < cols)
      fail_msg("%d column blocks: mask %u", cols, mask);
  }
  assert_int_equal(bwgemm::widest_batch_col_mask(1), 0);
  assert_int_equal(bwgemm::widest_batch_col_mask(3), 1);
  assert_int_equal(bwgemm::widest_batch_col_mask(32), 31);
  assert_int_equal(bwgemm::widest_batch_col_mask(33), 31);
}

// The sm90 kernel's CTAs, each walking its cluster's tiles and placing its
// block with place_tile: the two CTAs of a cluster take the same tiles in the
// same order (so they run the same k-loops and their barrier handshakes pair
// up), side by side along the rows, and together all CTAs write every
// (batch, 128-row block, 256-column block) of D exactly once.
void ctas_place_every_block_once_in_cluster_pairs(void**) {
  using Cfg = bwgemm::sm90::Config<__half, __half, false, false>;
  constexpr int64_t kClusters = 3;
  for (const Shape& s : shapes()) {
    if (s.cluster_rows != Cfg::kClusterSize * Cfg::kBlockRows || s.block_cols != Cfg::kBlockCols)
      continue;
    bwgemm::GemmParams p{};
    p.scheduler = make(s);
    p.row.batched = p.out_batched = true;
    p.col.batched = false;  // a broadcast column operand
    const int64_t cta_rows = int64_t{p.scheduler.row_blocks} * Cfg::kClusterSize;
    std::vector<int> writes(static_cast<size_t>(cta_rows * p.scheduler.col_blocks * s.batch), 0);
    for (int64_t c = 0; c < kClusters; ++c) {
      for (int64_t linear = c; linear < p.scheduler.tile_count(); linear += kClusters) {
        const TilePlace cta0 = bwgemm::place_tile<Cfg>(p, linear, 0);
        const TilePlace cta1 = bwgemm::place_tile<Cfg>(p, linear, 1);
        if (cta1.row0 != cta0.row0 + Cfg::kBlockRows || cta1.col0 != cta0.col0 ||
            cta1.batch != cta0.batch || cta0.row0 % (Cfg::kClusterSize * Cfg::kBlockRows) != 0 ||
            cta0.col0 % Cfg::kBlockCols != 0 || cta0.row_plane != cta0.batch ||
            cta0.out_plane != cta0.batch || cta0.col_plane != 0 || cta1.row_plane != cta0.batch) {
          print_shape(s);
          fail_msg("tile %lld: CTA 0 at (%d, %d, batch %d), CTA 1 at (%d, %d, batch %d)",
                   static_cast<long long>(linear), cta0.row0, cta0.col0, cta0.batch, cta1.row0,
                   cta1.col0, cta1.batch);
        }
        for (const TilePlace& place : {cta0, cta1})
          ++writes[static_cast<size_t>(
              (int64_t{place.batch} * cta_rows + place.row0 / Cfg::kBlockRows) *
                  p.scheduler.col_blocks +
              place.col0 / Cfg::kBlockCols)];
      }
    }
    for (size_t i = 0; i < writes.size(); ++i) {
      if (writes[i] != 1) {
        print_shape(s);
        fail_msg("block %zu written %d times", i, writes[i]);
      }
    }
  }
}

// Within a group the tiles run down the group's rows, then move one column:
// consecutive tiles share the column block until the group's last row, the
// column ascends in even groups and descends in odd ones (snake), and a group
// starts in the column where the previous one ended. Each batch starts at
// (0, 0). With the coverage above, this is the whole order.
void groups_run_down_the_rows_and_snake_across_the_columns(void**) {
  for (const Shape& s : shapes()) {
    const TileScheduler t = make(s);
    const int64_t per_batch = int64_t{t.row_blocks} * t.col_blocks;
    for (int64_t linear = 0; linear < t.tile_count(); ++linear) {
      const TileCoord cur = t.tile(linear);
      assert_int_equal(cur.batch, linear / per_batch);
      if (linear % per_batch == 0) {
        assert_int_equal(cur.row_block, 0);
        assert_int_equal(cur.col_block, 0);
      }
      if ((linear + 1) % per_batch == 0) continue;  // the batch's last tile
      const TileCoord next = t.tile(linear + 1);
      const int32_t g = cur.row_block / t.group;
      const int32_t first_row = g * t.group;
      const int32_t last_row =
          (first_row + t.group < t.row_blocks ? first_row + t.group : t.row_blocks) - 1;
      const int32_t direction = g % 2 == 0 ? 1 : -1;
      bool ok;
      if (cur.row_block != last_row) {
        // Down the rows of the group, in the same column block.
        ok = next.row_block == cur.row_block + 1 && next.col_block == cur.col_block;
      } else if (next.row_block / t.group == g) {
        // The next column (snake direction), back at the group's first row.
        ok = next.row_block == first_row && next.col_block == cur.col_block + direction;
      } else {
        // The group ended at its far column; the next one starts there.
        ok = cur.col_block == (direction > 0 ? t.col_blocks - 1 : 0) &&
             next.row_block == last_row + 1 && next.col_block == cur.col_block;
      }
      if (!ok) {
        print_shape(s);
        fail_msg("tile %lld (%d, %d, %d) is followed by (%d, %d, %d)",
                 static_cast<long long>(linear), cur.batch, cur.row_block, cur.col_block,
                 next.batch, next.row_block, next.col_block);
      }
    }
  }
}

// 3 cluster rows, 4 column blocks, groups of 2, two batches, written out.
void a_small_order_written_out(void**) {
  const TileScheduler t = bwgemm::make_tile_scheduler(3 * 256, 4 * 256, 2, 256, 256, 2);
  const int32_t expected[][2] = {// group 0 (rows 0-1), columns ascending
                                 {0, 0},
                                 {1, 0},
                                 {0, 1},
                                 {1, 1},
                                 {0, 2},
                                 {1, 2},
                                 {0, 3},
                                 {1, 3},
                                 // group 1 (row 2 only), columns descending
                                 {2, 3},
                                 {2, 2},
                                 {2, 1},
                                 {2, 0}};
  assert_int_equal(t.tile_count(), 24);
  for (int64_t linear = 0; linear < 24; ++linear) {
    const TileCoord tc = t.tile(linear);
    assert_int_equal(tc.batch, linear / 12);
    assert_int_equal(tc.row_block, expected[linear % 12][0]);
    assert_int_equal(tc.col_block, expected[linear % 12][1]);
  }
}

// More tiles than an int32 counts: the linear index and the per-batch and
// per-group products stay 64-bit.
void tile_indices_past_int32(void**) {
  const TileScheduler t =
      bwgemm::make_tile_scheduler(int64_t{40000} * 256, int64_t{40000} * 256, 4, 256, 256, 8);
  assert_int_equal(t.tile_count(), int64_t{40000} * 40000 * 4);
  const TileCoord last = t.tile(t.tile_count() - 1);
  // 40000 rows = 5000 groups of 8; group 4999 is odd, so it ends in column 0.
  assert_int_equal(last.batch, 3);
  assert_int_equal(last.row_block, 39999);
  assert_int_equal(last.col_block, 0);
  const TileCoord first_of_last_batch = t.tile(int64_t{40000} * 40000 * 3);
  assert_int_equal(first_of_last_batch.batch, 3);
  assert_int_equal(first_of_last_batch.row_block, 0);
  assert_int_equal(first_of_last_batch.col_block, 0);
  // Group 2 of batch 1 (even): its 8 rows start in column 0.
  const TileCoord g2 = t.tile(int64_t{40000} * 40000 + int64_t{2} * 8 * 40000 + 9);
  assert_int_equal(g2.batch, 1);
  assert_int_equal(g2.row_block, 16 + 1);
  assert_int_equal(g2.col_block, 1);
}

// Split tiles (tile_split.h): the units are the tiles before split_from,
// then each split tile's pieces, every (tile, piece) once, and the pieces'
// k shares cover the tile's k blocks once, in order.
void split_tiles_are_units_of_pieces(void**) {
  TileScheduler t = bwgemm::make_tile_scheduler(8192, 768, 1, 256, 256, 8);
  assert_int_equal(t.tile_count(), 96);
  assert_int_equal(t.unit_count(), 96);
  t.split_from = 66;
  t.pieces = 2;
  assert_int_equal(t.unit_count(), 126);
  for (const int32_t pieces : {2, 3, 4}) {
    t.pieces = pieces;
    std::vector<int> seen(size_t(96 * pieces), 0);
    for (int64_t u = 0; u < t.unit_count(); ++u) {
      const bwgemm::TileUnit unit = t.unit(u);
      assert_true(unit.tile >= 0 && unit.tile < 96);
      assert_int_equal(unit.pieces, unit.tile < 66 ? 1 : pieces);
      assert_true(unit.piece >= 0 && unit.piece < unit.pieces);
      ++seen[size_t(unit.tile * pieces + unit.piece)];
    }
    for (int64_t tile = 0; tile < 96; ++tile)
      for (int32_t piece = 0; piece < pieces; ++piece)
        assert_int_equal(seen[size_t(tile * pieces + piece)], tile < 66 && piece > 0 ? 0 : 1);
  }
  for (const int32_t k_blocks : {0, 1, 64, 65, 786, 787})
    for (const int32_t pieces : {1, 2, 3, 4}) {
      int32_t next = 0;
      for (int32_t piece = 0; piece < pieces; ++piece) {
        const bwgemm::KRange r = bwgemm::k_share(k_blocks, piece, pieces);
        assert_int_equal(r.begin, next);
        assert_true(r.count >= 0);
        next = r.begin + r.count;
      }
      assert_int_equal(next, k_blocks);
    }
}

// plan_tile_split: where the last wave holds at most half the clusters'
// worth of tiles, in as many pieces as the clusters take (at most four, of
// at least 32 k blocks each); its bytes within tile_split_room.
void thin_last_waves_split_over_k(void**) {
  bwgemm::TileShape shape{};
  shape.cluster_size = 2;
  shape.block_rows = 128;
  shape.block_cols = 256;
  shape.block_k = 64;
  shape.split_tiles = true;
  // GPT-2's input gradient: 96 tiles on 66 clusters, 786 k blocks.
  bwgemm::TileSplitPlan p = bwgemm::plan_tile_split(96, 66, 786, shape);
  assert_int_equal(p.split_from, 66);
  assert_int_equal(p.pieces, 2);
  // 30 tiles x 2 CTAs x 2 consumers: 120 counters (480 bytes, in 512), then
  // 2 pieces of 64 x 256 fp32 each.
  assert_int_equal(p.bytes, 512 + size_t{120} * 2 * 64 * 256 * 4);
  assert_true(p.bytes <= bwgemm::tile_split_room(66, 786 * 64, shape));
  // 16 tiles: four pieces; 9 tiles, 100 k blocks: three (32 blocks each).
  assert_int_equal(bwgemm::plan_tile_split(16, 66, 128, shape).pieces, 4);
  assert_int_equal(bwgemm::plan_tile_split(16, 66, 128, shape).split_from, 0);
  assert_int_equal(bwgemm::plan_tile_split(9, 66, 100, shape).pieces, 3);
  // None: full waves, a last wave over half full, too few k blocks, a
  // shape that does not split.
  assert_int_equal(bwgemm::plan_tile_split(132, 66, 786, shape).pieces, 1);
  assert_int_equal(bwgemm::plan_tile_split(100, 66, 786, shape).pieces, 1);
  assert_int_equal(bwgemm::plan_tile_split(96, 66, 63, shape).pieces, 1);
  assert_int_equal(bwgemm::plan_tile_split(96, 66, 786, shape).bytes > 0, 1);
  assert_int_equal(bwgemm::tile_split_room(66, 63 * 64, shape), 0);
  for (int64_t tiles = 1; tiles <= 400; ++tiles) {
    const bwgemm::TileSplitPlan q = bwgemm::plan_tile_split(tiles, 66, 200, shape);
    assert_true(q.bytes <= bwgemm::tile_split_room(66, 200 * 64, shape));
    assert_true((tiles - q.split_from) * q.pieces <= 66);
  }
  shape.split_tiles = false;
  assert_int_equal(bwgemm::plan_tile_split(96, 66, 786, shape).pieces, 1);
  assert_int_equal(bwgemm::tile_split_room(66, 786 * 64, shape), 0);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_sizes_are_the_cluster_tiles_covering_the_output),
      cmocka_unit_test(clusters_cover_every_tile_exactly_once),
      cmocka_unit_test(a_rotated_batch_is_the_first_batch_moved_along_the_columns),
      cmocka_unit_test(the_widest_mask_is_the_largest_power_of_two_in_the_columns),
      cmocka_unit_test(ctas_place_every_block_once_in_cluster_pairs),
      cmocka_unit_test(groups_run_down_the_rows_and_snake_across_the_columns),
      cmocka_unit_test(a_small_order_written_out),
      cmocka_unit_test(tile_indices_past_int32),
      cmocka_unit_test(split_tiles_are_units_of_pieces),
      cmocka_unit_test(thin_last_waves_split_over_k),
  };
  return cmocka_run_group_tests_name("tile_scheduler", tests, nullptr, nullptr);
}
