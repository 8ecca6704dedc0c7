// SPDX-License-Identifier: MIT
// The sm100 GEMM: persistent, warp-specialized, tcgen05 MMA with TMEM
// accumulators, TMA loads and stores. A cluster computes one cluster tile at
// a time in one of three modes (config.h); the pair:
//
//   TMA warp (both CTAs) --full[s] (even CTA)--> MMA thread (even CTA)
//        ^                                           |  tcgen05.mma.cta_group::2, M = 256
//        +------ empty[s] (both, multicast commit) --+
//   MMA thread --tmem_full[a] (both, multicast)--> epilogue warpgroup (both CTAs)
//        ^                                                  |
//        +--------------- tmem_empty[a] (even CTA) <--------+
//
// Each CTA of the pair holds 128 rows of the row operand and half of the
// column block in shared memory (identical layouts), the even CTA's single
// MMA thread multiplies the pair's 256 x N tile into both CTAs' TMEM, and
// each CTA's epilogue warpgroup drains its 128 x N half (tcgen05.ld ->
// alpha/beta/convert -> staging -> TMA store) while the MMA fills the other
// of two TMEM accumulators. A single CTA runs the same rings on its own,
// with cta_group::1 MMAs of M = 128 over the whole column block; with
// split-K each CTA of the cluster does so over its share of K, and the
// epilogues of ranks 1.. push their fp32 partial tiles into rank 0 (reduce
// slots), which adds them in rank order before its epilogue. Every wait is
// bounded: a protocol failure sets p.error_flag and the roles leave instead
// of hanging.
#pragma once

#include "kernels/common/cluster_tiles.cuh"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/epilogue_form.cuh"
#include "kernels/common/epilogue_ops.cuh"
#include "kernels/common/epilogue_store.cuh"
#include "kernels/common/gemm_params.h"
#include "kernels/common/k_range.cuh"
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
// the MMAs (with the pair, in the even CTA), warp 2 allocates TMEM, warp 3
// idles, and warps 4-7 are the epilogue warpgroup (warp w may access TMEM
// lanes 32 (w % 4)..).
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
// barriers, split-K's slots and barriers, the TMEM address and the
// epilogue's failure vote.
template <class Cfg>
struct SharedStorage : StageStorage<Cfg> {
  BWGEMM_DEVICE ptx::Mbarrier* tmem_full(uint32_t acc) const {
    return this->after_stage_barriers() + acc;
  }
  BWGEMM_DEVICE ptx::Mbarrier* tmem_empty(uint32_t acc) const {
    return tmem_full(Cfg::kAccumulators) + acc;
  }
  // Split-K: rank 0's slot for rank `rank`'s (>= 1) partial tile, float pairs
  // thread-minor; reduce_full (rank 0): the other ranks' partials have landed;
  // reduce_empty (other ranks): rank 0 has read them.
  BWGEMM_DEVICE float2* reduce_slot(uint32_t rank) const {
    return reinterpret_cast<float2*>(this->base + Cfg::kReduceOffset +
                                     (rank - 1) * Cfg::kReduceSlotBytes);
  }
  BWGEMM_DEVICE ptx::Mbarrier* reduce_full() const { return tmem_empty(Cfg::kAccumulators); }
  BWGEMM_DEVICE ptx::Mbarrier* reduce_empty() const { return reduce_full() + 1; }
  BWGEMM_DEVICE uint32_t* tmem_slot() const {
    return reinterpret_cast<uint32_t*>(this->base + Cfg::kTmemSlotOffset);
  }
  // Set by any epilogue thread whose bounded wait failed (epilogue_wait).
  BWGEMM_DEVICE volatile uint32_t* epilogue_failed() const { return tmem_slot() + 1; }
};

// Named barrier of the epilogue warpgroup (0 is the CTA-wide one).
constexpr int kEpilogueBarrier = 1;

// The even CTA of the pair issues the MMAs for both and owns full[] and
// tmem_empty[]; a CTA of the other modes its own.
constexpr uint32_t kLeader = 0;
constexpr uint16_t kBothCtas = 0b11;

template <class Cfg>
BWGEMM_DEVICE uint32_t mma_cta(uint32_t rank) {
  return Cfg::kPair ? kLeader : rank;
}

