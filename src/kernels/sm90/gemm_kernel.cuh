// SPDX-License-Identifier: MIT
// The sm90 GEMM: persistent, warp-specialized, clusters, TMA + wgmma.
//
//   producer warp --TMA--> stage s --full[s]--> consumer warpgroups (wgmma)
//        ^                                              |
//        +------------------ empty[s] <-----------------+  (every CTA the data lands in)
//
// A cluster computes one cluster tile of D (kernel view, kernel_view.h) at a
// time, in one of two modes (config.h):
//  - multicast: CTA r owns rows [kBlockRows r, kBlockRows (r + 1)) of the
//    tile, loads its own row operand and its share of the column block,
//    multicast to every CTA (a single CTA loads it all);
//  - split-K: every CTA computes the whole tile over its part of K; the other
//    ranks push their fp32 partial blocks into rank 0's shared memory, which
//    adds them in rank order (a fixed order: bitwise reproducible) and
//    stores D.
// Where the launch splits the last wave's tiles over K (Cfg::kSplitTiles,
// tile_split.h), a cluster's unit may be one piece of a tile: its consumers
// leave their partial blocks in the workspace, and the last piece to arrive
// adds them all and stores D (tile_split.cuh).
// Consumers hold the accumulators in registers, stage their block of D in
// 128B-swizzled chunks, issue one TMA store per chunk and start the next tile
// while the stores drain (the producer has already loaded its first stages).
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
#include "kernels/common/tile_split.cuh"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/fence.cuh"
#include "kernels/ptx/grid_dependency.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/tma.cuh"
#include "kernels/ptx/warp.cuh"
#include "kernels/ptx/wgmma.cuh"
#include "kernels/sm90/config.h"

