// SPDX-License-Identifier: MIT
// The decode kernel: D = epilogue(alpha * x W^T + beta * C) for a weight W
// (the view's columns, K-contiguous) read once from memory and up to 32
// tokens x (the view's rows, K-contiguous): cuBLAS's TN GEMM of an LLM's
// decode step. Memory-bound, so no shared-memory staging and no TMA: every
// lane loads 16 bytes (8 consecutive k) of weight rows and tokens straight
// into registers and feeds mma.sync. A lane's 8 values fill the k slots its
// fragments own in two m16n8k16 steps; weight and token fragments use the same
// assignment, and a dot product does not depend on the order of its k.
#pragma once

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

// One warp's share of the CTA's sum over K: steps warp, warp + kWarps, ...
// Rows, tokens and k past the matrices read as zeros (depth % 8 == 0, so a
// lane's 8 k are all inside or all outside).
template <class Cfg>
BWGEMM_DEVICE void accumulate(const DecodeParams& p, int64_t batch, int64_t col0, int warp,
                              int lane, Accumulators<Cfg>& acc) {
  using AB = typename Cfg::AB;
  constexpr int kWB = Cfg::kWeightBlocks, kTB = Cfg::kTokenBlocks, kU = Cfg::kUnroll;
  const int g = lane / 4, q = lane % 4;
  const AB* weight = static_cast<const AB*>(p.weight) + batch * p.weight_stride + 8 * q;
  const AB* tokens = static_cast<const AB*>(p.tokens) + batch * p.tokens_stride + 8 * q;
  // Weight rows g and g + 8 of each block, token g of each block.
  const AB* w_row[kWB][2];
  bool w_in[kWB][2];
#pragma unroll
  for (int wb = 0; wb < kWB; ++wb)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t col = col0 + 16 * wb + 8 * h + g;
      w_in[wb][h] = col < p.cols;
      w_row[wb][h] = weight + (w_in[wb][h] ? col : 0) * p.weight_ld;
    }
  const AB* t_row[kTB];
  bool t_in[kTB];
#pragma unroll
  for (int tb = 0; tb < kTB; ++tb) {
    t_in[tb] = 8 * tb + g < p.rows;
    t_row[tb] = tokens + (t_in[tb] ? 8 * tb + g : 0) * p.tokens_ld;
  }

  const int steps = (p.depth + Cfg::kStepK - 1) / Cfg::kStepK;
  for (int s = warp; s < steps; s += Cfg::kWarps * kU) {
    // [step][block][row g / g + 8][k half], [step][block][k half]
    uint4 w[kU][kWB][2][2], t[kU][kTB][2];
#pragma unroll
    for (int u = 0; u < kU; ++u)
#pragma unroll
      for (int kh = 0; kh < 2; ++kh) {
        const int64_t k = int64_t(s + u * Cfg::kWarps) * Cfg::kStepK + 32 * kh;
        const bool k_in = k + 8 * q < p.depth;
#pragma unroll
        for (int wb = 0; wb < kWB; ++wb)
#pragma unroll
          for (int h = 0; h < 2; ++h)
            w[u][wb][h][kh] =
                k_in && w_in[wb][h] ? ptx::load_streamed_16(w_row[wb][h] + k) : uint4{};
#pragma unroll
        for (int tb = 0; tb < kTB; ++tb)
          t[u][tb][kh] = k_in && t_in[tb] ? ptx::load_shared_16(t_row[tb] + k) : uint4{};
      }
#pragma unroll
    for (int u = 0; u < kU; ++u)
#pragma unroll
      for (int kh = 0; kh < 2; ++kh)
#pragma unroll
        for (int tb = 0; tb < kTB; ++tb)
#pragma unroll
          for (int wb = 0; wb < kWB; ++wb) {
            const uint4 lo = w[u][wb][0][kh], hi = w[u][wb][1][kh], x = t[u][tb][kh];
            ptx::mma_m16n8k16<AB>(acc[wb][tb], {lo.x, hi.x, lo.y, hi.y}, x.x, x.y);
            ptx::mma_m16n8k16<AB>(acc[wb][tb], {lo.z, hi.z, lo.w, hi.w}, x.z, x.w);
          }
  }
}

// The CTAs form a 1-D grid: p.col_blocks blocks of kCtaCols weight rows per
// batch, batch-major.
template <class Cfg>
BWGEMM_DEVICE void decode_body(const DecodeParams& p) {
  using Out = typename Cfg::Out;
  using Traits = epilogue::OutTraits<Out>;
  constexpr int kWB = Cfg::kWeightBlocks, kTB = Cfg::kTokenBlocks;
  using Partials = float[Cfg::kWarps][kWB][kTB][4][32];
  Partials& partial = *reinterpret_cast<Partials*>(ptx::dynamic_smem());
  const int thread = int(ptx::thread_index()), warp = thread / 32, lane = thread % 32;
  const int64_t cta = ptx::cluster_index();  // clusters of one CTA
  const int64_t batch = cta / p.col_blocks;
  const int64_t col0 = cta % p.col_blocks * Cfg::kCtaCols;

  // Launched as a programmatic dependent: the previous grid on the stream
  // has completed before anything is read.
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
    const int wb = cl / 16, g = cl % 8, r = (cl % 16) / 8 * 2 + token % 2;
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