// Waits for the phase of `parity`. A phase that never completes (a protocol
// failure) is recorded for the host and the caller leaves its role.
template <ptx::AcquireScope kScope = ptx::AcquireScope::kCta>
BWGEMM_DEVICE bool wait_or_fail(ptx::Mbarrier* bar, uint32_t parity, const GemmParams& p) {
  if (ptx::mbarrier_wait_bounded<kScope>(bar, parity, p.wait_budget_ns)) return true;
  if (p.error_flag.word != nullptr)
    *static_cast<volatile uint32_t*>(p.error_flag.word) = p.error_flag.tag;
  return false;
}

// The epilogue warpgroup waits as one: it leaves together or not at all, for
// a thread that timed out while its peers' wait succeeded would strand them
// at the warpgroup's named barrier, which is not bounded.
template <ptx::AcquireScope kScope = ptx::AcquireScope::kCta, class Cfg>
BWGEMM_DEVICE bool epilogue_wait(const SharedStorage<Cfg>& smem, ptx::Mbarrier* bar,
                                 uint32_t parity, const GemmParams& p) {
  if (!wait_or_fail<kScope>(bar, parity, p)) *smem.epilogue_failed() = 1;
  ptx::named_barrier_sync(kEpilogueBarrier, 128);
  return *smem.epilogue_failed() == 0;
}

// The TMA warp of each CTA: loads this CTA's rows and its columns (with the
// pair, its half of the column block, the bytes of both CTAs completing on
// the even CTA's full[s]) for its k blocks of every tile.
template <class Cfg>
BWGEMM_DEVICE void produce(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                           int32_t k_blocks) {
  const KRange ks = k_range<Cfg>(k_blocks, rank);
  PipelineState<Cfg::kStages> ring;
  for (const int64_t t : ClusterTiles<Cfg>(p.scheduler)) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    const int32_t cols0 = place.col0 + int32_t(rank % Cfg::kRowCtas) * Cfg::kLoadedCols;
    for (int32_t kb = ks.begin; kb < ks.begin + ks.count; ++kb) {
      const int32_t k0 = kb * Cfg::kBlockK;
      ptx::Mbarrier* full = smem.full(ring.stage);
      // Wait until the MMAs that read this stage (in every CTA it feeds)
      // completed, then load it.
      if (!wait_or_fail(smem.empty(ring.stage), ring.phase ^ 1, p)) return;
      if (rank == mma_cta<Cfg>(rank))
        ptx::mbarrier_arrive_expect_tx(full, Cfg::kRowCtas * Cfg::kStageBytes);
      const auto box = [&](const ptx::TensorMap* map, int32_t plane) {
        return [&, map, plane](void* dst, int32_t c0, int32_t c1) {
          if constexpr (Cfg::kPair)
            ptx::tma_load_3d_2cta(dst, map, full, kLeader, c0, c1, plane);
          else
            ptx::tma_load_3d(dst, map, full, c0, c1, plane);
        };
      };
      load_operand<Cfg, Cfg::kRowMN, Cfg::kBlockRows>(smem.row_tile(ring.stage), 0, place.row0, k0,
                                                      box(&p.row.map, place.row_plane));
      load_operand<Cfg, Cfg::kColMN, Cfg::kLoadedCols>(smem.col_tile(ring.stage), 0, cols0, k0,
                                                       box(&p.col.map, place.col_plane));
      ring.advance();
    }
  }
  // The producer's tail: with the pair, the MMA thread's commits release the
  // last stages filled into both CTAs (multicast), and one may still be on
  // its way to this CTA's empty[]. Observing the release of each of the last
  // kStages fills (a stage never filled passes at once) means none is, and
  // that this CTA's loads have landed.
  for (int s = 0; s < Cfg::kStages; ++s) {
    if (!wait_or_fail(smem.empty(ring.stage), ring.phase ^ 1, p)) return;
    ring.advance();
  }
}

// The MMAs' completion on `bar`: in both CTAs of the pair, or in this CTA.
template <class Cfg>
BWGEMM_DEVICE void commit(ptx::Mbarrier* bar) {
  if constexpr (Cfg::kPair)
    ptx::umma_commit_2cta(bar, kBothCtas);
  else
    ptx::umma_commit_1cta(bar);
}

