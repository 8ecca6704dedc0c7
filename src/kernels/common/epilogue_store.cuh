// SPDX-License-Identifier: MIT
// The staged store of one warpgroup's block of D, shared by the kernel
// families: chunks of kChunkRows x 128 bytes are filled into a staging buffer
// as many at a time as it holds, then stored by TMA, or by the threads where a
// TMA store cannot clip the last column exactly or D's rows are not 16-byte
// aligned. The warpgroup moves on while
// the stores drain; the next fill of the buffer waits for them to have read it.
#pragma once

#include "kernels/common/epilogue.cuh"
#include "kernels/common/gemm_params.h"
#include "kernels/common/tile_place.cuh"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/fence.cuh"
#include "kernels/ptx/tma.cuh"

namespace bwgemm::epilogue {

// Stores the block at (row0, place.col0) of D (d: this batch's matrix) from
// 128 threads (`thread` 0..127) synchronised by named barrier `barrier_id`.
// `staging` holds Cfg::kChunksPerStaging chunks of Cfg::kChunkBytes.
// fill_chunk(chunk, col0, buffer) writes chunk `chunk` (first column col0) of
// the block into `buffer`, 128B-swizzled (swizzled_offset). The chunk loops
// are unrolled where Cfg::kUnrollChunkLoops says fill_chunk needs `chunk` at
// compile time.
template <class Cfg, int kChunkRows, class FillChunk>
BWGEMM_DEVICE void store_block_staged(const GemmParams& p, typename Cfg::Out* d,
                                      const TilePlace& place, int32_t row0, uint8_t* staging,
                                      uint32_t thread, uint32_t barrier_id,
                                      const FillChunk& fill_chunk) {
  // (Read by nvcc's pragmas only: host builds of this header ignore them.)
  [[maybe_unused]] constexpr int kUnroll = Cfg::kUnrollChunkLoops ? Cfg::kChunks : 1;
#pragma unroll kUnroll
  for (int group = 0; group < Cfg::kChunks / Cfg::kChunksPerStaging; ++group) {
    const int first_chunk = group * Cfg::kChunksPerStaging;
    if (place.col0 + first_chunk * Cfg::kChunkCols >= p.cols) break;
    // Earlier stores (the previous group or tile) must have read the buffer.
    if (thread == 0) ptx::tma_store_wait_read<0>();
    ptx::named_barrier_sync(barrier_id, 128);
#pragma unroll kUnroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int chunk = first_chunk + slot;
      fill_chunk(chunk, place.col0 + chunk * Cfg::kChunkCols, staging + slot * Cfg::kChunkBytes);
    }
    // The TMA (async proxy) reads what the threads wrote.
    ptx::fence_proxy_async_smem();
    ptx::named_barrier_sync(barrier_id, 128);
#pragma unroll kUnroll
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