namespace bwgemm::sm90 {

// Warp roles: warpgroup 0 produces (warp 0 issues the TMA loads; where the
// configuration has row windows all four warps shift them into the stages,
// else the other three only give their registers away); every other
// warpgroup is a consumer that runs the wgmma mainloop and the epilogue of
// its 64 rows.
enum class Role { Producer, Math };

BWGEMM_DEVICE Role role_of(uint32_t warp) { return warp / 4 == 0 ? Role::Producer : Role::Math; }

// Stages and barriers as both families lay them out, a staging buffer per
// consumer, and for split-K the partial-block slots and their barriers.
template <class Cfg>
struct SharedStorage : StageStorage<Cfg> {
  BWGEMM_DEVICE uint8_t* consumer_staging(uint32_t consumer) const {
    return this->staging() + consumer * Cfg::kStagingBytes;
  }
  // Rank 0's slot for the partial block of `consumer` in rank `rank` (>= 1).
  BWGEMM_DEVICE float2* reduce_slot(uint32_t rank, uint32_t consumer) const {
    return reinterpret_cast<float2*>(this->base + Cfg::kReduceOffset +
                                     ((rank - 1) * Cfg::kConsumers + consumer) *
                                         Cfg::kReduceSlotBytes);
  }
  // reduce_full (rank 0): the other ranks' partials of `consumer` have landed;
  // reduce_empty (other ranks): rank 0 has read them.
  BWGEMM_DEVICE ptx::Mbarrier* reduce_full(uint32_t consumer) const {
    return this->after_stage_barriers() + consumer;
  }
  BWGEMM_DEVICE ptx::Mbarrier* reduce_empty(uint32_t consumer) const {
    return this->after_stage_barriers() + Cfg::kConsumers + consumer;
  }
  // Row windows: window i, landed (window_full) and shifted out (window_empty).
  BWGEMM_DEVICE uint8_t* window(uint32_t i) const {
    return this->base + Cfg::kWindowOffset + i * Cfg::kWindowBytes;
  }
  BWGEMM_DEVICE ptx::Mbarrier* window_full(uint32_t i) const {
    return this->after_stage_barriers() + i;  // no split-K barriers (config.h)
  }
  BWGEMM_DEVICE ptx::Mbarrier* window_empty(uint32_t i) const {
    return window_full(Cfg::kRowWindows) + i;
  }
};

// A row window of k block k0 (gemm_params.h): class c's box, k = k0 + c + 8i
// for i < 8, the CTA's rows from row0 - shift on.
template <class Cfg>
BWGEMM_DEVICE void load_window(const GemmParams& p, uint8_t* window, ptx::Mbarrier* landed,
                               int32_t row0, int32_t k0) {
  for (int c = 0; c < kRowClasses; ++c)
    ptx::tma_load_3d(window + c * Cfg::kWindowClassBytes, &p.classes.row_map[c], landed, row0,
                     k0 / kRowClasses, 0);
}

// The TMA warp: one elected thread (`leader`) fills the ring for every tile
// of this cluster, in the same order the consumers drain it, and calls
// after_block() once each k block's loads are issued. With row windows it
// fills the windows' ring (one window per k block) for the shifter warps,
// and the stages only with the column operand; the whole warp runs it then,
// shifting a share of each window between loads (the kernel's body). With
// register windows a stage holds its window, and the column operand's map
// (launch_params.cpp) is (M/N, k / 8, k % 8): a k block's rows in the
// windows' order.
template <class Cfg, class AfterBlock>
BWGEMM_DEVICE void produce(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                           int32_t k_blocks, bool leader, AfterBlock&& after_block) {
  constexpr uint16_t kAllCtas = (1u << Cfg::kClusterSize) - 1;
  constexpr uint32_t kTmaBytes = Cfg::kRowWindows > 0    ? Cfg::kColTileBytes
                                 : Cfg::kRegisterWindows ? Cfg::kWindowBytes + Cfg::kColTileBytes
                                                         : Cfg::kStageBytes;
  PipelineState<Cfg::kStages> ring;
  [[maybe_unused]] PipelineState<Cfg::kRowWindows> windows;
  for (const int64_t u : ClusterTiles<Cfg>(p.scheduler)) {
    const TilePlace place = place_tile<Cfg>(p, u, rank);
    const KRange ks = k_range<Cfg>(k_blocks, rank, place.piece, place.pieces);
    const uint32_t share = Cfg::kMulticast ? rank : 0;
    const int32_t share0 = place.col0 + int32_t(share) * Cfg::kLoadedCols;
    for (int32_t kb = ks.begin; kb < ks.begin + ks.count; ++kb) {
      const int32_t k0 = kb * Cfg::kBlockK;
      if constexpr (Cfg::kRowWindows > 0) {
        ptx::mbarrier_wait(smem.window_empty(windows.stage), windows.phase ^ 1);
        ptx::Mbarrier* landed = smem.window_full(windows.stage);
        if (leader) {
          ptx::mbarrier_arrive_expect_tx(landed, Cfg::kWindowBytes);
          load_window<Cfg>(p, smem.window(windows.stage), landed, place.row0, k0);
        }
        windows.advance();
      }
      ptx::Mbarrier* full = smem.full(ring.stage);
      // Wait until every CTA's consumers released the stage, then load it:
      // this CTA's rows, and its share of the columns (into every CTA).
      ptx::mbarrier_wait(smem.empty(ring.stage), ring.phase ^ 1);
      if (leader) {
        ptx::mbarrier_arrive_expect_tx(full, kTmaBytes);
        if constexpr (Cfg::kRegisterWindows)
          load_window<Cfg>(p, smem.row_tile(ring.stage), full, place.row0, k0);
        else if constexpr (Cfg::kRowWindows == 0)
          load_operand<Cfg, Cfg::kRowMN, Cfg::kLoadedRows>(
              smem.row_tile(ring.stage), 0, place.row0, k0, [&](void* dst, int32_t c0, int32_t c1) {
                ptx::tma_load_3d(dst, place.row_map, full, c0, c1, place.row_plane);
              });
        load_operand<Cfg, Cfg::kColMN, Cfg::kLoadedCols>(
            smem.col_tile(ring.stage), share, share0, k0 - place.col_k_offset,
            [&](void* dst, int32_t c0, int32_t c1) {
              // Register windows: (M/N, k / 8, class 0 on); one matrix.
              const int32_t c2 = Cfg::kRegisterWindows ? 0 : place.col_plane;
              if constexpr (Cfg::kRegisterWindows) c1 /= kRowClasses;
              if constexpr (Cfg::kMulticast)
                ptx::tma_load_3d_multicast(dst, &p.col.map, full, kAllCtas, c0, c1, c2);
              else
                ptx::tma_load_3d(dst, &p.col.map, full, c0, c1, c2);
            });
      }
      ring.advance();
      after_block();
    }
  }
}

// Row windows: one window's rows into the stage's row tile, the classes
// c = shifter, shifter + kShifterWarps, ... of it. Row kk = c + 8i of the k
// block (row i of class c's box) starts `shift` elements into its window
// row. Lane l writes the row's 32-bit words l and l + 32 (in the tile's two
// 64-row boxes: 128 bytes a row, 16-byte chunks swizzled by kk % 8 = c) from
// window words l + shift / 2 and, where the shift is odd, the next one,
// shifted by one element (the high half of one joined to the low half of the
// next; an even shift reads one word per word written). Consecutive lanes read and write
// consecutive words (of a swizzled row): no bank conflicts. A class's rows go kBatch at a time, all
// loads before the stores (the compiler cannot tell the two apart, and would
// wait out each load's latency in turn).
template <class Cfg, bool kOdd>
BWGEMM_DEVICE void shift_class(const uint32_t* src, uint8_t* dst) {
  constexpr int kRowsPerClass = Cfg::kBlockK / kRowClasses;
  constexpr int kBatch = 4;  // up to 16 words in flight: the producers' registers allow it
  constexpr int kWords = kOdd ? 2 : 1;
  static_assert(kRowsPerClass % kBatch == 0);
#pragma unroll
  for (int i0 = 0; i0 < kRowsPerClass; i0 += kBatch) {
    uint32_t words[kBatch][2][kWords];
#pragma unroll
    for (int i = 0; i < kBatch; ++i)
#pragma unroll
      for (int box = 0; box < 2; ++box)
#pragma unroll
        for (int w = 0; w < kWords; ++w)
          words[i][box][w] = src[(i0 + i) * Cfg::kWindowRowBytes / 4 + 32 * box + w];
#pragma unroll
    for (int i = 0; i < kBatch; ++i)
#pragma unroll
      for (int box = 0; box < 2; ++box) {
        uint32_t word = words[i][box][0];
        if constexpr (kOdd) word = word >> 16 | words[i][box][1] << 16;
        *reinterpret_cast<uint32_t*>(dst + (i0 + i) * kRowClasses * 128 + box * Cfg::kBoxBytes) =
            word;
      }
  }
}

template <class Cfg>
BWGEMM_DEVICE void shift_window(const uint8_t* window, uint8_t* rows, uint32_t shifts,
                                uint32_t shifter) {
  static_assert(Cfg::kRowMN, "row windows hold an M/N-major row operand");
  static_assert(Cfg::kBlockRows == 2 * Cfg::kMNBox, "two words of a row per lane");
  const uint32_t lane = ptx::lane_index();
  for (uint32_t c = shifter; c < uint32_t(kRowClasses); c += Cfg::kShifterWarps) {
    const uint32_t shift = (shifts >> (4 * c)) & 0xF;
    const auto* src =
        reinterpret_cast<const uint32_t*>(window + c * Cfg::kWindowClassBytes) + shift / 2 + lane;
    uint8_t* dst = rows + c * 128 + ((lane / 4) ^ c) * 16 + lane % 4 * 4;
    if (shift % 2 != 0)  // the same in every lane
      shift_class<Cfg, true>(src, dst);
    else
      shift_class<Cfg, false>(src, dst);
  }
}

// One shifter warp's share of the windows: every window the TMA warp
// fetches, in its order, into the stage the consumers read next (step()
// shifts the next one). The shifts of the 8 classes (0..7 elements) travel
// packed 4 bits each.
template <class Cfg>
struct WindowShifter {
  uint32_t shifts = 0, shifter;
  PipelineState<Cfg::kStages> ring;
  PipelineState<Cfg::kRowWindows> windows;