// The MMA thread (with the pair, the even CTA's): one kMmaRows x kBlockCols
// tile per scheduled tile over its `k_blocks` (> 0), alternating between the
// two TMEM accumulators.
template <class Cfg>
BWGEMM_DEVICE void issue_mma(const GemmParams& p, const SharedStorage<Cfg>& smem,
                             uint32_t tmem_base, int32_t k_blocks) {
  constexpr uint32_t kInstrDesc =
      make_instr_desc_f16(std::is_same_v<typename Cfg::AB, __nv_bfloat16>, Cfg::kRowMN, Cfg::kColMN,
                          Cfg::kMmaRows, Cfg::kBlockCols);
  PipelineState<Cfg::kStages> ring;
  PipelineState<Cfg::kAccumulators> acc_ring;
  for ([[maybe_unused]] const int64_t t : ClusterTiles<Cfg>(p.scheduler)) {
    // The epilogues (of both CTAs of the pair) must have drained this
    // accumulator.
    if (!wait_or_fail(smem.tmem_empty(acc_ring.stage), acc_ring.phase ^ 1, p)) return;
    ptx::tcgen05_fence_after_sync();
    const uint32_t d = tmem_base + acc_ring.stage * Cfg::kBlockCols;
    for (int32_t kb = 0; kb < k_blocks; ++kb) {
      if (!wait_or_fail(smem.full(ring.stage), ring.phase, p)) return;
      ptx::tcgen05_fence_after_sync();
      // This CTA's tiles; with the pair the hardware reads the peer's at the
      // same offsets.
      const uint64_t a = operand_desc<DescKind::Tcgen05, Cfg::kRowMN>(
          ptx::smem_address(smem.row_tile(ring.stage)), Cfg::kBoxBytes);
      const uint64_t b = operand_desc<DescKind::Tcgen05, Cfg::kColMN>(
          ptx::smem_address(smem.col_tile(ring.stage)), Cfg::kBoxBytes);
#pragma unroll
      for (int kk = 0; kk < Cfg::kBlockK / Cfg::kUmmaK; ++kk)
        ptx::umma_f16<Cfg::kCtaGroup>(d, advance_desc(a, kk * kK16Bytes<Cfg::kRowMN>),
                                      advance_desc(b, kk * kK16Bytes<Cfg::kColMN>), kInstrDesc,
                                      kb > 0 || kk > 0);
      // The stage is free (in both CTAs of the pair) once these MMAs completed.
      commit<Cfg>(smem.empty(ring.stage));
      ring.advance();
    }
    commit<Cfg>(smem.tmem_full(acc_ring.stage));
    acc_ring.advance();
  }
  // One more round: the epilogues have released every accumulator, so they
  // observed the last tmem_full commit and read TMEM for the last time, and
  // their arrivals on tmem_empty[] have all landed.
  for (int a = 0; a < Cfg::kAccumulators; ++a) {
    if (!wait_or_fail(smem.tmem_empty(acc_ring.stage), acc_ring.phase ^ 1, p)) return;
    acc_ring.advance();
  }
}

// This epilogue thread's TMEM address of accumulator column `column`: its
// warp's lane quarter, the row of the thread.
BWGEMM_DEVICE uint32_t tmem_row_address(uint32_t thread, uint32_t column) {
  return ((32 * (thread / 32)) << 16) + column;
}

// Split-K, a rank other than 0, once rank 0 has read the previous partial:
// its partial tile into its slot in rank 0 (distributed shared memory), then
// signalled there. Each thread writes its own row and arrives itself, so
// each release covers exactly its own stores. kLoad false: this rank ran no
// k block (its share is empty), so its partial is zeros.
template <class Cfg, bool kLoad>
BWGEMM_DEVICE void push_partial(const SharedStorage<Cfg>& smem, uint32_t rank,
                                uint32_t acc_column) {
  constexpr int kColumns = 32;  // one tcgen05.ld
  const uint32_t thread = ptx::thread_index() - kFirstEpilogueWarp * 32;
  float2* slot = ptx::cluster_peer_pointer(smem.reduce_slot(rank), 0);
  for (int c = 0; c < Cfg::kBlockCols / kColumns; ++c) {
    float v[kColumns];
    if constexpr (kLoad) {
      ptx::tmem_load_32x32b<kColumns>(tmem_row_address(thread, acc_column + c * kColumns), v);
      ptx::tmem_load_wait();
    } else {
#pragma unroll
      for (float& x : v) x = 0.0f;
    }
#pragma unroll
    for (int i = 0; i < kColumns / 2; ++i)
      slot[(c * kColumns / 2 + i) * 128 + thread] = make_float2(v[2 * i], v[2 * i + 1]);
  }
  ptx::mbarrier_arrive_cluster_release(smem.reduce_full(), 0);
}

