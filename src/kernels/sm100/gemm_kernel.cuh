// SPDX-License-Identifier: MIT
// The sm100 GEMM: persistent, warp-specialized, 2-CTA tcgen05 MMA with TMEM
// accumulators, TMA loads and stores.
//
//   TMA warp (both CTAs) --full[s] (even CTA)--> MMA thread (even CTA)
//        ^                                           |  tcgen05.mma.cta_group::2, M = 256
//        +------ empty[s] (both, multicast commit) --+
//   MMA thread --tmem_full[a] (both, multicast)--> epilogue warpgroup (both CTAs)
//        ^                                                  |
//        +--------------- tmem_empty[a] (even CTA) <--------+
//
// A cluster is one CTA pair. Each CTA holds 128 rows of the row operand and
// half of the 256-wide column block in shared memory (identical layouts), the
// even CTA's single MMA thread multiplies the pair's 256 x 256 tile into both
// CTAs' TMEM, and each CTA's epilogue warpgroup drains its 128 x 256 half
// (tcgen05.ld -> alpha/beta/convert -> staging -> TMA store) while the MMA
// fills the other of two TMEM accumulators. Every wait is bounded: a protocol
// failure sets p.error_flag and the roles leave instead of hanging.
#pragma once

#include "kernels/common/epilogue.cuh"
#include "kernels/common/gemm_params.h"
#include "kernels/common/pipeline_state.h"
#include "kernels/common/smem_desc.h"
#include "kernels/common/tile_place.cuh"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/fence.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/tcgen05.cuh"
#include "kernels/ptx/tma.cuh"
#include "kernels/ptx/warp.cuh"
#include "kernels/sm100/config.h"
#include "kernels/sm100/instr_desc.h"

namespace bwgemm::sm100 {

template <class Cfg>
struct SharedStorage {
  uint8_t* base;

  BWGEMM_DEVICE uint8_t* row_tile(uint32_t stage) const { return base + stage * Cfg::kStageBytes; }
  BWGEMM_DEVICE uint8_t* col_half(uint32_t stage) const {
    return row_tile(stage) + Cfg::kRowTileBytes;
  }
  BWGEMM_DEVICE uint8_t* staging_chunk(uint32_t slot) const {
    return base + Cfg::kStagingOffset + slot * Cfg::kChunkBytes;
  }
  BWGEMM_DEVICE ptx::Mbarrier* barrier(int i) const {
    return reinterpret_cast<ptx::Mbarrier*>(base + Cfg::kBarrierOffset) + i;
  }
  BWGEMM_DEVICE ptx::Mbarrier* full(uint32_t stage) const { return barrier(stage); }
  BWGEMM_DEVICE ptx::Mbarrier* empty(uint32_t stage) const { return barrier(Cfg::kStages + stage); }
  BWGEMM_DEVICE ptx::Mbarrier* tmem_full(uint32_t acc) const {
    return barrier(2 * Cfg::kStages + acc);
  }
  BWGEMM_DEVICE ptx::Mbarrier* tmem_empty(uint32_t acc) const {
    return barrier(2 * Cfg::kStages + Cfg::kAccumulators + acc);
  }
  BWGEMM_DEVICE uint32_t* tmem_slot() const {
    return reinterpret_cast<uint32_t*>(base + Cfg::kTmemSlotOffset);
  }
  // Set by any epilogue thread whose bounded wait failed (see drain).
  BWGEMM_DEVICE volatile uint32_t* epilogue_failed() const { return tmem_slot() + 1; }
};

// Named barrier of the epilogue warpgroup (0 is the CTA-wide one).
constexpr int kEpilogueBarrier = 1;

// The even CTA of the pair issues the MMAs and owns full[] and tmem_empty[].
constexpr uint32_t kLeader = 0;
constexpr uint16_t kBothCtas = 0b11;

// Waits for the phase of `parity`. A phase that never completes (a protocol
// failure) is recorded for the host and the caller leaves its role.
BWGEMM_DEVICE bool wait_or_fail(ptx::Mbarrier* bar, uint32_t parity, const GemmParams& p) {
  if (ptx::mbarrier_wait_bounded(bar, parity)) return true;
  if (p.error_flag != nullptr) *static_cast<volatile uint32_t*>(p.error_flag) = 1;
  return false;
}

// Shared-memory descriptor of an operand tile in a stage (smem_desc.h): the
// even CTA's addresses; the hardware reads the peer's at the same offsets.
template <bool kMNMajor>
BWGEMM_DEVICE uint64_t operand_desc(const void* tile, uint32_t mn_block_bytes) {
  return encode_tcgen05_desc(
      {ptx::smem_address(tile), kMNMajor ? mn_block_bytes : 16u, 1024u, SmemSwizzle::B128});
}

template <bool kMNMajor>
constexpr uint32_t kK16Bytes = kMNMajor ? 16 * 128 : 16 * 2;

// The TMA warp of each CTA: loads this CTA's rows and half of the column
// block; the bytes complete on the even CTA's full[s].
template <class Cfg>
BWGEMM_DEVICE void produce(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                           int32_t k_blocks) {
  PipelineState<Cfg::kStages> ring;
  for (int64_t t = ptx::cluster_index(); t < p.scheduler.tile_count(); t += ptx::cluster_count()) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    const int32_t half0 = place.col0 + int32_t(rank) * Cfg::kHalfCols;
    for (int32_t kb = 0; kb < k_blocks; ++kb) {
      const int32_t k0 = kb * Cfg::kBlockK;
      ptx::Mbarrier* full = smem.full(ring.stage);
      // Wait until the MMAs that read this stage (in both CTAs) completed.
      if (!wait_or_fail(smem.empty(ring.stage), ring.phase ^ 1, p)) return;
      if (rank == kLeader)
        ptx::mbarrier_arrive_expect_tx(full, Cfg::kClusterSize * Cfg::kStageBytes);
      uint8_t* rows = smem.row_tile(ring.stage);
      uint8_t* cols = smem.col_half(ring.stage);
      if constexpr (Cfg::kRowMN) {
        for (int j = 0; j < Cfg::kBlockRows / Cfg::kMNBox; ++j)
          ptx::tma_load_3d_2cta(rows + j * Cfg::kBoxBytes, &p.row_map, full, kLeader,
                                place.row0 + j * Cfg::kMNBox, k0, place.row_plane);
      } else {
        ptx::tma_load_3d_2cta(rows, &p.row_map, full, kLeader, k0, place.row0, place.row_plane);
      }
      if constexpr (Cfg::kColMN) {
        for (int j = 0; j < Cfg::kHalfCols / Cfg::kMNBox; ++j)
          ptx::tma_load_3d_2cta(cols + j * Cfg::kBoxBytes, &p.col_map, full, kLeader,
                                half0 + j * Cfg::kMNBox, k0, place.col_plane);
      } else {
        ptx::tma_load_3d_2cta(cols, &p.col_map, full, kLeader, k0, half0, place.col_plane);
      }
      ring.advance();
    }
  }
}

