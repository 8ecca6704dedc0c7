// SPDX-License-Identifier: MIT
// The staged store of one warpgroup's block of D, shared by the kernel
// families: chunks of kChunkRows x 128 bytes are filled into a staging buffer
// as many at a time as it holds, then stored by TMA, or, where TMA cannot
// store D's rows (leading dimension or base not 16-byte aligned), by threads:
// the warpgroup's own, or store warps it hands the buffer to (StoreHandoff).
// Either way the warpgroup moves on while the stores drain; the next fill of
// the buffer waits for them to have read it.
#pragma once

#include "kernels/common/epilogue.cuh"
#include "kernels/common/gemm_params.h"
#include "kernels/common/tile_place.cuh"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/fence.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/tma.cuh"
#include "kernels/ptx/warp.cuh"

namespace bwgemm::epilogue {

// A staging buffer handed between the warpgroup that fills it and the store
// warps that write it to D: `staged` completes when the 128 filling threads
// have arrived, `drained` when every store warp has read the buffer. Each side
// counts the fills of its buffer in `fills` (the barriers' phase).
struct StoreHandoff {
  ptx::Mbarrier* staged;
  ptx::Mbarrier* drained;
  uint32_t* fills;
};

// The column groups of one block: chunks [first, first + kChunksPerStaging)
// fill the buffer at once; a group starting past the last column is skipped.
template <class Cfg>
BWGEMM_DEVICE bool group_inside(const GemmParams& p, const TilePlace& place, int group) {
  return place.col0 + group * Cfg::kChunksPerStaging * Cfg::kChunkCols < p.cols;
}

template <class Cfg>
constexpr int kGroups = Cfg::kChunks / Cfg::kChunksPerStaging;

// The filling side of a handed-off block (D's rows not TMA-storable): each
// group waits for the store warps to have drained the buffer, fills it and
// hands it over. fill_chunk as for store_block_staged.
template <class Cfg, class FillChunk>
BWGEMM_DEVICE void hand_off_block(const GemmParams& p, const TilePlace& place, uint8_t* staging,
                                  const StoreHandoff& handoff, const FillChunk& fill_chunk) {
#pragma unroll
  for (int group = 0; group < kGroups<Cfg>; ++group) {
    if (!group_inside<Cfg>(p, place, group)) break;
    ptx::mbarrier_wait(handoff.drained, (*handoff.fills & 1) ^ 1);
#pragma unroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int chunk = group * Cfg::kChunksPerStaging + slot;
      fill_chunk(chunk, place.col0 + chunk * Cfg::kChunkCols, staging + slot * Cfg::kChunkBytes);
    }
    ptx::mbarrier_arrive(handoff.staged);
    ++*handoff.fills;
  }
}

// The store warps' side: the same groups of the block at (row0, place.col0),
// each stored by `threads` threads once staged, then released.
template <class Cfg, int kChunkRows>
BWGEMM_DEVICE void store_handed_off_block(const GemmParams& p, typename Cfg::Out* d,
                                          const TilePlace& place, int32_t row0,
                                          const uint8_t* staging, const StoreHandoff& handoff,
                                          uint32_t thread, uint32_t threads) {
  for (int group = 0; group < kGroups<Cfg>; ++group) {
    if (!group_inside<Cfg>(p, place, group)) break;
    ptx::mbarrier_wait(handoff.staged, *handoff.fills & 1);
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int32_t col0 = place.col0 + (group * Cfg::kChunksPerStaging + slot) * Cfg::kChunkCols;
      if (col0 >= p.cols) break;
      store_chunk_bounded<typename Cfg::Out, Cfg::kChunkCols>(staging + slot * Cfg::kChunkBytes,
                                                              kChunkRows, d, p.out_ld, row0, col0,
                                                              p.rows, p.cols, thread, threads);
    }
    ptx::sync_warp();
    if (ptx::lane_index() == 0) ptx::mbarrier_arrive(handoff.drained);
    ++*handoff.fills;
  }
}

// Stores the block at (row0, place.col0) of D (d: this batch's matrix) from
// 128 threads (`thread` 0..127) synchronised by named barrier `barrier_id`.
// `staging` holds Cfg::kChunksPerStaging chunks of Cfg::kChunkBytes.
// fill_chunk(chunk, col0, buffer) writes chunk `chunk` (first column col0) of
// the block into `buffer`, 128B-swizzled (swizzled_offset).
template <class Cfg, int kChunkRows, class FillChunk>
BWGEMM_DEVICE void store_block_staged(const GemmParams& p, typename Cfg::Out* d,
                                      const TilePlace& place, int32_t row0, uint8_t* staging,
                                      uint32_t thread, uint32_t barrier_id,
                                      const FillChunk& fill_chunk) {
#pragma unroll
  for (int group = 0; group < kGroups<Cfg>; ++group) {
    const int first_chunk = group * Cfg::kChunksPerStaging;
    if (!group_inside<Cfg>(p, place, group)) break;
    // Earlier stores (the previous group or tile) must have read the buffer.
    if (thread == 0) ptx::tma_store_wait_read<0>();
    ptx::named_barrier_sync(barrier_id, 128);
#pragma unroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int chunk = first_chunk + slot;
      fill_chunk(chunk, place.col0 + chunk * Cfg::kChunkCols, staging + slot * Cfg::kChunkBytes);
    }
    // The TMA (async proxy) reads what the threads wrote.
    ptx::fence_proxy_async_smem();
    ptx::named_barrier_sync(barrier_id, 128);
#pragma unroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int32_t col0 = place.col0 + (first_chunk + slot) * Cfg::kChunkCols;
      if (col0 >= p.cols) break;
      const uint8_t* buffer = staging + slot * Cfg::kChunkBytes;
      if (p.out_by_threads || (!p.out_store_exact && col0 + Cfg::kChunkCols > p.cols)) {
        store_chunk_bounded<typename Cfg::Out, Cfg::kChunkCols>(
            buffer, kChunkRows, d, p.out_ld, row0, col0, p.rows, p.cols, thread, 128);
      } else if (thread == 0) {
        ptx::tma_store_3d(&p.out_map, buffer, col0, row0, place.out_plane);
      }
    }
    if (thread == 0) ptx::tma_store_commit();
  }
}

}  // namespace bwgemm::epilogue