  BWGEMM_DEVICE WindowShifter(const GemmParams& p, uint32_t warp) : shifter(warp) {
#pragma unroll
    for (int c = 0; c < kRowClasses; ++c) shifts |= uint32_t(p.classes.shift[c]) << (4 * c);
  }

  BWGEMM_DEVICE void step(const SharedStorage<Cfg>& smem) {
    ptx::mbarrier_wait(smem.window_full(windows.stage), windows.phase);
    ptx::mbarrier_wait(smem.empty(ring.stage), ring.phase ^ 1);
    shift_window<Cfg>(smem.window(windows.stage), smem.row_tile(ring.stage), shifts, shifter);
    // wgmma (the async proxy) reads what the lanes wrote, and the next
    // window's TMA overwrites what they read.
    ptx::fence_proxy_async_smem();
    ptx::sync_warp();
    if (ptx::lane_index() == 0) {
      ptx::mbarrier_arrive(smem.window_empty(windows.stage));
      ptx::mbarrier_arrive(smem.full(ring.stage));
    }
    windows.advance();
    ring.advance();
  }
};

template <class Cfg>
BWGEMM_DEVICE void release_stage(const SharedStorage<Cfg>& smem, uint32_t stage, uint32_t rank) {
  if (ptx::lane_index() == 0) {
    ptx::mbarrier_arrive(smem.empty(stage));
    if constexpr (Cfg::kMulticast) ptx::mbarrier_arrive_cluster(smem.empty(stage), rank ^ 1);
  }
}

// A kRowOperand row class (gemm_params.h): the first `count` elements of
// each of this consumer's rows in the first k block precede the row (the
// previous line's tail, even NaN), against zeros of the column operand;
// 0 * NaN is NaN, so they are zeroed. K-major rows: elements 0..7 are the
// row's 16-byte chunk 0, at chunk (row % 8) under the 128B swizzle.
template <class Cfg>
BWGEMM_DEVICE void zero_row_heads(uint8_t* rows, int32_t count, uint32_t barrier_id) {
  static_assert(!Cfg::kRowMN, "row classes read K-major row operands only");
  const uint32_t row = ptx::thread_index() % 128;
  if (row < 64) {
    auto* head = reinterpret_cast<uint16_t*>(rows + row * 128 + (row % 8) * 16);
    for (int32_t i = 0; i < count; ++i) head[i] = 0;
  }
  // wgmma (the async proxy) reads what the threads wrote.
  ptx::fence_proxy_async_smem();
  ptx::named_barrier_sync(barrier_id, 128);
}

// Register windows (config.h): this thread's wgmma A fragments of a k block,
// loaded from the stage's window. The fragment of k step kk holds rows
// r = 16 warp + lane / 4 and r + 8 at k slots 16kk + 2t, +1, +8, +9 (t = lane
// % 4); the column tile holds slot 8c + i as k = c + 8i, class c's window row
// i. So registers 0 and 1 join rows 2t and 2t + 1 of class 2kk (at r and
// r + 8), registers 2 and 3 those of class 2kk + 1. A warp's load reads four
// rows of one class 2 rows (8 banks) apart: no bank conflicts.
template <class Cfg>
struct WindowFragments {
  static constexpr int kSteps = Cfg::kBlockK / 16;
  // This thread's element (row r of its window row 2t) of each class.
  uint32_t offset[kRowClasses];