// The even CTA's MMA thread: one M = 256 x N = 256 tile per scheduled tile,
// alternating between the two TMEM accumulators.
template <class Cfg>
BWGEMM_DEVICE void issue_mma(const GemmParams& p, const SharedStorage<Cfg>& smem,
                             uint32_t tmem_base, int32_t k_blocks) {
  constexpr uint32_t kInstrDesc =
      make_instr_desc_f16(std::is_same_v<typename Cfg::AB, __nv_bfloat16>, Cfg::kRowMN, Cfg::kColMN,
                          Cfg::kClusterSize * Cfg::kBlockRows, Cfg::kBlockCols);
  PipelineState<Cfg::kStages> ring;
  uint32_t tile_iteration = 0;
  for (int64_t t = ptx::cluster_index(); t < p.scheduler.tile_count(); t += ptx::cluster_count()) {
    const uint32_t acc = tile_iteration % Cfg::kAccumulators;
    const uint32_t acc_phase = (tile_iteration / Cfg::kAccumulators) & 1;
    ++tile_iteration;
    // The epilogues of both CTAs must have drained this accumulator.
    if (!wait_or_fail(smem.tmem_empty(acc), acc_phase ^ 1, p)) return;
    ptx::tcgen05_fence_after_sync();
    const uint32_t d = tmem_base + acc * Cfg::kBlockCols;
    for (int32_t kb = 0; kb < k_blocks; ++kb) {
      if (!wait_or_fail(smem.full(ring.stage), ring.phase, p)) return;
      ptx::tcgen05_fence_after_sync();
      const uint64_t a = operand_desc<Cfg::kRowMN>(smem.row_tile(ring.stage), Cfg::kBoxBytes);
      const uint64_t b = operand_desc<Cfg::kColMN>(smem.col_half(ring.stage), Cfg::kBoxBytes);
#pragma unroll
      for (int kk = 0; kk < Cfg::kBlockK / Cfg::kUmmaK; ++kk)
        ptx::umma_f16_2cta(d, advance_desc(a, kk * kK16Bytes<Cfg::kRowMN>),
                           advance_desc(b, kk * kK16Bytes<Cfg::kColMN>), kInstrDesc,
                           kb > 0 || kk > 0);
      // The stage is free in both CTAs once these MMAs completed.
      ptx::umma_commit_2cta(smem.empty(ring.stage), kBothCtas);
      ring.advance();
    }
    ptx::umma_commit_2cta(smem.tmem_full(acc), kBothCtas);
  }
}

