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

#include "kernels/common/cluster_tiles.cuh"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/epilogue_form.cuh"
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
#include "kernels/ptx/tcgen05.cuh"
#include "kernels/ptx/tma.cuh"
#include "kernels/ptx/warp.cuh"
#include "kernels/sm100/config.h"
#include "kernels/sm100/instr_desc.h"

namespace bwgemm::sm100 {

// Warp roles (Config::kThreads = 8 warps): warp 0 issues the TMA loads, warp 1
// the MMAs (in the even CTA), warp 2 allocates TMEM, warp 3 idles, and warps
// 4-7 are the epilogue warpgroup (warp w may access TMEM lanes 32 (w % 4)..).
enum class Role { Producer, Mma, TmemAllocator, Idle, Epilogue };

constexpr uint32_t kFirstEpilogueWarp = 4;

BWGEMM_DEVICE Role role_of(uint32_t warp) {
  return warp == 0                   ? Role::Producer
         : warp == 1                 ? Role::Mma
         : warp == 2                 ? Role::TmemAllocator
         : warp < kFirstEpilogueWarp ? Role::Idle
                                     : Role::Epilogue;
}

// Stages and barriers as both families lay them out, then the TMEM ring's
// barriers, the TMEM address and the epilogue's failure vote.
template <class Cfg>
struct SharedStorage : StageStorage<Cfg> {
  BWGEMM_DEVICE ptx::Mbarrier* tmem_full(uint32_t acc) const {
    return this->after_stage_barriers() + acc;
  }
  BWGEMM_DEVICE ptx::Mbarrier* tmem_empty(uint32_t acc) const {
    return tmem_full(Cfg::kAccumulators) + acc;
  }
  BWGEMM_DEVICE uint32_t* tmem_slot() const {
    return reinterpret_cast<uint32_t*>(this->base + Cfg::kTmemSlotOffset);
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
  if (ptx::mbarrier_wait_bounded(bar, parity, p.wait_budget_ns)) return true;
  if (p.error_flag.word != nullptr)
    *static_cast<volatile uint32_t*>(p.error_flag.word) = p.error_flag.tag;
  return false;
}

// The TMA warp of each CTA: loads this CTA's rows and half of the column
// block; the bytes complete on the even CTA's full[s].
template <class Cfg>
BWGEMM_DEVICE void produce(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                           int32_t k_blocks) {
  PipelineState<Cfg::kStages> ring;
  for (const int64_t t : ClusterTiles(p.scheduler)) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    const int32_t half0 = place.col0 + int32_t(rank) * Cfg::kHalfCols;
    for (int32_t kb = 0; kb < k_blocks; ++kb) {
      const int32_t k0 = kb * Cfg::kBlockK;
      ptx::Mbarrier* full = smem.full(ring.stage);
      // Wait until the MMAs that read this stage (in both CTAs) completed,
      // then load this CTA's rows and its half of the columns.
      if (!wait_or_fail(smem.empty(ring.stage), ring.phase ^ 1, p)) return;
      if (rank == kLeader)
        ptx::mbarrier_arrive_expect_tx(full, Cfg::kClusterSize * Cfg::kStageBytes);
      load_operand<Cfg, Cfg::kRowMN, Cfg::kBlockRows>(
          smem.row_tile(ring.stage), 0, place.row0, k0, [&](void* dst, int32_t c0, int32_t c1) {
            ptx::tma_load_3d_2cta(dst, &p.row.map, full, kLeader, c0, c1, place.row_plane);
          });
      load_operand<Cfg, Cfg::kColMN, Cfg::kHalfCols>(
          smem.col_tile(ring.stage), 0, half0, k0, [&](void* dst, int32_t c0, int32_t c1) {
            ptx::tma_load_3d_2cta(dst, &p.col.map, full, kLeader, c0, c1, place.col_plane);
          });
      ring.advance();
    }
  }
  // The producer's tail: the MMA thread's commits release the last stages
  // filled into both CTAs (multicast), and one may still be on its way to
  // this CTA's empty[]. Observing the release of each of the last kStages
  // fills (a stage never filled passes at once) means none is.
  for (int s = 0; s < Cfg::kStages; ++s) {
    if (!wait_or_fail(smem.empty(ring.stage), ring.phase ^ 1, p)) return;
    ring.advance();
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
  PipelineState<Cfg::kAccumulators> acc_ring;
  for ([[maybe_unused]] const int64_t t : ClusterTiles(p.scheduler)) {
    // The epilogues of both CTAs must have drained this accumulator.
    if (!wait_or_fail(smem.tmem_empty(acc_ring.stage), acc_ring.phase ^ 1, p)) return;
    ptx::tcgen05_fence_after_sync();
    const uint32_t d = tmem_base + acc_ring.stage * Cfg::kBlockCols;
    for (int32_t kb = 0; kb < k_blocks; ++kb) {
      if (!wait_or_fail(smem.full(ring.stage), ring.phase, p)) return;
      ptx::tcgen05_fence_after_sync();
      // The even CTA's tiles; the hardware reads the peer's at the same offsets.
      const uint64_t a = operand_desc<DescKind::Tcgen05, Cfg::kRowMN>(
          ptx::smem_address(smem.row_tile(ring.stage)), Cfg::kBoxBytes);
      const uint64_t b = operand_desc<DescKind::Tcgen05, Cfg::kColMN>(
          ptx::smem_address(smem.col_tile(ring.stage)), Cfg::kBoxBytes);
#pragma unroll
      for (int kk = 0; kk < Cfg::kBlockK / Cfg::kUmmaK; ++kk)
        ptx::umma_f16_2cta(d, advance_desc(a, kk * kK16Bytes<Cfg::kRowMN>),
                           advance_desc(b, kk * kK16Bytes<Cfg::kColMN>), kInstrDesc,
                           kb > 0 || kk > 0);
      // The stage is free in both CTAs once these MMAs completed.
      ptx::umma_commit_2cta(smem.empty(ring.stage), kBothCtas);
      ring.advance();
    }
    ptx::umma_commit_2cta(smem.tmem_full(acc_ring.stage), kBothCtas);
    acc_ring.advance();
  }
  // One more round: both CTAs' epilogues have released every accumulator, so
  // they observed the last tmem_full commit and read TMEM for the last time,
  // and their arrivals on tmem_empty[] have all landed.
  for (int a = 0; a < Cfg::kAccumulators; ++a) {
    if (!wait_or_fail(smem.tmem_empty(acc_ring.stage), acc_ring.phase ^ 1, p)) return;
    acc_ring.advance();
  }
}

// One CTA's 128 x 256 half of a tile: TMEM -> alpha/beta/bias/activation/convert -> staging
// -> TMA store (epilogue_store.cuh). Form: epilogue_form.cuh. kLoad: the
// accumulator holds the product (false: k == 0 or alpha == 0, it is zero).
template <class Cfg, class Form, bool kLoad>
BWGEMM_DEVICE void drain_tile(const GemmParams& p, const SharedStorage<Cfg>& smem,
                              const TilePlace& place, uint32_t acc_column, float alpha,
                              float beta) {
  using Out = typename Cfg::Out;
  constexpr int kValuesPer16B = 16 / int(sizeof(Out));
  const uint32_t thread = ptx::thread_index() - kFirstEpilogueWarp * 32;
  const uint32_t warp_quarter = thread / 32;  // the TMEM lanes this warp may access
  const int32_t row = place.row0 + int32_t(thread);
  Out* d = static_cast<Out*>(p.out) + place.batch * p.out_stride;
  const Out* c = static_cast<const Out*>(p.c_in) + place.batch * p.c_stride;
  if (place.row0 >= p.rows) return;  // uniform across the warpgroup

  // This thread's row of the chunk: TMEM lane `thread`, 128 bytes.
  const auto fill_chunk = [&](int chunk, int32_t col0, const auto& sink) {
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
      if constexpr (Form::kReadC)
        epilogue::add_scaled_pair(&v[i], &v[i + 1], beta, c, p.c_ld, row, col0 + i, p.rows, p.cols);
      epilogue::finish_pair<Form::kStage>(p, place.batch, col0 + i, &v[i], &v[i + 1]);
    }
#pragma unroll
    for (int q = 0; q < 8; ++q)
      sink.template put<kValuesPer16B>(thread, q * kValuesPer16B, &v[q * kValuesPer16B]);
  };
  epilogue::store_block_staged<Cfg, Cfg::kBlockRows, Form::kRotated>(
      p, d, place, place.row0, smem.staging(), thread, kEpilogueBarrier, fill_chunk);
}

// The epilogue warpgroup of each CTA, tile after tile, in the launch's
// epilogue form (epilogue_form.cuh).
template <class Cfg, class Form>
BWGEMM_DEVICE void drain(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                         uint32_t tmem_base, int32_t k_blocks, float alpha, float beta) {
  PipelineState<Cfg::kAccumulators> acc_ring;
  for (const int64_t t : ClusterTiles(p.scheduler)) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    const uint32_t acc = acc_ring.stage;
    const uint32_t acc_column = tmem_base + acc * Cfg::kBlockCols;
    if (k_blocks > 0) {
      // The warpgroup leaves together or not at all: a thread that timed out
      // while its peers' wait succeeded would strand them at the epilogue's
      // named barrier, which is not bounded.
      if (!wait_or_fail(smem.tmem_full(acc), acc_ring.phase, p)) *smem.epilogue_failed() = 1;
      ptx::named_barrier_sync(kEpilogueBarrier, 128);
      if (*smem.epilogue_failed() != 0) break;
      ptx::tcgen05_fence_after_sync();
      drain_tile<Cfg, Form, true>(p, smem, place, acc_column, alpha, beta);
      // Hand the accumulator back to the MMA thread (in the even CTA).
      ptx::tcgen05_fence_before_sync();
      ptx::sync_warp();
      if (ptx::lane_index() == 0) ptx::mbarrier_arrive_cluster(smem.tmem_empty(acc), kLeader);
    } else {
      drain_tile<Cfg, Form, false>(p, smem, place, acc_column, alpha, beta);
    }
    acc_ring.advance();
  }
  // Stores must complete before the CTA (and its shared memory) goes away,
  // also on the failure path; each thread waits for the bulk groups it
  // committed.
  ptx::tma_store_wait<0>();
}