  BWGEMM_DEVICE WindowFragments(const GemmParams& p, uint32_t consumer) {
    const uint32_t thread = ptx::thread_index() % 128, lane = thread % 32;
    const uint32_t r = consumer * 64 + 16 * (thread / 32) + lane / 4;
#pragma unroll
    for (int c = 0; c < kRowClasses; ++c)
      offset[c] = c * Cfg::kWindowClassBytes + 2 * (lane % 4) * Cfg::kWindowRowBytes +
                  2 * (uint32_t(p.classes.shift[c]) + r);
  }

  BWGEMM_DEVICE static uint32_t join(const uint8_t* lo, const uint8_t* hi) {
    return uint32_t(*reinterpret_cast<const uint16_t*>(lo)) |
           uint32_t(*reinterpret_cast<const uint16_t*>(hi)) << 16;
  }

  BWGEMM_DEVICE void load(const uint8_t* window, uint32_t (&a)[kSteps][4]) const {
#pragma unroll
    for (int kk = 0; kk < kSteps; ++kk)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const uint8_t* e = window + offset[2 * kk + h];
        a[kk][2 * h] = join(e, e + Cfg::kWindowRowBytes);
        a[kk][2 * h + 1] = join(e + 16, e + Cfg::kWindowRowBytes + 16);
      }
  }
};

