// SPDX-License-Identifier: MIT
// The sm90 GEMM: persistent, warp-specialized, 2-CTA clusters, TMA + wgmma.
//
//   producer warp --TMA--> stage s --full[s]--> consumer warpgroups (wgmma)
//        ^                                              |
//        +------------------ empty[s] <-----------------+  (both CTAs' warps)
//
// Each cluster of two CTAs computes a (2 x 128) x 256 tile of D (kernel view,
// kernel_view.h): CTA r owns rows [128 r, 128 r + 128), loads its own row
// operand and half of the shared column operand, multicast to both CTAs.
// Consumers hold the accumulators in registers, stage their block of D in
// 128B-swizzled chunks, issue one TMA store per chunk and start the next tile
// while the stores drain (the producer has already loaded its first stages).
#pragma once

#include "kernels/common/epilogue.cuh"
#include "kernels/common/gemm_params.h"
#include "kernels/common/pipeline_state.h"
#include "kernels/common/smem_desc.h"
#include "kernels/common/tile_place.cuh"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/fence.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/tma.cuh"
#include "kernels/ptx/warp.cuh"
#include "kernels/ptx/wgmma.cuh"
#include "kernels/sm90/config.h"

namespace bwgemm::sm90 {

template <class Cfg>
struct SharedStorage {
  uint8_t* base;

  BWGEMM_DEVICE uint8_t* row_tile(uint32_t stage) const { return base + stage * Cfg::kStageBytes; }
  BWGEMM_DEVICE uint8_t* col_tile(uint32_t stage) const {
    return row_tile(stage) + Cfg::kRowTileBytes;
  }
  BWGEMM_DEVICE uint8_t* staging_chunk(uint32_t consumer, uint32_t slot) const {
    return base + Cfg::kStagingOffset + consumer * Cfg::kStagingBytes + slot * Cfg::kChunkBytes;
  }
  BWGEMM_DEVICE ptx::Mbarrier* full(uint32_t stage) const {
    return reinterpret_cast<ptx::Mbarrier*>(base + Cfg::kBarrierOffset) + stage;
  }
  BWGEMM_DEVICE ptx::Mbarrier* empty(uint32_t stage) const { return full(Cfg::kStages) + stage; }
};

// The TMA warp: one elected thread fills the ring for every tile of this
// cluster, in the same order the consumers drain it.
template <class Cfg>
BWGEMM_DEVICE void produce(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                           int32_t k_blocks) {
  constexpr uint16_t kBothCtas = 0b11;
  PipelineState<Cfg::kStages> ring;
  for (int64_t t = ptx::cluster_index(); t < p.scheduler.tile_count(); t += ptx::cluster_count()) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    const int32_t half0 = place.col0 + int32_t(rank) * Cfg::kHalfCols;
    for (int32_t kb = 0; kb < k_blocks; ++kb) {
      const int32_t k0 = kb * Cfg::kBlockK;
      ptx::Mbarrier* full = smem.full(ring.stage);
      // Wait until both CTAs' consumers released the stage, then load it.
      ptx::mbarrier_wait(smem.empty(ring.stage), ring.phase ^ 1);
      ptx::mbarrier_arrive_expect_tx(full, Cfg::kStageBytes);
      uint8_t* rows = smem.row_tile(ring.stage);
      uint8_t* cols = smem.col_tile(ring.stage);
      if constexpr (Cfg::kRowMN) {
        for (int j = 0; j < Cfg::kBlockRows / Cfg::kMNBox; ++j)
          ptx::tma_load_3d(rows + j * Cfg::kBoxBytes, &p.row_map, full,
                           place.row0 + j * Cfg::kMNBox, k0, place.row_plane);
      } else {
        ptx::tma_load_3d(rows, &p.row_map, full, k0, place.row0, place.row_plane);
      }
      if constexpr (Cfg::kColMN) {
        constexpr int kBoxesPerHalf = Cfg::kHalfCols / Cfg::kMNBox;
        for (int j = 0; j < kBoxesPerHalf; ++j)
          ptx::tma_load_3d_multicast(cols + (rank * kBoxesPerHalf + j) * Cfg::kBoxBytes, &p.col_map,
                                     full, kBothCtas, half0 + j * Cfg::kMNBox, k0, place.col_plane);
      } else {
        ptx::tma_load_3d_multicast(cols + rank * (Cfg::kColTileBytes / 2), &p.col_map, full,
                                   kBothCtas, k0, half0, place.col_plane);
      }
      ring.advance();
    }
  }
}

// Descriptor of a stage's operand tile for one consumer (see smem_desc.h).
template <bool kMNMajor>
BWGEMM_DEVICE uint64_t operand_desc(uint32_t start, uint32_t mn_block_bytes) {
  return encode_wgmma_desc({start, kMNMajor ? mn_block_bytes : 16u, 1024u, SmemSwizzle::B128});
}

// Bytes one wgmma K step (16 elements) moves the start address.
template <bool kMNMajor>
constexpr uint32_t kK16Bytes = kMNMajor ? 16 * 128 : 16 * 2;

