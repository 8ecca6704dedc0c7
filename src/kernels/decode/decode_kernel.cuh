// SPDX-License-Identifier: MIT
// The decode kernel: D = epilogue(alpha * x W^T + beta * C) for a weight W
// (the view's columns, K-contiguous or contiguous along its rows) read once
// from memory and up to 32 tokens x (the view's rows, K-contiguous): cuBLAS's
// TN or NN GEMM of an LLM's decode step. Memory-bound, so no shared-memory
// staging and no TMA: every lane loads 16 bytes of weight and tokens straight
// into registers and feeds mma.sync. A token lane's 8 consecutive k fill the k
// slots its fragments own in two m16n8k16 steps; the weight's fragments give
// the same k the same slots, and a dot product does not depend on the order
// of its k.
#pragma once

#include <type_traits>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/epilogue_ops.cuh"
#include "kernels/decode/config.h"
#include "kernels/decode/params.h"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/grid_dependency.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/mma_sync.cuh"

namespace bwgemm::decode {

template <class Cfg>
using Accumulators = float[Cfg::kWeightBlocks][Cfg::kTokenBlocks][4];

// The A fragments of one mma of a 32-k half: [weight block][register]
// (ptx::mma_m16n8k16's a). The tokens' fragments of mma 0 of a half are the
// x and y registers of lane q's 16-byte load of k 8q..8q+7 of the half, those
// of mma 1 its z and w; a weight layout gives the same k the same slots.
template <class Cfg>
using WeightFragments = uint32_t[Cfg::kWeightBlocks][4];

BWGEMM_DEVICE uint32_t word(const uint4& v, int i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

// A K-contiguous weight (cuBLAS TN): lane g * 4 + q loads k 8q..8q+7 of each
// 32-k half of rows g and g + 8 of each block, its fragments as they are.
template <class Cfg>
struct KMajorWeight {
  using AB = typename Cfg::AB;
  static constexpr int kWB = Cfg::kWeightBlocks;
  static constexpr int kHalves = Cfg::kBlockRows / 8;  // rows g and g + 8, or g only
  static constexpr int kLoads = kWB * kHalves * 2;     // [block][row g / g + 8][k half]

  const AB* row[kWB][kHalves];
  bool in[kWB][kHalves];
  int32_t depth;
  int lane_k;

  BWGEMM_DEVICE KMajorWeight(const DecodeParams& p, const AB* weight, int64_t col0, int g, int q)
      : depth(p.depth), lane_k(8 * q) {
#pragma unroll
    for (int wb = 0; wb < kWB; ++wb)
#pragma unroll
      for (int h = 0; h < kHalves; ++h) {
        const int64_t col = col0 + Cfg::kBlockRows * wb + 8 * h + g;
        in[wb][h] = col < p.cols;
        row[wb][h] = weight + (in[wb][h] ? col : 0) * p.weight_ld + lane_k;
      }
  }

  // K past the weight reads as zeros (depth % 8 == 0: a lane's 8 k are all
  // inside or all outside).
  BWGEMM_DEVICE void load(int64_t k0, uint4 (&w)[kLoads]) const {
#pragma unroll
    for (int kh = 0; kh < 2; ++kh) {
      const int64_t k = k0 + 32 * kh;
      const bool k_in = k + lane_k < depth;
#pragma unroll
      for (int wb = 0; wb < kWB; ++wb)
#pragma unroll
        for (int h = 0; h < kHalves; ++h)
          w[(wb * kHalves + h) * 2 + kh] =
              k_in && in[wb][h] ? ptx::load_streamed_16(row[wb][h] + k) : uint4{};
    }
  }

  BWGEMM_DEVICE static void fragments(const uint4 (&w)[kLoads], int kh, int m,
                                      WeightFragments<Cfg>& a) {
#pragma unroll
    for (int wb = 0; wb < kWB; ++wb)
#pragma unroll
      for (int r = 0; r < 4; ++r)  // r % 2: rows g + 8, zeros in an 8-row block
        a[wb][r] = r % 2 < kHalves ? word(w[(wb * kHalves + r % 2) * 2 + kh], 2 * m + r / 2) : 0u;
  }

  // Weight row `cl` of the CTA: its block and row (0..15, 0..7 in an 8-row
  // block) in the fragments.
  BWGEMM_DEVICE static void fragment_row(int cl, int& wb, int& row) {
    wb = cl / Cfg::kBlockRows;
    row = cl % Cfg::kBlockRows;
  }

  // The first `k` (a multiple of 8) of the CTA's rows into L2, a row a
  // thread: each row's start is one contiguous range.
  BWGEMM_DEVICE static void prefetch(const DecodeParams& p, const AB* weight, int64_t col0,
                                     int32_t k, int thread) {
    const int64_t col = col0 + thread;
    if (thread < Cfg::kCtaCols && col < p.cols)
      ptx::prefetch_l2(weight + col * p.weight_ld, uint32_t(k) * sizeof(AB));
  }
};

// A weight contiguous along its rows (cuBLAS NN), in groups of 32 rows: lane
// g * 4 + q loads rows 8q..8q+7 at k = 8(g / 2) + g % 2 + 2i of each 32-k
// half (i = 0..3). Register j of load i, over the warp, is an 8 x 8 matrix
// whose row g is that k and whose column pair q is rows 8q + 2j and + 1;
// transposed, lane g * 4 + q holds k 8q + 2i and + 1 of row 8(g / 2) + 2j +
// g % 2: the k its tokens' register i holds. Block b of the group takes
// j = 2b for its rows g and 2b + 1 for its rows g + 8.
template <class Cfg>
struct MnMajorWeight {
  using AB = typename Cfg::AB;
  static constexpr int kGroups = Cfg::kWeightBlocks / 2;
  static constexpr int kLoads = kGroups * 2 * 4;  // [group][k half][i]

  const AB* col[kGroups];
  bool in[kGroups];
  int64_t ld;
  int32_t depth;
  int lane_k;

  BWGEMM_DEVICE MnMajorWeight(const DecodeParams& p, const AB* weight, int64_t col0, int g, int q)
      : ld(p.weight_ld), depth(p.depth), lane_k(8 * (g / 2) + g % 2) {
#pragma unroll
    for (int gr = 0; gr < kGroups; ++gr) {
      // cols % 8 == 0, or rows past cols are a packed copy's zeros
      // (check.h): the 8 rows count as inside when the first is.
      const int64_t c = col0 + 32 * gr + 8 * q;
      in[gr] = c < p.cols;
      col[gr] = weight + (in[gr] ? c : 0);
    }
  }

  BWGEMM_DEVICE void load(int64_t k0, uint4 (&w)[kLoads]) const {
#pragma unroll
    for (int kh = 0; kh < 2; ++kh)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int64_t k = k0 + 32 * kh + lane_k + 2 * i;
#pragma unroll
        for (int gr = 0; gr < kGroups; ++gr)
          w[(gr * 2 + kh) * 4 + i] =
              k < depth && in[gr] ? ptx::load_streamed_16(col[gr] + k * ld) : uint4{};
      }
  }

  BWGEMM_DEVICE static void fragments(const uint4 (&w)[kLoads], int kh, int m,
                                      WeightFragments<Cfg>& a) {
#pragma unroll
    for (int gr = 0; gr < kGroups; ++gr)
#pragma unroll
      for (int ih = 0; ih < 2; ++ih)  // load i = 2m + ih: k slots 8 ih on
#pragma unroll
        for (int j = 0; j < 4; ++j)  // block 2 gr + j / 2, rows 8 (j % 2) on
          a[2 * gr + j / 2][(j % 2) + 2 * ih] =
              ptx::movmatrix_trans(word(w[(gr * 2 + kh) * 4 + 2 * m + ih], j));
  }

  BWGEMM_DEVICE static void fragment_row(int cl, int& wb, int& row) {
    const int c = cl % 32;  // = 8 (g / 2) + 4 b + 2 h + g % 2
    wb = 2 * (cl / 32) + c % 8 / 4;
    row = 2 * (c / 8) + c % 2 + 8 * (c % 4 / 2);
  }
};

template <class Cfg>
using Weight = std::conditional_t<Cfg::kWeightMnMajor, MnMajorWeight<Cfg>, KMajorWeight<Cfg>>;

// One warp's share of the CTA's sum over K: steps warp, warp + kWarps, ...
// Rows, tokens and k past the matrices read as zeros (depth % 8 == 0).
template <class Cfg>
BWGEMM_DEVICE void accumulate(const DecodeParams& p, int64_t batch, int64_t col0, int warp,
                              int lane, Accumulators<Cfg>& acc) {
  using AB = typename Cfg::AB;
  using W = Weight<Cfg>;
  constexpr int kWB = Cfg::kWeightBlocks, kTB = Cfg::kTokenBlocks, kU = Cfg::kUnroll;
  const int g = lane / 4, q = lane % 4;
  const W weight(p, static_cast<const AB*>(p.weight) + batch * p.weight_stride, col0, g, q);
  const AB* tokens = static_cast<const AB*>(p.tokens) + batch * p.tokens_stride + 8 * q;
  // Token g of each block.
  const AB* t_row[kTB];
  bool t_in[kTB];
#pragma unroll
  for (int tb = 0; tb < kTB; ++tb) {
    t_in[tb] = 8 * tb + g < p.rows;
    t_row[tb] = tokens + (t_in[tb] ? 8 * tb + g : 0) * p.tokens_ld;
  }

  const int steps = (p.depth + Cfg::kStepK - 1) / Cfg::kStepK;
  for (int s = warp; s < steps; s += Cfg::kWarps * kU) {
    // [step][load], [step][block][k half]
    uint4 w[kU][W::kLoads], t[kU][kTB][2];
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const int64_t k0 = int64_t(s + u * Cfg::kWarps) * Cfg::kStepK;
      weight.load(k0, w[u]);
#pragma unroll
      for (int kh = 0; kh < 2; ++kh) {
        const int64_t k = k0 + 32 * kh;
        const bool k_in = k + 8 * q < p.depth;
#pragma unroll
        for (int tb = 0; tb < kTB; ++tb)
          t[u][tb][kh] = k_in && t_in[tb] ? ptx::load_shared_16(t_row[tb] + k) : uint4{};
      }
    }
#pragma unroll
    for (int u = 0; u < kU; ++u)
#pragma unroll
      for (int kh = 0; kh < 2; ++kh)
#pragma unroll
        for (int m = 0; m < 2; ++m) {
          WeightFragments<Cfg> a;
          W::fragments(w[u], kh, m, a);
#pragma unroll
          for (int tb = 0; tb < kTB; ++tb)
#pragma unroll
            for (int wb = 0; wb < kWB; ++wb) {
              const uint4 x = t[u][tb][kh];
              ptx::mma_m16n8k16<AB>(acc[wb][tb], a[wb], m ? x.z : x.x, m ? x.w : x.y);
            }
        }
  }
}