// Where a consumer's wgmma A comes from, one k block at a time: prepare()
// once the stage is full, then a[kk] for each k step of 16. kInFlight: the
// wgmma groups a k block may leave running when the next one starts.
//
// SharedA: this consumer's 64 rows of the stage's row tile, by descriptor;
// a group stays in flight, so its stage is released one k block later.
template <class Cfg>
struct SharedA {
  static constexpr int kInFlight = 1;
  uint32_t consumer;
  int32_t head_zeros;  // elements of each row to zero in the first k block
  uint64_t desc = 0;

  // first_block: the unit's k blocks start at the tile's first.
  BWGEMM_DEVICE SharedA(const GemmParams&, uint32_t consumer_, const TilePlace& place,
                        bool first_block)
      : consumer(consumer_), head_zeros(first_block ? place.col_k_offset : 0) {}

  BWGEMM_DEVICE void prepare(const SharedStorage<Cfg>& smem, uint32_t stage, int32_t kb) {
    const uint32_t half = consumer * (Cfg::kRowTileBytes / 2);
    if constexpr (!Cfg::kRowMN && !Cfg::kSplitK) {
      if (kb == 0 && head_zeros > 0)
        zero_row_heads<Cfg>(smem.row_tile(stage) + half, head_zeros, 1 + consumer);
    }
    desc = operand_desc<DescKind::Wgmma, Cfg::kRowMN>(
        ptx::smem_address(smem.row_tile(stage)) + half, Cfg::kBoxBytes);
  }
  BWGEMM_DEVICE uint64_t operator[](int kk) const {
    return advance_desc(desc, kk * kK16Bytes<Cfg::kRowMN>);
  }
};

// RegisterA: the fragments loaded from the register windows. wgmma reads
// them until it completes, and ptxas serializes a wgmma in flight while its
// warpgroup writes A registers, so each k block waits for its own wgmmas; the
// other consumer's keep the tensor cores busy meanwhile.
template <class Cfg>
struct RegisterA {
  static constexpr int kInFlight = 0;
  WindowFragments<Cfg> fragments;
  uint32_t a[WindowFragments<Cfg>::kSteps][4];

  BWGEMM_DEVICE RegisterA(const GemmParams& p, uint32_t consumer, const TilePlace&, bool)
      : fragments(p, consumer) {}

  BWGEMM_DEVICE void prepare(const SharedStorage<Cfg>& smem, uint32_t stage, int32_t) {
    fragments.load(smem.row_tile(stage), a);
  }
  BWGEMM_DEVICE const uint32_t (&operator[](int kk) const)[4] { return a[kk]; }
};

// One tile's k-loop: acc = U[rows of this consumer] * V over `k_blocks`
// k blocks, U from `rows` (SharedA or RegisterA).
template <class Cfg, class Mma, class RowSource>
BWGEMM_DEVICE void mainloop(const SharedStorage<Cfg>& smem, PipelineState<Cfg::kStages>& ring,
                            uint32_t rank, int32_t k_blocks, RowSource& rows,
                            float (&acc)[Mma::kAccumulators]) {
  static_assert(RowSource::kInFlight == 0 || RowSource::kInFlight == 1, "one group at most");
  uint32_t previous = 0;
  for (int32_t kb = 0; kb < k_blocks; ++kb) {
    ptx::mbarrier_wait(smem.full(ring.stage), ring.phase);
    rows.prepare(smem, ring.stage, kb);
    // All of the column tile.
    const uint64_t b = operand_desc<DescKind::Wgmma, Cfg::kColMN>(
        ptx::smem_address(smem.col_tile(ring.stage)), Cfg::kBoxBytes);
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < Cfg::kBlockK / 16; ++kk)
      Mma::mma(acc, rows[kk], advance_desc(b, kk * kK16Bytes<Cfg::kColMN>), kb > 0 || kk > 0);
    ptx::wgmma_commit();
    // The stage kInFlight k blocks back is read by no wgmma still running.
    ptx::wgmma_wait<RowSource::kInFlight>();
    if constexpr (RowSource::kInFlight == 0) {
      release_stage(smem, ring.stage, rank);
    } else {
      if (kb > 0) release_stage(smem, previous, rank);
      previous = ring.stage;
    }
    ring.advance();
  }
  if constexpr (RowSource::kInFlight == 1) {
    ptx::wgmma_wait<0>();
    release_stage(smem, previous, rank);
  }
}