// One CTA's 128 x 256 half of a tile: TMEM -> alpha/beta/convert -> staging
// -> TMA store, in groups of chunks the staging buffer holds. kLoad: the
// accumulator holds the product (false: k == 0 or alpha == 0, it is zero).
template <class Cfg, bool kReadC, bool kLoad>
BWGEMM_DEVICE void drain_tile(const GemmParams& p, const SharedStorage<Cfg>& smem,
                              const TilePlace& place, uint32_t acc_column, float alpha,
                              float beta) {
  using Out = typename Cfg::Out;
  constexpr int kValuesPer16B = 16 / int(sizeof(Out));
  const uint32_t thread = ptx::thread_index() - Cfg::kFirstEpilogueWarp * 32;
  const uint32_t warp_quarter = thread / 32;  // the TMEM lanes this warp may access
  const int32_t row = place.row0 + int32_t(thread);
  Out* d = static_cast<Out*>(p.out) + place.batch * p.out_stride;

#pragma unroll
  for (int group = 0; group < Cfg::kChunks / Cfg::kChunksPerStaging; ++group) {
    const int first_chunk = group * Cfg::kChunksPerStaging;
    if (place.row0 >= p.rows || place.col0 + first_chunk * Cfg::kChunkCols >= p.cols) break;
    // Earlier stores (the previous group or tile) must have read the buffer.
    if (thread == 0) ptx::tma_store_wait_read<0>();
    ptx::named_barrier_sync(kEpilogueBarrier, 128);
#pragma unroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int chunk = first_chunk + slot;
      const int32_t col0 = place.col0 + chunk * Cfg::kChunkCols;
      float v[Cfg::kChunkCols];
      if constexpr (kLoad) {
        ptx::tmem_load_32x32b<Cfg::kChunkCols>(
            ((32 * warp_quarter) << 16) + acc_column + chunk * Cfg::kChunkCols, v);
        ptx::tmem_load_wait();
      } else {
#pragma unroll
        for (float& x : v) x = 0.0f;
      }
#pragma unroll
      for (int i = 0; i < Cfg::kChunkCols; i += 2) {
        v[i] *= alpha;
        v[i + 1] *= alpha;
        if constexpr (kReadC)
          epilogue::add_scaled_pair(&v[i], &v[i + 1], beta, d, p.out_ld, row, col0 + i, p.rows,
                                    p.cols);
      }
      // This thread's row of the chunk: 128 bytes, 16 at a time.
      uint8_t* buffer = smem.staging_chunk(slot);
#pragma unroll
      for (int q = 0; q < 8; ++q)
        *reinterpret_cast<uint4*>(buffer + epilogue::swizzled_offset(thread, 16 * q)) =
            epilogue::pack_16_bytes<Out>(&v[q * kValuesPer16B]);
    }
    ptx::fence_proxy_async_smem();
    ptx::named_barrier_sync(kEpilogueBarrier, 128);
#pragma unroll
    for (int slot = 0; slot < Cfg::kChunksPerStaging; ++slot) {
      const int32_t col0 = place.col0 + (first_chunk + slot) * Cfg::kChunkCols;
      if (col0 >= p.cols) break;
      const uint8_t* buffer = smem.staging_chunk(slot);
      if (!p.out_store_exact && col0 + Cfg::kChunkCols > p.cols) {
        epilogue::store_chunk_bounded<Out, Cfg::kChunkCols>(
            buffer, Cfg::kBlockRows, d, p.out_ld, place.row0, col0, p.rows, p.cols, thread, 128);
      } else if (thread == 0) {
        ptx::tma_store_3d(&p.out_map, buffer, col0, place.row0, place.out_plane);
      }
    }
    if (thread == 0) ptx::tma_store_commit();
  }
}