template <class Cfg>
BWGEMM_DEVICE void release_stage(const SharedStorage<Cfg>& smem, uint32_t stage, uint32_t rank) {
  if (ptx::lane_index() == 0) {
    ptx::mbarrier_arrive(smem.empty(stage));
    ptx::mbarrier_arrive_cluster(smem.empty(stage), rank ^ 1);
  }
}

// One tile's k-loop: acc = U[rows of this consumer] * V over all k blocks.
template <class Cfg, class Mma>
BWGEMM_DEVICE void mainloop(const SharedStorage<Cfg>& smem, PipelineState<Cfg::kStages>& ring,
                            uint32_t consumer, uint32_t rank, int32_t k_blocks,
                            float (&acc)[Mma::kAccumulators]) {
  uint32_t previous = 0;
  for (int32_t kb = 0; kb < k_blocks; ++kb) {
    ptx::mbarrier_wait(smem.full(ring.stage), ring.phase);
    const uint64_t a = operand_desc<Cfg::kRowMN>(
        ptx::smem_address(smem.row_tile(ring.stage)) + consumer * (Cfg::kRowTileBytes / 2),
        Cfg::kBoxBytes);
    const uint64_t b =
        operand_desc<Cfg::kColMN>(ptx::smem_address(smem.col_tile(ring.stage)), Cfg::kBoxBytes);
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < Cfg::kBlockK / 16; ++kk)
      Mma::mma(acc, advance_desc(a, kk * kK16Bytes<Cfg::kRowMN>),
               advance_desc(b, kk * kK16Bytes<Cfg::kColMN>), kb > 0 || kk > 0);
    ptx::wgmma_commit();
    // The previous stage's wgmma group is done once at most this one runs.
    ptx::wgmma_wait<1>();
    if (kb > 0) release_stage(smem, previous, rank);
    previous = ring.stage;
    ring.advance();
  }
  ptx::wgmma_wait<0>();
  release_stage(smem, previous, rank);
}

// alpha/beta, conversion and the store of one consumer's 64 x 256 block:
// chunks are written into the staging buffer as many at a time as it holds,
// then stored (TMA, or threads where a TMA store cannot clip exactly), and
// the consumer moves on while the stores drain.
// kReadC: beta != 0. The two cases are separate code so that the common one
// (beta == 0) runs no branch and no bounds check per element.
template <class Cfg, class Mma, bool kReadC>
BWGEMM_DEVICE void epilogue_tile(const GemmParams& p, const SharedStorage<Cfg>& smem,
                                 const TilePlace& place, uint32_t consumer, float alpha, float beta,
                                 float (&acc)[Mma::kAccumulators]) {
  using Out = typename Cfg::Out;
  using Traits = epilogue::OutTraits<Out>;
  constexpr int kBlocksPerChunk = Cfg::kChunkCols / 8;
  const uint32_t thread = ptx::thread_index() % 128;
  const uint32_t warp = thread / 32, lane = thread % 32;
  const int32_t row0 = place.row0 + int32_t(consumer) * 64;
  if (row0 >= p.rows) return;  // uniform across the warpgroup
  // This thread's two rows within the 64-row block, and its column pair.
  const uint32_t ra = 16 * warp + lane / 4, rb = ra + 8;
  const uint32_t pair_col = 2 * (lane % 4);
  Out* d = static_cast<Out*>(p.out) + place.batch * p.out_stride;
  const uint32_t barrier_id = 1 + consumer;

#pragma unroll
  for (int group = 0; group < Cfg::kChunks / Cfg::kChunksPerStaging; ++group) {
    const int first_chunk = group * Cfg::kChunksPerStaging;
    if (place.col0 + first_chunk * Cfg::kChunkCols >= p.cols) break;
    // Earlier stores (the previous group or tile) must have read the buffer.
    if (thread == 0) ptx::tma_store_wait_read<0>();
    ptx::named_barrier_sync(barrier_id, 128);
#pragma unroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int chunk = first_chunk + slot;
      const int32_t col0 = place.col0 + chunk * Cfg::kChunkCols;
      uint8_t* buffer = smem.staging_chunk(consumer, slot);
      // beta != 0: a chunk wholly inside D reads C without per-element bounds
      // checks, through this thread's two row pointers.
      const bool interior = row0 + 64 <= p.rows && col0 + Cfg::kChunkCols <= p.cols;
      const Out* c_ra = d + int64_t(row0 + int32_t(ra)) * p.out_ld + col0 + pair_col;
      const Out* c_rb = c_ra + 8 * p.out_ld;
#pragma unroll
      for (int jj = 0; jj < kBlocksPerChunk; ++jj) {
        const int j = chunk * kBlocksPerChunk + jj;
        const uint32_t col = 8 * jj + pair_col;
        float v0 = alpha * acc[4 * j], v1 = alpha * acc[4 * j + 1];
        float v2 = alpha * acc[4 * j + 2], v3 = alpha * acc[4 * j + 3];
        if constexpr (kReadC) {
          if (interior) {
            v0 += beta * Traits::to_float(c_ra[8 * jj]);
            v1 += beta * Traits::to_float(c_ra[8 * jj + 1]);
            v2 += beta * Traits::to_float(c_rb[8 * jj]);
            v3 += beta * Traits::to_float(c_rb[8 * jj + 1]);
          } else {
            epilogue::add_scaled_pair(&v0, &v1, beta, d, p.out_ld, row0 + int32_t(ra),
                                      col0 + int32_t(col), p.rows, p.cols);
            epilogue::add_scaled_pair(&v2, &v3, beta, d, p.out_ld, row0 + int32_t(rb),
                                      col0 + int32_t(col), p.rows, p.cols);
          }
        }
        Traits::store_pair(buffer + epilogue::swizzled_offset(ra, col * sizeof(Out)), v0, v1);
        Traits::store_pair(buffer + epilogue::swizzled_offset(rb, col * sizeof(Out)), v2, v3);
      }
    }
    ptx::fence_proxy_async_smem();
    ptx::named_barrier_sync(barrier_id, 128);
#pragma unroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int32_t col0 = place.col0 + (first_chunk + slot) * Cfg::kChunkCols;
      if (col0 >= p.cols) break;
      const uint8_t* buffer = smem.staging_chunk(consumer, slot);
      if (!p.out_store_exact && col0 + Cfg::kChunkCols > p.cols) {
        epilogue::store_chunk_bounded<Out, Cfg::kChunkCols>(buffer, 64, d, p.out_ld, row0, col0,
                                                            p.rows, p.cols, thread, 128);
      } else if (thread == 0) {
        ptx::tma_store_3d(&p.out_map, buffer, col0, row0, place.out_plane);
      }
    }
    if (thread == 0) ptx::tma_store_commit();
  }
}