// Split-K, a rank other than 0: pushes this consumer's partial block into its
// slot in rank 0 (distributed shared memory) once rank 0 has read the
// previous one, then signals it. Every thread writes its own accumulators and
// arrives itself, so each release covers exactly its own stores.
template <class Cfg, int kAccumulators>
BWGEMM_DEVICE void push_partial(const SharedStorage<Cfg>& smem, uint32_t rank, uint32_t consumer,
                                uint32_t phase, const float (&acc)[kAccumulators]) {
  const uint32_t thread = ptx::thread_index() % 128;
  ptx::mbarrier_wait<ptx::AcquireScope::kCluster>(smem.reduce_empty(consumer), phase ^ 1);
  float2* slot = ptx::cluster_peer_pointer(smem.reduce_slot(rank, consumer), 0);
#pragma unroll
  for (int i = 0; i < kAccumulators / 2; ++i)
    slot[i * 128 + thread] = make_float2(acc[2 * i], acc[2 * i + 1]);
  ptx::mbarrier_arrive_cluster_release(smem.reduce_full(consumer), 0);
}

// Split-K, rank 0: adds the other ranks' partial blocks to its own in rank
// order, then lets each rank reuse its slot.
template <class Cfg, int kAccumulators>
BWGEMM_DEVICE void add_partials(const SharedStorage<Cfg>& smem, uint32_t consumer, uint32_t phase,
                                float (&acc)[kAccumulators]) {
  const uint32_t thread = ptx::thread_index() % 128;
  ptx::mbarrier_wait<ptx::AcquireScope::kCluster>(smem.reduce_full(consumer), phase);
  for (uint32_t r = 1; r < uint32_t(Cfg::kClusterSize); ++r) {
    const float2* slot = smem.reduce_slot(r, consumer);
#pragma unroll
    for (int i = 0; i < kAccumulators / 2; ++i) {
      const float2 v = slot[i * 128 + thread];
      acc[2 * i] += v.x;
      acc[2 * i + 1] += v.y;
    }
  }
  for (uint32_t r = 1; r < uint32_t(Cfg::kClusterSize); ++r)
    ptx::mbarrier_arrive_cluster_release(smem.reduce_empty(consumer), r);
}