// One CTA's 128 x kBlockCols block of a tile: TMEM (plus, with split-K, the
// other ranks' partials in rank order) -> alpha/beta/bias/activation/convert
// -> staging -> TMA store (epilogue_store.cuh). Form: epilogue_form.cuh.
// kLoad: the accumulator holds this CTA's product (false: it ran no k block,
// its part is zero).
template <class Cfg, class Form, bool kLoad>
BWGEMM_DEVICE void drain_tile(const GemmParams& p, const SharedStorage<Cfg>& smem,
                              const TilePlace& place, uint32_t acc_column, float alpha,
                              float beta) {
  using Out = typename Cfg::Out;
  constexpr int kValuesPer16B = 16 / int(sizeof(Out));
  const uint32_t thread = ptx::thread_index() - kFirstEpilogueWarp * 32;
  const int32_t row = place.row0 + int32_t(thread);
  Out* d = static_cast<Out*>(p.out) + place.batch * p.out_stride;
  const Out* c = static_cast<const Out*>(p.c_in) + place.batch * p.c_stride;
  if (place.row0 >= p.rows) return;  // uniform across the warpgroup

  // This thread's row of the chunk: TMEM lane `thread`, 128 bytes.
  const auto fill_chunk = [&](int chunk, int32_t col0, const auto& sink) {
    float v[Cfg::kChunkCols];
    if constexpr (kLoad) {
      ptx::tmem_load_32x32b<Cfg::kChunkCols>(
          tmem_row_address(thread, acc_column + chunk * Cfg::kChunkCols), v);
      ptx::tmem_load_wait();
    } else {
#pragma unroll
      for (float& x : v) x = 0.0f;
    }
    if constexpr (Cfg::kSplitK) {
      for (uint32_t r = 1; r < uint32_t(Cfg::kClusterSize); ++r) {
        const float2* partial = smem.reduce_slot(r) + chunk * (Cfg::kChunkCols / 2) * 128 + thread;
#pragma unroll
        for (int i = 0; i < Cfg::kChunkCols; i += 2) {
          const float2 w = partial[i / 2 * 128];
          v[i] += w.x;
          v[i + 1] += w.y;
        }
      }
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
    for (int q = 0; q < Cfg::kChunkCols / kValuesPer16B; ++q)
      sink.template put<kValuesPer16B>(thread, q * kValuesPer16B, &v[q * kValuesPer16B]);
  };
  epilogue::store_block_staged<Cfg, Cfg::kBlockRows, Form::kRotated>(
      p, d, place, place.row0, smem.staging(), thread, kEpilogueBarrier, fill_chunk);
}

// The epilogue warpgroup of each CTA, tile after tile, in the launch's
// epilogue form (epilogue_form.cuh). my_k_blocks: the k blocks this CTA's
// MMAs run for each tile (k_range).
template <class Cfg, class Form>
BWGEMM_DEVICE void drain(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                         uint32_t tmem_base, int32_t my_k_blocks, float alpha, float beta) {
  PipelineState<Cfg::kAccumulators> acc_ring;
  [[maybe_unused]] uint32_t reduce_phase = 0;
  for (const int64_t t : ClusterTiles<Cfg>(p.scheduler)) {
    const TilePlace place = place_tile<Cfg>(p, t, rank);
    const uint32_t acc = acc_ring.stage;
    const uint32_t acc_column = tmem_base + acc * Cfg::kBlockCols;
    const bool loaded = my_k_blocks > 0;
    if (loaded && !epilogue_wait(smem, smem.tmem_full(acc), acc_ring.phase, p)) break;
    if constexpr (Cfg::kSplitK) {
      // Rank 0 waits for the other ranks' partials, they for their slots to
      // be free.
      const uint32_t phase = reduce_phase;
      reduce_phase ^= 1;
      if (!epilogue_wait<ptx::AcquireScope::kCluster>(
              smem, rank == 0 ? smem.reduce_full() : smem.reduce_empty(),
              rank == 0 ? phase : phase ^ 1, p))
        break;
    }
    // TMEM is read after the last wait (PTX ISA 9.7.16.6.4).
    if (loaded) ptx::tcgen05_fence_after_sync();
    if (Cfg::kSplitK && rank != 0) {
      if (loaded)
        push_partial<Cfg, true>(smem, rank, acc_column);
      else
        push_partial<Cfg, false>(smem, rank, acc_column);
    } else {
      if (loaded)
        drain_tile<Cfg, Form, true>(p, smem, place, acc_column, alpha, beta);
      else
        drain_tile<Cfg, Form, false>(p, smem, place, acc_column, alpha, beta);
      // Split-K: the other ranks may fill their slots again.
      if constexpr (Cfg::kSplitK)
        for (uint32_t r = 1; r < uint32_t(Cfg::kClusterSize); ++r)
          ptx::mbarrier_arrive_cluster_release(smem.reduce_empty(), r);
    }
    if (loaded) {
      // Hand the accumulator back to the MMA thread.
      ptx::tcgen05_fence_before_sync();
      ptx::sync_warp();
      if (ptx::lane_index() == 0)
        ptx::mbarrier_arrive_cluster(smem.tmem_empty(acc), mma_cta<Cfg>(rank));
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
    const BarrierRing stages{smem.full(0), smem.empty(0), Cfg::kStages, 1, 1};
    const BarrierRing tmem{smem.tmem_full(0), smem.tmem_empty(0), Cfg::kAccumulators, 1,
                           Cfg::kTmemEmptyArrivals};
    if constexpr (Cfg::kSplitK)
      init_barrier_rings(stages, tmem,
                         BarrierRing{smem.reduce_full(), smem.reduce_empty(), 1,
                                     Cfg::kReduceFullArrivals, Cfg::kReduceEmptyArrivals});
    else
      init_barrier_rings(stages, tmem);
    prefetch_maps(p);
  }
  // The peers signal these barriers only after this, and the pair's TMEM
  // allocation needs both CTAs running.
  ptx::cluster_sync();
  if (role == Role::TmemAllocator) {
    ptx::tmem_alloc<Cfg::kCtaGroup>(smem.tmem_slot(), Cfg::kTmemColumns);
    ptx::tmem_relinquish<Cfg::kCtaGroup>();
  }
  // Publish the TMEM address (PTX ISA 9.7.16.6.4: fence, barrier, fence).
  ptx::tcgen05_fence_before_sync();
  ptx::named_barrier_sync(0, Cfg::kThreads);
  ptx::tcgen05_fence_after_sync();
  const uint32_t tmem_base = *smem.tmem_slot();

  const float alpha = p.stage.alpha.load();
  const float beta = p.stage.beta.load();
  const int32_t k_blocks = k_block_count<Cfg::kBlockK>(p.depth, alpha);
  // With the pair, what the even CTA's MMAs run; else this CTA's own.
  const int32_t my_k_blocks = k_range<Cfg>(k_blocks, rank).count;

  if (role == Role::Producer) {
    if (my_k_blocks > 0 && ptx::elect_one()) produce<Cfg>(p, smem, rank, k_blocks);
    ptx::sync_warp();
  } else if (role == Role::Mma) {
    if (my_k_blocks > 0 && rank == mma_cta<Cfg>(rank) && ptx::elect_one())
      issue_mma<Cfg>(p, smem, tmem_base, my_k_blocks);
    ptx::sync_warp();
  } else if (role == Role::Epilogue) {
    epilogue::with_form(p, beta, [&](auto form) {
      drain<Cfg, decltype(form)>(p, smem, rank, tmem_base, my_k_blocks, alpha, beta);
    });
  }
  // Teardown, in this order (as CUTLASS and DeepGEMM do it):
  //  1. each CTA's producer has observed the release of every stage it
  //     filled: no multicast commit targets its empty[] any more, and its
  //     TMA loads have landed (the MMAs that released them read them);
  //  2. each CTA's epilogue has observed the last tmem_full commit and its
  //     TMA stores have completed (with split-K, rank 0 has read the last
  //     partials and released their slots);
  //  3. each MMA thread has observed the epilogues release both
  //     accumulators: TMEM is read no more and no arrival is on its way;
  //  4. cluster barrier: no CTA passes before all finished 1-3;
  //  5. the allocating warps free TMEM (the pair's together);
  //  6. the CTAs exit; nothing targets any of them any more.
  // (PTX ISA 9.7.16.7.1 dealloc example: barrier, dealloc, exit.)
  ptx::tcgen05_fence_before_sync();
  ptx::cluster_sync();
  if (role == Role::TmemAllocator) ptx::tmem_dealloc<Cfg::kCtaGroup>(tmem_base, Cfg::kTmemColumns);
}

}  // namespace bwgemm::sm100
