// SPDX-License-Identifier: MIT
// The decode kernel's shapes: one per token count class and weight layout,
// measured with bwgemm-bench (docs/perf.md). A CTA of 8 warps owns 16 x
// weight_blocks rows of the weight over all of K; its warps take turns along
// K in steps of 64 and add their partial sums in a fixed order at the end,
// so results are bitwise reproducible.
#pragma once

#include <cstdint>

#include "kernels/common/waves.h"

namespace bwgemm::decode {

// The most tokens (cuBLAS's n) the kernel takes.
constexpr int kMaxTokens = 32;
constexpr int kWarps = 8;  // per CTA
constexpr int kThreads = 32 * kWarps;

struct Shape {
  int token_blocks;   // 8 tokens each (mma N)
  int weight_blocks;  // 16 weight rows each (mma M), per warp
  int unroll;         // K steps whose loads are in flight at once, per warp
  int min_ctas_per_sm;
  // The weight is contiguous along its rows' index (cuBLAS NN: the view's
  // columns) rather than along K. Its lanes load 8 rows' values at one k and
  // transpose them in registers (decode_kernel.cuh); weight_blocks is even.
  bool weight_mn_major;
  // K of each CTA's rows asked of L2 before the kernel waits for the previous
  // grid (a multiple of 8; 0: none): the boundary between two calls, where
  // memory would idle, starts this call's reads. Measured for the
  // K-contiguous weight (docs/perf.md v21); a CTA of the NN shapes is resident
  // beside the previous grid from its start, where a prefetch only competes.
  int prefetch_k;
  // Weight rows per block: 16 (the mma's M), or 8 (its rows 8..15 zeros: half
  // the bytes a CTA, so that a weight spreads more evenly over the SMs).
  int block_rows = 16;
};

// <= 8, <= 16 and <= 32 tokens, K-contiguous weight (the unroll and shape of
// each measured against others on an H100: docs/perf.md v11), then the same
// for a weight contiguous along its rows (docs/perf.md v19), then <= 8 tokens
// of a K-contiguous weight past one wave of the first, and in blocks of 8
// rows two and three an SM (launch_shape).
inline constexpr Shape kShapes[] = {
    {1, 1, 8, 2, false, 1024}, {2, 1, 2, 2, false, 1024},    {4, 1, 1, 2, false, 1024},
    {1, 2, 8, 2, true, 0},     {2, 2, 1, 2, true, 0},        {4, 2, 1, 2, true, 0},
    {1, 1, 8, 3, false, 1024}, {1, 1, 8, 2, false, 1024, 8}, {1, 1, 8, 3, false, 1024, 8}};
constexpr int kShapeCount = int(sizeof kShapes / sizeof kShapes[0]);

// Weight rows per CTA, and CTAs per batch for `cols` weight rows.
constexpr int cta_cols(const Shape& s) { return s.block_rows * s.weight_blocks; }
constexpr int64_t col_blocks(int64_t cols, const Shape& s) {
  return (cols + cta_cols(s) - 1) / cta_cols(s);
}
// Dynamic shared memory: every warp's partial sums, as mma fragments (4
// floats per lane and block pair).
constexpr uint32_t smem_bytes(const Shape& s) {
  return uint32_t(kWarps * s.weight_blocks * s.token_blocks * 4 * 32) * sizeof(float);
}

// The shape for `tokens` (1 .. kMaxTokens) and the weight's layout.
constexpr int shape_for(int64_t tokens, bool weight_mn_major) {
  return (tokens <= 8 ? 0 : tokens <= 16 ? 1 : 2) + (weight_mn_major ? 3 : 0);
}
static_assert(
    [] {
      for (int s = 0; s <= shape_for(kMaxTokens, true); ++s)
        if (kShapes[s].min_ctas_per_sm != 2) return false;
      return true;
    }(),
    "shape_for's shapes run two CTAs an SM (the policy's one wave)");

// The shape a launch of `ctas` CTAs of shape_for's `shape` on `sm_count` SMs
// runs. Past one wave of shape 0 (two CTAs an SM), the same CTAs three an SM
// (80 registers a thread under the launch bounds, no spills) where their
// waves are as full or fuller. On an H200, TN bf16 at 1 / 8 tokens
// (docs/perf.md v33): 6144 x 4096 ran 13.9 / 14.4 us against 15.2 / 16.4 two
// an SM, 11008 x 4096 24.1 / 25.2 against 24.7 / 26.1, 5120 x 4096 13.5 /
// 13.9 against 14.3 / 15.1; 8192 x 8192, whose two-an-SM waves are full,
// 35.4 against 33.4. 14336 x 4096 (0.85 of four waves two an SM, 0.75 of
// three at three) ran 31.2 / 31.7 against 32.1 / 33.4 but keeps two an SM
// (cuBLAS runs it). Within one wave three an SM lost (4096 x 4096: 12.4
// against 9.5 us; SMs left idle, a guess).
//
// Before that, shape 0's CTAs cut to blocks of 8 weight rows where the halves
// fit one wave (two or three an SM) and leave the busiest SM fewer bytes: an
// H200's SM streams at most 31-34 GB/s from memory (all 132 together 4.1
// TB/s; docs/perf.md v34), so a call lasts as long as its busiest SM reads.
// On an H200, TN bf16 at 1 / 8 tokens (docs/perf.md v34): 1024 x 4096 (64
// SMs -> 128) 4.1 / 4.8 us against 4.5 / 4.7, 3072 x 8192 (two blocks on the
// busiest SM -> three halves) 13.3 / 15.2 against 16.4 / 17.5, 3072 x 3072
// 6.2 / 6.8 against 7.2 / 7.6. Past one wave halves won or lost by the
// weight, and five an SM (CTAs of 4 warps) slowed a whole model's decode
// step (docs/perf.md v34): neither is used.
constexpr int kThreeAnSmShape = 6;
constexpr int kHalfBlocksShape = 7;  // two an SM; + 1: three
static_assert(cta_cols(kShapes[kThreeAnSmShape]) == cta_cols(kShapes[0]) &&
                  kShapes[kThreeAnSmShape].prefetch_k == kShapes[0].prefetch_k,
              "shape 0's CTAs (ctas(), the prefetch), three an SM");
static_assert(2 * cta_cols(kShapes[kHalfBlocksShape]) == cta_cols(kShapes[0]) &&
                  2 * cta_cols(kShapes[kHalfBlocksShape + 1]) == cta_cols(kShapes[0]) &&
                  kShapes[kHalfBlocksShape].min_ctas_per_sm == 2 &&
                  kShapes[kHalfBlocksShape + 1].min_ctas_per_sm == 3,
              "shape 0's CTAs in halves, two and three an SM");
// The CTAs of `shape` that fit `sm_count` SMs at once: one wave.
constexpr int64_t wave_ctas(int shape, int sm_count) {
  return int64_t(kShapes[shape].min_ctas_per_sm) * sm_count;
}
// `ctas`: shape_for's CTAs (for shape 0 in halves, 2 x ctas stands for the
// halves' count, one more than it where the last block has <= 8 rows).
constexpr int launch_shape(int shape, int64_t ctas, int sm_count) {
  if (shape != 0) return shape;
  const int64_t halves = 2 * ctas;
  // waves(n, sm_count): the CTAs of n on the busiest SM.
  if (halves <= wave_ctas(kHalfBlocksShape + 1, sm_count) &&
      waves(halves, sm_count) < 2 * waves(ctas, sm_count))
    return halves <= wave_ctas(kHalfBlocksShape, sm_count) ? kHalfBlocksShape
                                                           : kHalfBlocksShape + 1;
  const int64_t two = wave_ctas(0, sm_count), three = wave_ctas(kThreeAnSmShape, sm_count);
  return ctas > two && wave_fill(ctas, three) >= wave_fill(ctas, two) ? kThreeAnSmShape : shape;
}

template <class AB_, class Out_, int kShape_>
struct Config {
  using AB = AB_;
  using Out = Out_;
  static constexpr Shape kShape = kShapes[kShape_];
  static constexpr int kWarps = decode::kWarps;
  static constexpr int kThreads = decode::kThreads;
  static constexpr int kTokenBlocks = kShape.token_blocks;
  static constexpr int kWeightBlocks = kShape.weight_blocks;
  static constexpr int kBlockRows = kShape.block_rows;
  static constexpr int kCtaCols = cta_cols(kShape);
  static constexpr int kUnroll = kShape.unroll;
  static constexpr int kMinCtasPerSm = kShape.min_ctas_per_sm;
  static constexpr bool kWeightMnMajor = kShape.weight_mn_major;
  static constexpr int kPrefetchK = kShape.prefetch_k;
  static constexpr int kStepK = 64;
  static_assert(!kWeightMnMajor || kWeightBlocks % 2 == 0, "32-row weight groups");
  static_assert(kBlockRows == 16 || (kBlockRows == 8 && !kWeightMnMajor),
                "8-row blocks of a K-contiguous weight");
  static_assert(kPrefetchK * sizeof(AB) % 16 == 0 && (kPrefetchK == 0 || !kWeightMnMajor),
                "a prefetch of whole 16-byte units, of K-contiguous rows");
};

}  // namespace bwgemm::decode