// alpha/beta, bias and activation, conversion and the store of one
// consumer's 64 x 256 block
// (epilogue_store.cuh): the consumer moves on while the stores drain.
// Form (epilogue_form.cuh): each case is its own code, so that the common
// one (beta == 0, no bias or activation, TMA stores) runs no branch and no
// bounds check per element.
template <class Cfg, class Mma, class Form>
BWGEMM_DEVICE void epilogue_tile(const GemmParams& p, const SharedStorage<Cfg>& smem,
                                 const TilePlace& place, uint32_t consumer, float alpha, float beta,
                                 float (&acc)[Mma::kAccumulators]) {
  using Out = typename Cfg::Out;
  using Traits = epilogue::OutTraits<Out>;
  constexpr int kBlocksPerChunk = Cfg::kChunkCols / 8;
  const uint32_t thread = ptx::thread_index() % 128;
  const uint32_t warp = thread / 32, lane = thread % 32;
  const int32_t row0 = place.row0 + int32_t(consumer) * 64;
  if (row0 >= place.rows) return;  // uniform across the warpgroup
  // This thread's two rows within the 64-row block, and its column pair.
  const uint32_t ra = 16 * warp + lane / 4, rb = ra + 8;
  const uint32_t pair_col = 2 * (lane % 4);
  Out* d = static_cast<Out*>(p.out) + place.batch * p.out_stride;
  const Out* c = static_cast<const Out*>(p.c_in) + place.batch * p.c_stride;

  // The wgmma accumulator fragments of one chunk: 8-column blocks of this
  // thread's column pair in rows ra and rb.
  const auto fill_chunk = [&](int chunk, int32_t col0, const auto& sink) {
    // beta != 0: a chunk wholly inside D reads C without per-element bounds
    // checks, through this thread's two row pointers.
    [[maybe_unused]] const bool interior =
        row0 + 64 <= place.rows && col0 >= 0 && col0 + Cfg::kChunkCols <= p.cols;
    [[maybe_unused]] const Out* c_ra = c + int64_t(row0 + int32_t(ra)) * p.c_ld + col0 + pair_col;
    [[maybe_unused]] const Out* c_rb = c_ra + 8 * p.c_ld;
#pragma unroll
    for (int jj = 0; jj < kBlocksPerChunk; ++jj) {
      const int j = chunk * kBlocksPerChunk + jj;
      const uint32_t col = 8 * jj + pair_col;
      float v0 = alpha * acc[4 * j], v1 = alpha * acc[4 * j + 1];
      float v2 = alpha * acc[4 * j + 2], v3 = alpha * acc[4 * j + 3];
      if constexpr (Form::kReadC) {
        if (interior) {
          v0 += beta * Traits::to_float(c_ra[8 * jj]);
          v1 += beta * Traits::to_float(c_ra[8 * jj + 1]);
          v2 += beta * Traits::to_float(c_rb[8 * jj]);
          v3 += beta * Traits::to_float(c_rb[8 * jj + 1]);
        } else {
          epilogue::add_scaled_pair(&v0, &v1, beta, c, p.c_ld, row0 + int32_t(ra),
                                    col0 + int32_t(col), place.rows, p.cols);
          epilogue::add_scaled_pair(&v2, &v3, beta, c, p.c_ld, row0 + int32_t(rb),
                                    col0 + int32_t(col), place.rows, p.cols);
        }
      }
      epilogue::finish_pair<Form::kStage>(p, place.batch, col0 + int32_t(col), &v0, &v1);
      epilogue::finish_pair<Form::kStage>(p, place.batch, col0 + int32_t(col), &v2, &v3);
      const float pair_a[2] = {v0, v1}, pair_b[2] = {v2, v3};
      sink.template put<2>(ra, col, pair_a);
      sink.template put<2>(rb, col, pair_b);
    }
  };
  // Named barrier 0 is the CTA-wide one.
  epilogue::store_block_staged<Cfg, 64, Form::kRotated>(
      p, d, place, row0, smem.consumer_staging(consumer), thread, 1 + consumer, fill_chunk);
}

// Form: the launch's epilogue form (epilogue_form.cuh); each form has a loop
// of its own, so that only its epilogue's code and registers are in it.
template <class Cfg, class Form>
BWGEMM_DEVICE void consume(const GemmParams& p, const SharedStorage<Cfg>& smem, uint32_t rank,
                           uint32_t consumer, int32_t k_blocks, float alpha, float beta) {
  using AB =
      std::conditional_t<std::is_same_v<typename Cfg::AB, __half>, ptx::Half16, ptx::BFloat16>;
  using Mma = std::conditional_t<Cfg::kRegisterWindows,
                                 ptx::WgmmaFromRegisters<Cfg::kBlockCols, AB, Cfg::kColMN>,
                                 ptx::Wgmma<Cfg::kBlockCols, AB, Cfg::kRowMN, Cfg::kColMN>>;
  using RowSource = std::conditional_t<Cfg::kRegisterWindows, RegisterA<Cfg>, SharedA<Cfg>>;
  static_assert(!Cfg::kRegisterWindows || (Cfg::kRowMN && Cfg::kColMN),
                "register windows: M/N-major operands");
  float acc[Mma::kAccumulators];
  PipelineState<Cfg::kStages> ring;
  uint32_t reduce_phase = 0;
  for (const int64_t u : ClusterTiles<Cfg>(p.scheduler)) {
    const TilePlace place = place_tile<Cfg>(p, u, rank);
    const KRange ks = k_range<Cfg>(k_blocks, rank, place.piece, place.pieces);
    // Zeroing ends the previous tile's accumulators' lifetime (wgmma's asm
    // operands are read-write), so the epilogue can reuse their registers.
#pragma unroll
    for (float& v : acc) v = 0.0f;
    if (ks.count > 0) {
      RowSource rows(p, consumer, place, ks.begin == 0);
      mainloop<Cfg, Mma>(smem, ring, rank, ks.count, rows, acc);
    }
    if constexpr (Cfg::kSplitK) {
      const uint32_t phase = reduce_phase;
      reduce_phase ^= 1;
      if (rank != 0) {
        push_partial<Cfg>(smem, rank, consumer, phase, acc);
        continue;
      }
      add_partials<Cfg>(smem, consumer, phase, acc);
    }
    if constexpr (Cfg::kSplitTiles) {
      const int64_t block =
          (place.split_tile * Cfg::kClusterSize + rank) * Cfg::kConsumers + consumer;
      if (place.pieces > 1 &&
          !gather_pieces(p.split, block, place.piece, place.pieces, 1 + consumer, acc))
        continue;
    }
    epilogue_tile<Cfg, Mma, Form>(p, smem, place, consumer, alpha, beta, acc);
  }
  // Stores must complete before the CTA (and its shared memory) goes away;
  // each thread waits for the bulk groups it committed.
  ptx::tma_store_wait<0>();
}