template <class Cfg>
BWGEMM_DEVICE void consume(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                           uint32_t consumer, int32_t k_blocks, float alpha, float beta) {
  using Mma = ptx::Wgmma<
      Cfg::kBlockCols,
      std::conditional_t<std::is_same_v<typename Cfg::AB, __half>, ptx::Half16, ptx::BFloat16>,
      Cfg::kRowMN, Cfg::kColMN>;
  float acc[Mma::kAccumulators];
  PipelineState<Cfg::kStages> ring;
  for (int64_t t = ptx::cluster_index(); t < p.scheduler.tile_count(); t += ptx::cluster_count()) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    // Zeroing ends the previous tile's accumulators' lifetime (wgmma's asm
    // operands are read-write), so the epilogue can reuse their registers.
#pragma unroll
    for (float& v : acc) v = 0.0f;
    if (k_blocks > 0) mainloop<Cfg, Mma>(smem, ring, consumer, rank, k_blocks, acc);
    if (beta == 0.0f)
      epilogue_tile<Cfg, Mma, false>(p, smem, place, consumer, alpha, beta, acc);
    else
      epilogue_tile<Cfg, Mma, true>(p, smem, place, consumer, alpha, beta, acc);
  }
  // Stores must complete before the CTA (and its shared memory) goes away.
  if (ptx::thread_index() % 128 == 0) ptx::tma_store_wait<0>();
}

template <class Cfg>
BWGEMM_DEVICE void gemm_kernel_body(const GemmParams& p) {
  const SharedStorage<Cfg> smem{ptx::dynamic_smem()};
  const uint32_t warpgroup = ptx::thread_index() / 128;
  const uint32_t rank = ptx::cluster_cta_rank();

  if (ptx::thread_index() == 0) {
    for (int s = 0; s < Cfg::kStages; ++s) {
      ptx::mbarrier_init(smem.full(s), 1);
      ptx::mbarrier_init(smem.empty(s), Cfg::kEmptyArrivals);
    }
    ptx::fence_mbarrier_init();
    if (p.depth > 0) {
      ptx::prefetch_tensor_map(&p.row_map);
      ptx::prefetch_tensor_map(&p.col_map);
    }
    ptx::prefetch_tensor_map(&p.out_map);
  }
  // The peer may arrive on, and multicast into, this CTA only after this.
  ptx::cluster_sync();

  // alpha == 0 reads neither A nor B, k == 0 has nothing to read: both give
  // D = beta * D with no mainloop at all, in both CTAs alike.
  const float alpha = p.alpha.load();
  const float beta = p.beta.load();
  const int32_t k_blocks =
      (p.depth > 0 && alpha != 0.0f) ? (p.depth + Cfg::kBlockK - 1) / Cfg::kBlockK : 0;

  if (warpgroup == 0) {
    ptx::decrease_registers<Cfg::kProducerRegisters>();
    if (ptx::warp_index() == 0 && ptx::elect_one()) produce<Cfg>(p, smem, rank, k_blocks);
    ptx::sync_warp();
  } else {
    ptx::increase_registers<Cfg::kConsumerRegisters>();
    consume<Cfg>(p, smem, rank, warpgroup - 1, k_blocks, alpha, beta);
  }
  // No CTA leaves while its peer may still arrive on or multicast into it.
  ptx::cluster_sync();
}

}  // namespace bwgemm::sm90
