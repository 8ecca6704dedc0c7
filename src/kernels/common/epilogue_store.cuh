// SPDX-License-Identifier: MIT
// The staged store of one warpgroup's block of D, shared by the kernel
// families: chunks of kChunkRows x 128 bytes are filled into a staging buffer
// as many at a time as it holds (a group), then stored. Two layouts of the
// buffer:
//  - D's rows 16-byte aligned: each chunk 128B-swizzled, one TMA store each
//    (by the threads where a TMA store cannot clip the last column exactly);
//    the warpgroup moves on while the stores drain, and the next fill of the
//    buffer waits for them to have read it;
//  - otherwise: the group's rows rotated (epilogue.cuh, store_rotated_row),
//    each warp writing a quarter of them.
#pragma once

#include "kernels/common/epilogue.cuh"
#include "kernels/common/gemm_params.h"
#include "kernels/common/tile_place.cuh"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/fence.cuh"
#include "kernels/ptx/tma.cuh"

namespace bwgemm::epilogue {

// Where fill_chunk puts values: put<kValues>(row, col, v) converts kValues
// consecutive values of `row` of the chunk, from its column `col` (kValues
// 2, or 16 bytes' worth), into the TMA's 128B-swizzled chunk or, where D's
// rows are staged rotated (kRotated), into the chunk's columns of the
// rotated rows.
template <class Out, int kRowBytes, bool kRotated>
struct ChunkSink {
  uint8_t* buffer;      // the chunk (swizzled), or the group's staged rows (rotated)
  const Out* start;     // rotated: D's element at the group's first row and column
  int64_t ld;           // rotated: D's leading dimension
  uint32_t first_byte;  // rotated: the chunk's first column within a staged row
  template <int kValues>
  BWGEMM_DEVICE void put(uint32_t row, uint32_t col, const float* v) const {
    if constexpr (!kRotated) {
      uint8_t* at = buffer + swizzled_offset(row, col * sizeof(Out));
      if constexpr (kValues * sizeof(Out) == 16) {
        *reinterpret_cast<uint4*>(at) = pack_16_bytes<Out>(v);
      } else {
        static_assert(kValues == 2);
        OutTraits<Out>::store_pair(at, v[0], v[1]);
      }
    } else {
      // col is even, and the rotation keeps pairs in the buffer's pair slots.
      static_assert(kValues % 2 == 0);
      const uint32_t rotation = row_rotation(start + row * ld, row);
      uint8_t* row_buffer = buffer + row * kRowBytes;
#pragma unroll
      for (int i = 0; i < kValues; i += 2)
        OutTraits<Out>::store_pair(
            row_buffer + rotated_offset<kRowBytes>(rotation, first_byte + (col + i) * sizeof(Out)),
            v[i], v[i + 1]);
    }
  }
};

// Stores the block at (row0, place.col0) of D (d: this batch's matrix) from
// 128 threads (`thread` 0..127) synchronised by named barrier `barrier_id`.
// `staging` holds Cfg::kChunksPerStaging chunks of Cfg::kChunkBytes.
// fill_chunk(chunk, col0, sink) writes chunk `chunk` (first column col0) of
// the block through sink.put (ChunkSink). kRotated: p.out_rotated
// (epilogue_form.cuh). The chunk loops are unrolled where
// Cfg::kUnrollChunkLoops says fill_chunk needs `chunk` at compile time.
template <class Cfg, int kChunkRows, bool kRotated, class FillChunk>
BWGEMM_DEVICE void store_block_staged(const GemmParams& p, typename Cfg::Out* d,
                                      const TilePlace& place, int32_t row0, uint8_t* staging,
                                      uint32_t thread, uint32_t barrier_id,
                                      const FillChunk& fill_chunk) {
  using Out = typename Cfg::Out;
  constexpr int kRowBytes = Cfg::kChunksPerStaging * 128;
  constexpr int kGroupCols = Cfg::kChunksPerStaging * Cfg::kChunkCols;
  static_assert(kChunkRows * kRowBytes == Cfg::kChunksPerStaging * Cfg::kChunkBytes);
  // (Read by nvcc's pragmas only: host builds of this header ignore them.)
  [[maybe_unused]] constexpr int kUnroll = Cfg::kUnrollChunkLoops ? Cfg::kChunks : 1;
#pragma unroll kUnroll
  for (int group = 0; group < Cfg::kChunks / Cfg::kChunksPerStaging; ++group) {
    const int first_chunk = group * Cfg::kChunksPerStaging;
    const int32_t group_col0 = place.col0 + first_chunk * Cfg::kChunkCols;
    if (group_col0 >= p.cols) break;
    // Earlier stores (the previous group or tile) must have read the buffer:
    // thread 0's TMA stores, or every thread's reads before the barrier.
    if (!kRotated && thread == 0) ptx::tma_store_wait_read<0>();
    ptx::named_barrier_sync(barrier_id, 128);
    Out* group_start = d + row0 * p.out_ld + group_col0;
#pragma unroll kUnroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const ChunkSink<Out, kRowBytes, kRotated> sink =
          kRotated ? ChunkSink<Out, kRowBytes, kRotated>{staging, group_start, p.out_ld,
                                                         uint32_t(slot * 128)}
                   : ChunkSink<Out, kRowBytes, kRotated>{staging + slot * Cfg::kChunkBytes, nullptr,
                                                         0, 0};
      fill_chunk(first_chunk + slot, group_col0 + slot * Cfg::kChunkCols, sink);
    }
    // The TMA (async proxy) reads what the threads wrote.
    if constexpr (!kRotated) ptx::fence_proxy_async_smem();
    ptx::named_barrier_sync(barrier_id, 128);
    if constexpr (kRotated) {
      const int32_t left = p.cols - group_col0;
      const uint32_t elements = uint32_t(left < kGroupCols ? left : kGroupCols);
      constexpr uint32_t kRowsPerWarp = (kChunkRows + 3) / 4;
      const uint32_t warp = thread / 32;
      for (uint32_t i = 0; i < kRowsPerWarp; ++i) {
        const uint32_t r = warp * kRowsPerWarp + i;
        if (r >= uint32_t(kChunkRows) || row0 + int32_t(r) >= place.rows) break;
        Out* row_start = group_start + r * p.out_ld;
        store_rotated_row<Out, kRowBytes>(staging + r * kRowBytes, row_rotation(row_start, r),
                                          row_start, elements, thread % 32);
      }
    } else {
#pragma unroll kUnroll
      for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
        const int32_t col0 = group_col0 + slot * Cfg::kChunkCols;
        if (col0 >= p.cols) break;
        const uint8_t* buffer = staging + slot * Cfg::kChunkBytes;
        // A chunk reaching before D's first column (a kOut row class's first)
        // or past a last column TMA cannot clip exactly is stored by threads.
        if (col0 < 0 || (!p.out_store_exact && col0 + Cfg::kChunkCols > p.cols)) {
          store_chunk_bounded<Out, Cfg::kChunkCols>(buffer, kChunkRows, d, p.out_ld, row0, col0,
                                                    place.rows, p.cols, thread, 128);
        } else if (thread == 0) {
          ptx::tma_store_3d(place.out_map, buffer, col0 + place.out_col_offset, row0,
                            place.out_plane);
        }
      }
      if (thread == 0) ptx::tma_store_commit();
    }
  }
}

}  // namespace bwgemm::epilogue