// The epilogue warpgroup of each CTA, tile after tile.
template <class Cfg>
BWGEMM_DEVICE void drain(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                         uint32_t tmem_base, int32_t k_blocks, float alpha, float beta) {
  uint32_t tile_iteration = 0;
  for (int64_t t = ptx::cluster_index(); t < p.scheduler.tile_count(); t += ptx::cluster_count()) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    const uint32_t acc = tile_iteration % Cfg::kAccumulators;
    const uint32_t acc_phase = (tile_iteration / Cfg::kAccumulators) & 1;
    ++tile_iteration;
    const uint32_t acc_column = tmem_base + acc * Cfg::kBlockCols;
    if (k_blocks > 0) {
      // The warpgroup leaves together or not at all: a thread that timed out
      // while its peers' wait succeeded would strand them at the epilogue's
      // named barrier, which is not bounded.
      if (!wait_or_fail(smem.tmem_full(acc), acc_phase, p)) *smem.epilogue_failed() = 1;
      ptx::named_barrier_sync(kEpilogueBarrier, 128);
      if (*smem.epilogue_failed() != 0) break;
      ptx::tcgen05_fence_after_sync();
      if (beta == 0.0f)
        drain_tile<Cfg, false, true>(p, smem, place, acc_column, alpha, beta);
      else
        drain_tile<Cfg, true, true>(p, smem, place, acc_column, alpha, beta);
      // Hand the accumulator back to the MMA thread (in the even CTA).
      ptx::tcgen05_fence_before_sync();
      ptx::sync_warp();
      if (ptx::lane_index() == 0) ptx::mbarrier_arrive_cluster(smem.tmem_empty(acc), kLeader);
    } else if (beta == 0.0f) {
      drain_tile<Cfg, false, false>(p, smem, place, acc_column, alpha, beta);
    } else {
      drain_tile<Cfg, true, false>(p, smem, place, acc_column, alpha, beta);
    }
  }
  // Stores must complete before the CTA (and its shared memory) goes away,
  // also on the failure path.
  if (ptx::thread_index() == Cfg::kFirstEpilogueWarp * 32) ptx::tma_store_wait<0>();
}

template <class Cfg>
BWGEMM_DEVICE void gemm_kernel_body(const GemmParams& p) {
  const SharedStorage<Cfg> smem{ptx::dynamic_smem()};
  const uint32_t warp = ptx::warp_index();
  const uint32_t rank = ptx::cluster_cta_rank();

  if (ptx::thread_index() == 0) {
    for (int s = 0; s < Cfg::kStages; ++s) {
      ptx::mbarrier_init(smem.full(s), 1);
      ptx::mbarrier_init(smem.empty(s), 1);
    }
    for (int a = 0; a < Cfg::kAccumulators; ++a) {
      ptx::mbarrier_init(smem.tmem_full(a), 1);
      ptx::mbarrier_init(smem.tmem_empty(a), Cfg::kTmemEmptyArrivals);
    }
    *smem.epilogue_failed() = 0;
    ptx::fence_mbarrier_init();
    if (p.depth > 0) {
      ptx::prefetch_tensor_map(&p.row_map);
      ptx::prefetch_tensor_map(&p.col_map);
    }
    ptx::prefetch_tensor_map(&p.out_map);
  }
  // The peer signals these barriers only after this, and the 2-CTA TMEM
  // allocation needs both CTAs running.
  ptx::cluster_sync();
  if (warp == Cfg::kTmemWarp) {
    ptx::tmem_alloc_2cta(smem.tmem_slot(), Cfg::kTmemColumns);
    ptx::tmem_relinquish_2cta();
  }
  // Publish the TMEM address (PTX ISA 9.7.16.6.4: fence, barrier, fence).
  ptx::tcgen05_fence_before_sync();
  ptx::named_barrier_sync(0, Cfg::kThreads);
  ptx::tcgen05_fence_after_sync();
  const uint32_t tmem_base = *smem.tmem_slot();

  // alpha == 0 reads neither A nor B, k == 0 has nothing to read: both give
  // D = beta * D without any MMA, in both CTAs alike.
  const float alpha = p.alpha.load();
  const float beta = p.beta.load();
  const int32_t k_blocks =
      (p.depth > 0 && alpha != 0.0f) ? (p.depth + Cfg::kBlockK - 1) / Cfg::kBlockK : 0;

  if (warp == Cfg::kProducerWarp) {
    if (k_blocks > 0 && ptx::elect_one()) produce<Cfg>(p, smem, rank, k_blocks);
    ptx::sync_warp();
  } else if (warp == Cfg::kMmaWarp) {
    if (k_blocks > 0 && rank == kLeader && ptx::elect_one())
      issue_mma<Cfg>(p, smem, tmem_base, k_blocks);
    ptx::sync_warp();
  } else if (warp >= Cfg::kFirstEpilogueWarp) {
    drain<Cfg>(p, smem, rank, tmem_base, k_blocks, alpha, beta);
  }
  // TMEM is freed only when both CTAs are done with it, and no CTA leaves
  // while its peer may still signal it (PTX ISA 9.7.16.7.1 dealloc example).
  ptx::tcgen05_fence_before_sync();
  ptx::cluster_sync();
  if (warp == Cfg::kTmemWarp) ptx::tmem_dealloc_2cta(tmem_base, Cfg::kTmemColumns);
}

}  // namespace bwgemm::sm100
