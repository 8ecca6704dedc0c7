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

#include "kernels/common/cluster_tiles.cuh"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/epilogue_ops.cuh"
#include "kernels/common/epilogue_store.cuh"
#include "kernels/common/gemm_params.h"
#include "kernels/common/kernel_start.cuh"
#include "kernels/common/operand_load.cuh"
#include "kernels/common/pipeline_state.h"
#include "kernels/common/smem_desc.h"
#include "kernels/common/stage_storage.cuh"
#include "kernels/common/tile_place.cuh"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/tma.cuh"
#include "kernels/ptx/warp.cuh"
#include "kernels/ptx/wgmma.cuh"
#include "kernels/sm90/config.h"

namespace bwgemm::sm90 {

// Warp roles: warpgroup 0 produces (warp 0 issues the TMA loads, the other
// three only give their registers away); every other warpgroup is a consumer
// that runs the wgmma mainloop and the epilogue of its 64 rows.
enum class Role { Producer, Math };

BWGEMM_DEVICE Role role_of(uint32_t warp) { return warp / 4 == 0 ? Role::Producer : Role::Math; }

// Stages and barriers as both families lay them out, and a staging buffer
// per consumer.
template <class Cfg>
struct SharedStorage : StageStorage<Cfg> {
  BWGEMM_DEVICE uint8_t* consumer_staging(uint32_t consumer) const {
    return this->staging() + consumer * Cfg::kStagingBytes;
  }
};

// The TMA warp: one elected thread fills the ring for every tile of this
// cluster, in the same order the consumers drain it.
template <class Cfg>
BWGEMM_DEVICE void produce(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                           int32_t k_blocks) {
  constexpr uint16_t kBothCtas = 0b11;
  PipelineState<Cfg::kStages> ring;
  for (const int64_t t : ClusterTiles(p.scheduler)) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    const int32_t half0 = place.col0 + int32_t(rank) * Cfg::kHalfCols;
    for (int32_t kb = 0; kb < k_blocks; ++kb) {
      const int32_t k0 = kb * Cfg::kBlockK;
      ptx::Mbarrier* full = smem.full(ring.stage);
      // Wait until both CTAs' consumers released the stage, then load it:
      // this CTA's rows, and its half of the columns into both CTAs.
      ptx::mbarrier_wait(smem.empty(ring.stage), ring.phase ^ 1);
      ptx::mbarrier_arrive_expect_tx(full, Cfg::kStageBytes);
      load_operand<Cfg, Cfg::kRowMN, Cfg::kBlockRows>(
          smem.row_tile(ring.stage), 0, place.row0, k0, [&](void* dst, int32_t c0, int32_t c1) {
            ptx::tma_load_3d(dst, &p.row.map, full, c0, c1, place.row_plane);
          });
      load_operand<Cfg, Cfg::kColMN, Cfg::kHalfCols>(
          smem.col_tile(ring.stage), rank, half0, k0, [&](void* dst, int32_t c0, int32_t c1) {
            ptx::tma_load_3d_multicast(dst, &p.col.map, full, kBothCtas, c0, c1, place.col_plane);
          });
      ring.advance();
    }
  }
}

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
    // This consumer's 64 rows of the row tile, all of the column tile.
    const uint64_t a = operand_desc<DescKind::Wgmma, Cfg::kRowMN>(
        ptx::smem_address(smem.row_tile(ring.stage)) + consumer * (Cfg::kRowTileBytes / 2),
        Cfg::kBoxBytes);
    const uint64_t b = operand_desc<DescKind::Wgmma, Cfg::kColMN>(
        ptx::smem_address(smem.col_tile(ring.stage)), Cfg::kBoxBytes);
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

// alpha/beta, bias and activation, conversion and the store of one
// consumer's 64 x 256 block
// (epilogue_store.cuh): the consumer moves on while the stores drain.
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
  const Out* c = static_cast<const Out*>(p.c_in) + place.batch * p.c_stride;

  // The wgmma accumulator fragments of one chunk: 8-column blocks of this
  // thread's column pair in rows ra and rb.
  const auto fill_chunk = [&](int chunk, int32_t col0, uint8_t* buffer) {
    // beta != 0: a chunk wholly inside D reads C without per-element bounds
    // checks, through this thread's two row pointers.
    const bool interior = row0 + 64 <= p.rows && col0 + Cfg::kChunkCols <= p.cols;
    const Out* c_ra = c + int64_t(row0 + int32_t(ra)) * p.c_ld + col0 + pair_col;
    const Out* c_rb = c_ra + 8 * p.c_ld;
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
          epilogue::add_scaled_pair(&v0, &v1, beta, c, p.c_ld, row0 + int32_t(ra),
                                    col0 + int32_t(col), p.rows, p.cols);
          epilogue::add_scaled_pair(&v2, &v3, beta, c, p.c_ld, row0 + int32_t(rb),
                                    col0 + int32_t(col), p.rows, p.cols);
        }
      }
      epilogue::finish_pair(p, place.batch, col0 + int32_t(col), &v0, &v1);
      epilogue::finish_pair(p, place.batch, col0 + int32_t(col), &v2, &v3);
      Traits::store_pair(buffer + epilogue::swizzled_offset(ra, col * sizeof(Out)), v0, v1);
      Traits::store_pair(buffer + epilogue::swizzled_offset(rb, col * sizeof(Out)), v2, v3);
    }
  };
  // Named barrier 0 is the CTA-wide one.
  epilogue::store_block_staged<Cfg, 64>(p, d, place, row0, smem.consumer_staging(consumer), thread,
                                        1 + consumer, fill_chunk);
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
  for (const int64_t t : ClusterTiles(p.scheduler)) {
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
  const SharedStorage<Cfg> smem{{ptx::dynamic_smem()}};
  const uint32_t warp = ptx::warp_index();
  const uint32_t rank = ptx::cluster_cta_rank();

  if (ptx::thread_index() == 0) {
    init_barrier_rings(
        BarrierRing{smem.full(0), smem.empty(0), Cfg::kStages, 1, Cfg::kEmptyArrivals});
    prefetch_maps(p);
  }
  // The peer may arrive on, and multicast into, this CTA only after this.
  ptx::cluster_sync();

  const float alpha = p.alpha.load();
  const float beta = p.beta.load();
  const int32_t k_blocks = k_block_count<Cfg::kBlockK>(p.depth, alpha);

  if (role_of(warp) == Role::Producer) {
    ptx::decrease_registers<Cfg::kProducerRegisters>();
    if (warp == 0 && ptx::elect_one()) produce<Cfg>(p, smem, rank, k_blocks);
    ptx::sync_warp();
  } else {
    ptx::increase_registers<Cfg::kConsumerRegisters>();
    consume<Cfg>(p, smem, rank, warp / 4 - 1, k_blocks, alpha, beta);
  }
  // No CTA leaves while its peer may still arrive on or multicast into it.
  ptx::cluster_sync();
}

}  // namespace bwgemm::sm90