template <class Cfg>
BWGEMM_DEVICE void gemm_kernel_body(const GemmParams& p) {
  const SharedStorage<Cfg> smem{{ptx::dynamic_smem()}};
  const uint32_t warp = ptx::warp_index();
  const uint32_t rank = ptx::cluster_cta_rank();

  if (ptx::thread_index() == 0) {
    const BarrierRing stages{smem.full(0), smem.empty(0), Cfg::kStages, Cfg::kFullArrivals,
                             Cfg::kEmptyArrivals};
    if constexpr (Cfg::kSplitK)
      init_barrier_rings(stages,
                         BarrierRing{smem.reduce_full(0), smem.reduce_empty(0), Cfg::kConsumers,
                                     Cfg::kReduceFullArrivals, Cfg::kReduceEmptyArrivals});
    else if constexpr (Cfg::kRowWindows > 0)
      init_barrier_rings(stages, BarrierRing{smem.window_full(0), smem.window_empty(0),
                                             Cfg::kRowWindows, 1, Cfg::kShifterWarps});
    else
      init_barrier_rings(stages);
    prefetch_maps(p);
  }
  // The peers may arrive on, and load or store into, this CTA only after this.
  ptx::cluster_sync();
  // Where launched as a programmatic dependent (config.h,
  // core/launch_order.h), everything above overlapped the previous grid; the
  // scalars, operands and D are touched only after it has completed (at once
  // when launched plainly). The next grid may then be scheduled on SMs as
  // this grid's CTAs leave them.
  ptx::grid_dependency_wait();
  ptx::grid_dependents_launch();

  const float alpha = p.stage.alpha.load();
  const float beta = p.stage.beta.load();
  const int32_t k_blocks = k_block_count<Cfg::kBlockK>(p.depth, alpha);

  if (role_of(warp) == Role::Producer) {
    ptx::decrease_registers<Cfg::kProducerRegisters>();
    if constexpr (Cfg::kRowWindows > 0) {
      // Every producer warp shifts a share of each window; the TMA warp's
      // runs one window behind its loads, so that it never waits on a
      // window it has just asked for.
      WindowShifter<Cfg> shifter(p, warp);
      if (warp == 0) {
        bool behind = false;
        produce<Cfg>(p, smem, rank, k_blocks, ptx::elect_one(), [&] {
          if (behind) shifter.step(smem);
          behind = true;
        });
        if (behind) shifter.step(smem);
      } else {
        // Every unit a whole tile (config.h: no split tiles with row windows).
        for ([[maybe_unused]] const int64_t u : ClusterTiles<Cfg>(p.scheduler))
          for (int32_t kb = 0; kb < k_blocks; ++kb) shifter.step(smem);
      }
    } else if (warp == 0 && ptx::elect_one()) {
      produce<Cfg>(p, smem, rank, k_blocks, true, [] {});
    }
    ptx::sync_warp();
  } else {
    ptx::increase_registers<Cfg::kConsumerRegisters>();
    epilogue::with_form(p, beta, [&](auto form) {
      consume<Cfg, decltype(form)>(p, smem, rank, warp / 4 - 1, k_blocks, alpha, beta);
    });
  }
  // No CTA leaves while a peer may still arrive on, or load or store into, it.
  ptx::cluster_sync();
}

}  // namespace bwgemm::sm90