// The CTAs form a 1-D grid: p.col_blocks blocks of kCtaCols weight rows per
// batch, batch-major.
template <class Cfg>
BWGEMM_DEVICE void decode_body(const DecodeParams& p) {
  using AB = typename Cfg::AB;
  using Out = typename Cfg::Out;
  using Traits = epilogue::OutTraits<Out>;
  constexpr int kWB = Cfg::kWeightBlocks, kTB = Cfg::kTokenBlocks;
  using Partials = float[Cfg::kWarps][kWB][kTB][4][32];
  Partials& partial = *reinterpret_cast<Partials*>(ptx::dynamic_smem());
  const int thread = int(ptx::thread_index()), warp = thread / 32, lane = thread % 32;
  const int64_t cta = ptx::cluster_index();  // clusters of one CTA
  const int64_t batch = cta / p.col_blocks;
  const int64_t col0 = cta % p.col_blocks * Cfg::kCtaCols;

  // Where launched as a programmatic dependent (launch.cpp says when), the
  // previous grid on the stream has completed before anything is read. An
  // L2 prefetch reads nothing, so it comes first: the start of the CTA's
  // weight is on its way while the previous grid drains.
  if constexpr (Cfg::kPrefetchK > 0) {
    if (p.prefetch_k > 0)
      Weight<Cfg>::prefetch(p, static_cast<const AB*>(p.weight) + batch * p.weight_stride, col0,
                            p.prefetch_k, thread);
  }
  ptx::grid_dependency_wait();
  ptx::grid_dependents_launch();
  const float alpha = p.stage.alpha.load();
  const float beta = p.stage.beta.load();

  Accumulators<Cfg> acc = {};
  // alpha == 0: A and B are not read (cuBLAS's rule; NaNs there stay out).
  if (alpha != 0.0f) accumulate<Cfg>(p, batch, col0, warp, lane, acc);
#pragma unroll
  for (int wb = 0; wb < kWB; ++wb)
#pragma unroll
    for (int tb = 0; tb < kTB; ++tb)
#pragma unroll
      for (int r = 0; r < 4; ++r) partial[warp][wb][tb][r][lane] = acc[wb][tb][r];
  ptx::cta_sync();

  // One output per thread and turn, the weight rows fastest (D's contiguous
  // dimension); the warps' partial sums are added in warp order.
  Out* out = static_cast<Out*>(p.out) + batch * p.out_stride;
  const Out* c_in = static_cast<const Out*>(p.c_in) + batch * p.c_stride;
  for (int i = thread; i < Cfg::kCtaCols * kTB * 8; i += Cfg::kThreads) {
    const int cl = i % Cfg::kCtaCols, token = i / Cfg::kCtaCols;
    const int64_t col = col0 + cl;
    if (col >= p.cols || token >= p.rows) continue;
    // The fragment position of (weight row cl, token): ptx::mma_m16n8k16's c.
    int wb, row;
    Weight<Cfg>::fragment_row(cl, wb, row);
    const int g = row % 8, r = row / 8 * 2 + token % 2;
    const int tb = token / 8, frag_lane = g * 4 + (token % 8) / 2;
    float sum = 0.0f;
#pragma unroll
    for (int w = 0; w < Cfg::kWarps; ++w) sum += partial[w][wb][tb][r][frag_lane];
    float v = alpha * sum;
    if (beta != 0.0f) v += beta * Traits::to_float(c_in[token * p.c_ld + col]);
    if (p.stage.has_epilogue) v = epilogue::finish(p.stage, int32_t(batch), int32_t(col), v);
    out[token * p.out_ld + col] = Traits::from_float(v);
  }
}

#if defined(__CUDACC__)
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinCtasPerSm)
    decode_kernel(const __grid_constant__ DecodeParams p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  decode_body<Cfg>(p);
#endif
}
#endif

}  // namespace bwgemm::decode