template <class Cfg>
BWGEMM_DEVICE void gemm_kernel_body(const GemmParams& p) {
  const SharedStorage<Cfg> smem{{ptx::dynamic_smem()}};
  const uint32_t warp = ptx::warp_index();
  const Role role = role_of(warp);
  const uint32_t rank = ptx::cluster_cta_rank();

  if (ptx::thread_index() == 0) {
    *smem.epilogue_failed() = 0;
    init_barrier_rings(BarrierRing{smem.full(0), smem.empty(0), Cfg::kStages, 1, 1},
                       BarrierRing{smem.tmem_full(0), smem.tmem_empty(0), Cfg::kAccumulators, 1,
                                   Cfg::kTmemEmptyArrivals});
    prefetch_maps(p);
  }
  // The peer signals these barriers only after this, and the 2-CTA TMEM
  // allocation needs both CTAs running.
  ptx::cluster_sync();
  if (role == Role::TmemAllocator) {
    ptx::tmem_alloc_2cta(smem.tmem_slot(), Cfg::kTmemColumns);
    ptx::tmem_relinquish_2cta();
  }
  // Publish the TMEM address (PTX ISA 9.7.16.6.4: fence, barrier, fence).
  ptx::tcgen05_fence_before_sync();
  ptx::named_barrier_sync(0, Cfg::kThreads);
  ptx::tcgen05_fence_after_sync();
  const uint32_t tmem_base = *smem.tmem_slot();

  const float alpha = p.stage.alpha.load();
  const float beta = p.stage.beta.load();
  const int32_t k_blocks = k_block_count<Cfg::kBlockK>(p.depth, alpha);

  if (role == Role::Producer) {
    if (k_blocks > 0 && ptx::elect_one()) produce<Cfg>(p, smem, rank, k_blocks);
    ptx::sync_warp();
  } else if (role == Role::Mma) {
    if (k_blocks > 0 && rank == kLeader && ptx::elect_one())
      issue_mma<Cfg>(p, smem, tmem_base, k_blocks);
    ptx::sync_warp();
  } else if (role == Role::Epilogue) {
    epilogue::with_form(p, beta, [&](auto form) {
      drain<Cfg, decltype(form)>(p, smem, rank, tmem_base, k_blocks, alpha, beta);
    });
  }
  // Teardown, in this order (as CUTLASS and DeepGEMM do it):
  //  1. each CTA's producer has observed the release of every stage it
  //     filled: no multicast commit targets its empty[] any more, and its
  //     TMA loads have landed (the MMAs that released them read them);
  //  2. each CTA's epilogue has observed the last tmem_full commit and its
  //     TMA stores have completed;
  //  3. the MMA thread (even CTA) has observed both epilogues release both
  //     accumulators: TMEM is read no more and no arrival is on its way;
  //  4. cluster barrier: neither CTA passes before both finished 1-3;
  //  5. the allocating warps of both CTAs free TMEM together;
  //  6. both CTAs exit; nothing targets either CTA any more.
  // (PTX ISA 9.7.16.7.1 dealloc example: barrier, dealloc, exit.)
  ptx::tcgen05_fence_before_sync();
  ptx::cluster_sync();
  if (role == Role::TmemAllocator) ptx::tmem_dealloc_2cta(tmem_base, Cfg::kTmemColumns);
}

}  // namespace bwgemm::sm100
