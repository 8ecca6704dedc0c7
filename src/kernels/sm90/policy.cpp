// SPDX-License-Identifier: MIT
#include "kernels/sm90/policy.h"

#include <cstdint>

#include "kernels/common/launch_params.h"
#include "kernels/decode/check.h"
#include "kernels/decode/config.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {
namespace {

// Configuration 0, measured with bwgemm-bench --suite all on an H200 (132
// SMs, cuBLAS 13.1, sustained mode, 2026-11-21; docs/perf.md has the whole
// table):
//  - m, n and k multiples of 16 (cuBLAS's fast path): the kernel is at
//    0.97-1.02x cuBLAS on 2048..16384-sized shapes (seed, llm, k-sweep),
//    0.92x at K = 512, 0.5-0.6x on 512..1024 cubes and 0.27-0.65x on skinny
//    shapes. Not a measurable win anywhere: cuBLAS keeps them.
//  - m, n or k not a multiple of 16, leading dimensions 16-byte aligned: cuBLAS
//    drops to 62-177 TFLOP/s and the kernel runs at 287-737 (2.7-7.9x) from
//    64 cluster tiles up (2047x2049x1023, 3000x5000x700, 4095x4097x4096, ...),
//    but at 0.52-0.57x on 1000^3 (16 cluster tiles: most SMs idle).
//  - Only same-type outputs were measured; fp32 outputs stay with cuBLAS.
//  - D's leading dimension or base not 16-byte aligned (GPT-2's logits with
//    the vocabulary 50257): cuBLAS at 96 TFLOP/s, the kernel (storing D by
//    threads) at 434 on an H100 (docs/perf.md). Unaligned A or B are packed
//    first (dispatch/launch.cpp): GPT-2's backward pair, docs/perf.md v7-v13.

// Cluster tiles of 256 rows (n) by `cols` columns (m), every batch counted.
int64_t cluster_tiles(const GemmProblem& p, int64_t cols) {
  return (p.n + 255) / 256 * ((p.m + cols - 1) / cols) * p.batch;
}

// A call with fewer than 256 rows on its narrow side (a decode through an
// LLM's vocabulary projection) fills a sliver of each 256 x 256 tile. Off
// cuBLAS's fast path only by m or n, with A, B and D aligned, the tiles ran
// at 0.43-0.53x cuBLAS at 1-8 tokens (16896 .. 128256 x 4096, 28672 x
// 8192, 50304 x 768) and 0.64-0.76x at 24-200 (32000 x 4096), on an H200
// (docs/perf.md v32). With D alone unaligned cuBLAS runs align-1 kernels:
// GPT-2's logits at generation (50257 x N x 768, ldd 50257) 2.5x cuBLAS at 8
// and 100 tokens, but 0.72x at one token, where cuBLAS runs a faster kernel.
// An unaligned A or B (a copy of the weight first) was not measured.
constexpr int64_t kMinTileRows = 256;

bool large_tile_wins(const GemmProblem& p, const DeviceCaps& caps, bool cublas_fast_path,
                     bool only_d_unaligned) {
  if (cublas_fast_path) return false;
  const int64_t narrow = p.m < p.n ? p.m : p.n;
  if (narrow < kMinTileRows && !(only_d_unaligned && narrow > 1)) return false;
  // At least one full wave of 2-CTA clusters of 256 x 256 output tiles.
  return p.k >= 512 && cluster_tiles(p, 256) >= caps.sm_count / 2;
}

// The share of the clusters' tile slots a grid of 256-row by `cols`-wide
// cluster tiles keeps busy over its waves. (A ragged edge split off, as
// ragged_edge.h does, was counted here once: 4097x4095 then took 256 x 256
// tiles and lost 2-12 % on an H200, docs/perf.md v15.)
double wave_fill(const GemmProblem& p, const DeviceCaps& caps, int64_t cols) {
  const int64_t tiles = cluster_tiles(p, cols);
  const int64_t clusters = caps.sm_count / 2 > 0 ? caps.sm_count / 2 : 1;
  return bwgemm::wave_fill(tiles, clusters);
}

// The large-tile class on 256 x 128 cluster tiles (sm90_256x128x64_5stage_2cta)
// where 256 x 256 ones leave much of the last wave idle. Forced on full
// waves it ran at 0.84-0.89x configuration 0's throughput (GPT-2's padded
// logits and weight gradient); on GPT-2's input gradient with B packed,
// 768 x 8192 x 50257 (96 tiles of 256 x 256 on 66 clusters fill 0.73 of two
// waves, 192 of 256 x 128 0.97 of three) 435-441 TFLOP/s against 408, and
// 0.95-0.96x cuBLAS against 0.78x on 768 x 8192 x 8192 in all four layouts
// (H100, docs/perf.md v13).
// Where the row operand is read by row classes (RowClassUse::kRowOperand:
// GPT-2's input gradient, NN with ldb 50257) the half-wide tiles make half the
// flops of each class load and ran at 0.69-0.71x configuration 0's speed
// instead (an H200, docs/perf.md v22: 768 / 1280 x 8192 x 50257 lost 6 / 18 %
// on them; 768 x 8192 x 16383 / 32767 lost 2 / 7 %, 8191 gained 2 %).
constexpr double kHalfColumnsSpeed = 0.85;
constexpr double kHalfColumnsRowClassesSpeed = 0.70;
constexpr int kHalfColumnsConfig = shape_index("sm90_256x128x64_5stage_2cta");
static_assert(kHalfColumnsConfig > 0);

// Its tiles have no row windows: an unaligned B it reads is read by row classes.
double half_columns_speed(const GemmProblem& p) {
  return reads_unaligned_b(p, kHalfColumnsConfig) ? kHalfColumnsRowClassesSpeed : kHalfColumnsSpeed;
}

bool half_columns_win(const GemmProblem& p, const DeviceCaps& caps) {
  return wave_fill(p, caps, 128) * half_columns_speed(p) > wave_fill(p, caps, 256);
}

// A grid split in two launches must save this share of its waves' time: the
// second launch and the gap between the two grids are not modelled.
constexpr double kWaveSplitGain = 0.95;

// Configuration 0's tiles reading an M/N-major B (the row operand, op(B) =
// B^T) that TMA cannot address through row windows instead of a packed copy
// (docs/perf.md v20, an H200). The windows' kernel runs at ~600 TFLOP/s
// whatever m, the one on a copy faster; the copy costs B's bytes twice, which
// weigh more against the GEMM the fewer columns m it has. NT, n 50257, k
// 8192, ldb 50257: m = 768 / 1024 1.16x / 1.06x faster than packing, m = 1536
// / 2048 / 3072 0.96x / 0.90x / 0.85x; 4095 x 4097 x 4096 NT / TT 0.76x.
// Where A is M-major and k a multiple of 8, register windows (no shifted
// copy in shared memory) instead, over the same m: on an H100 (docs/perf.md
// v45), over cuBLAS's call at n 50304, m = 768 0.86x (shifted windows
// 0.74x); at m = 2048 and 3072 level with the packed B in TFLOP/s.
constexpr int kRowWindowsConfig = shape_index("sm90_256x256x64_3stage_2cta_windows");
constexpr int kRegisterWindowsConfig = shape_index("sm90_256x256x64_3stage_2cta_regwindows");
static_assert(kRowWindowsConfig > 0 && kRegisterWindowsConfig > 0);
constexpr int64_t kRowWindowsMaxCols = 1024;

// The row-windows configuration that reads B, or -1 (a packed copy).
int row_windows_config(const GemmProblem& p) {
  if (!p.trans_b || p.batch != 1 || tma_addressable(p.b, p.ldb, 0, p.ab_type)) return -1;
  if (p.m > kRowWindowsMaxCols) return -1;
  return !p.trans_a && p.k % 8 == 0 ? kRegisterWindowsConfig : kRowWindowsConfig;
}

// Shape classes with A, B and D 16-byte aligned and a same-type output, first
// match wins. A decode GEMM multiplies a weight by a few tokens: tokens =
// min(m, n), weight rows = max(m, n) (either orientation makes the same
// tiles: the kernel's 64-row or 64-column side holds the tokens). Bounds are
// inclusive, 0 = none. Each row is measured with bwgemm-bench (--tune times
// every configuration against cuBLAS: docs/perf.md v10).
struct Row {
  const char* rule;
  int64_t max_tokens, min_rows, max_rows, min_k, max_weight;  // weight: rows x k elements
  int config;
};

constexpr Row kRows[] = {
    // Decode from a 16..32 MB weight (4096 x 4096): 64 x 64 tiles split over
    // K in pairs (sm90_64x64x64_12stage_2cta_splitk, 128 of 132 SMs, a
    // 12-stage ring, launched as a programmatic dependent) measured 0.73x /
    // 0.80x / 0.88x cuBLAS at n = 1 / 16 / 64 (bf16 TN; fp16 NN n = 16: 0.80x)
    // on an H200 (bwgemm-bench --shape, docs/perf.md v9): cuBLAS keeps it.
    // The split-K pair with 32-row stages (sm90_32x64x64_6stage_2cta_splitk)
    // ran 4096 x 4096 at 17..32 tokens TN and 11..32 NN 1.04-1.08x cuBLAS
    // back to back in a CUDA graph (docs/perf.md v26), but 0.95-1.00x after
    // a plainly launched kernel, and it made Llama-3-8B's whole decode step
    // at 24 tokens 1.4 % slower (q and o on it; docs/perf.md v35).
    {"decode <=64 tokens, weight of 2113..4224 rows, <= 32 MB: cuBLAS measured faster", 64, 2113,
     4224, 2048, 4096 * 4096, -1},
    // Decode from smaller weights (2048 x 4096 at 1, 16, 64 tokens, fp16/bf16,
    // TN/NN): the fastest configuration (the split-K pair) reached 0.68-0.91x
    // cuBLAS on an H200 (bwgemm-bench --tune).
    {"decode <=64 tokens, weight of <= 2112 rows: cuBLAS measured faster", 64, 0, 2112, 2048, 0,
     -1},
    // Larger weights (14336 x 4096 and 4096 x 14336 at 1, 16, 64 tokens,
    // fp16/bf16, TN/NN): the fastest configuration reached 0.74-1.01x cuBLAS
    // on an H200 (bwgemm-bench --tune; an H100 run agreed but for readings a
    // slow cuBLAS skewed).
    {"decode <=64 tokens, larger weights: cuBLAS measured faster", 64, 0, 0, 2048, 0, -1},
    // Small and skinny shapes (512^3, 1024^3, 2048^3, 14336 x 128 x 4096,
    // 4096 x 256 x 4096): the fastest configuration reached 0.57-0.80x cuBLAS
    // on an H200 (bwgemm-bench --tune; an H100 run agreed).
    {"small or skinny: cuBLAS measured faster", 0, 0, 0, 0, 0, -1},
};

bool in(int64_t v, int64_t lo, int64_t hi) { return v >= lo && (hi == 0 || v <= hi); }

// The decode kernel (kernels/decode/: mma.sync on 16-byte loads, no staging)
// against cuBLAS, bf16 and fp16, weights rotated past the L2, CUDA graph of
// back-to-back calls (bwgemm-bench --suite decode). TN (docs/perf.md v11, an
// H100, copy bandwidth 3.0 TB/s): at 1-16 tokens 1.04-1.20x on a 4096 x 4096
// weight and 1.04-1.05x on 4096 x 14336, where its CTAs (16 weight rows each,
// two per SM) fit in one wave; with more rows 0.96-1.04x (14336 x 4096,
// 8192 x 8192); at 32 tokens 0.85-0.94x everywhere, whatever the unroll or
// rows per CTA. NN (the weight contiguous along its rows, 32 rows per CTA;
// docs/perf.md v19, an H200): at 1-8 tokens 1.17-1.22x on 4096 x 4096,
// 0.94-1.00x on 4096 x 14336, 0.78-0.90x on 8192 x 8192 and 14336 x 4096;
// at 16 and 32 tokens on 4096 x 4096 0.82-0.93x. TN at 16 tokens on 4096 x
// 14336 measured 0.92-0.94x on an H200 (v18, v19), against 1.05x on the H100
// of v11: cuBLAS keeps 9-16 tokens from weights with K over 4096.
constexpr int64_t kDecodeMaxTokens = 16;
constexpr int64_t kDecodeLongKMaxTokens = 8;
constexpr int64_t kDecodeNnMaxTokens = 8;
constexpr int64_t kDecodeLongK = 4096;  // K above it: long

bool decode_wins(const GemmProblem& p, const DeviceCaps& caps) {
  // One wave of shape_for's shape: all of them run two CTAs an SM, as shape 0.
  if (decode::check(p, caps) != BWGEMM_REASON_KERNEL_SELECTED ||
      decode::ctas(p) > decode::wave_ctas(0, caps.sm_count))
    return false;
  if (p.trans_a) return p.n <= (p.k > kDecodeLongK ? kDecodeLongKMaxTokens : kDecodeMaxTokens);
  return p.n <= kDecodeNnMaxTokens && in(p.m, 4096, 4224) && p.k <= kDecodeLongK;
}

// TN fp16 decode from an 8192 x 8192 weight at <= 8 tokens: 512 CTAs of the
// decode kernel, two waves on 132 SMs, where cuBLAS's fp16 kernel is slow
// (cuBLAS 13.1 on an H200: 37.4-37.9 us a call against 32.8-33.1 us for
// bf16). The decode kernel there: 33.2 / 35.5-35.6 us at 1 / 8 tokens, 1.13x
// / 1.06x cuBLAS in a CUDA graph, two processes (docs/perf.md v30); bf16
// 0.91-1.00x, 16 tokens 0.82x, 14336 x 4096 0.93-0.98x, NN 0.87-0.92x:
// cuBLAS keeps those. Measured with 132 SMs only: fewer keep cuBLAS.
constexpr int64_t kDecodeFp16Weight = 8192;
constexpr int kDecodeMeasuredSms = 132;  // the SMs of the H200 these rules were measured on
constexpr int64_t kDecodeFp16MaxTokens = 8;

bool decode_fp16_square_wins(const GemmProblem& p, const DeviceCaps& caps) {
  return p.ab_type == DType::F16 && p.trans_a && p.n <= kDecodeFp16MaxTokens &&
         p.m == kDecodeFp16Weight && p.k == kDecodeFp16Weight &&
         target_sms(p, caps) >= kDecodeMeasuredSms &&
         decode::check(p, caps) == BWGEMM_REASON_KERNEL_SELECTED;
}

// TN decode at <= 8 tokens (K <= 4096) from a weight whose decode-kernel CTAs
// fill one wave three an SM (decode/config.h, launch_shape) to 95 % or more:
// Llama-3's fused QKV projection, 6144 x 4096, on an H200 (docs/perf.md v33).
// The kernel forced, bf16, 1 / 8 tokens: 13.9 / 14.4 us against cuBLAS's 15.1
// / 14.8 (1.08x / 1.03-1.04x). Other grids keep cuBLAS: 5120 x 4096 (0.81 of
// a wave) 0.93-0.95x, 14336 x 4096 (two an SM) 0.89-0.95x; 11008 x 4096
// (0.87 of two waves) read 1.04-1.05x at 1 token but 1.02x at 8, under the
// 3 % the policy asks.
// Measured with 132 SMs only.
constexpr double kDecodeThreeAnSmFill = 0.95;

bool decode_three_an_sm_wins(const GemmProblem& p, const DeviceCaps& caps) {
  if (!p.trans_a || p.k > kDecodeLongK || target_sms(p, caps) < kDecodeMeasuredSms ||
      decode::check(p, caps) != BWGEMM_REASON_KERNEL_SELECTED ||
      decode::shape_of(p, caps) != decode::kThreeAnSmShape)
    return false;
  const int64_t wave = decode::wave_ctas(decode::kThreeAnSmShape, caps.sm_count);
  const int64_t ctas = decode::ctas(p);
  return ctas <= wave && double(ctas) >= kDecodeThreeAnSmFill * double(wave);
}

// GPT-2's input gradient (768 x 8192 x 50257 NN, ldb 50257, B read by row
// classes) on 66 clusters: 96 tiles of 256 x 256 (32 row blocks by 3) take
// two waves, the second 45 % full (the kernel at 0.73 of its full-wave
// speed, docs/perf.md v23). Split by columns (cuBLAS's m; a split by rows
// would cut the row classes' 8 x 256-row blocks), 512 columns make 64 tiles,
// one wave, and the other 256 make 64 tiles of 256 x 128, one wave of half
// tiles at kHalfColumnsRowClassesSpeed: 1 + 0.5 / 0.70 = 1.71 waves' time
// instead of 2. Measured on an H200 (docs/perf.md v24), over cuBLAS on the
// call with k 50304: 0.76x -> 0.88-0.91x; 1280 x 8192 x 50257 (predicted
// 2.71 waves against 3) 0.83-0.84x -> 0.93-0.95x. Where the call has room
// in a workspace, its last wave's tiles are split over K instead
// (kernels/common/tile_split.h: 1.5 waves' time), and this split is not made.
bool split_last_wave(const GemmProblem& p, int64_t clusters, EdgeSplit* out) {
  if (p.batch != 1 || p.k < kMinEdgeDepth || clusters <= 0) return false;
  const int64_t row_blocks = (p.n + 255) / 256, tiles = cluster_tiles(p, 256);
  const int64_t body_col_blocks = tiles / clusters * clusters / row_blocks;
  if (body_col_blocks == 0 || body_col_blocks * row_blocks == tiles) return false;
  const EdgeSplit parts = split_cols(p, body_col_blocks * 256);
  const double time = double(waves(body_col_blocks * row_blocks, clusters)) +
                      double(waves(cluster_tiles(parts.edge, 128), clusters)) * 0.5 /
                          half_columns_speed(parts.edge);
  if (time > kWaveSplitGain * double(waves(tiles, clusters))) return false;
  *out = parts;
  return true;
}

}  // namespace

int target_sms(const GemmProblem& p, const DeviceCaps& caps) {
  return p.sm_count_target > 0 && p.sm_count_target < caps.sm_count ? p.sm_count_target
                                                                    : caps.sm_count;
}

ConfigChoice select_config(const GemmProblem& p, const DeviceCaps& caps) {
  const bool operands_aligned =
      tma_addressable(p.a, p.lda, 0, p.ab_type) && tma_addressable(p.b, p.ldb, 0, p.ab_type);
  const bool d_aligned = tma_addressable(p.d, p.ldd, 0, p.c_type);
  const bool aligned = operands_aligned && d_aligned;
  const bool cublas_fast_path = p.m % 16 == 0 && p.n % 16 == 0 && p.k % 16 == 0 && aligned;
  if (p.c_type != p.ab_type) return {-1, "fp32 output: cuBLAS (not measured)"};
  if (large_tile_wins(p, caps, cublas_fast_path, operands_aligned && !d_aligned)) {
    if (half_columns_win(p, caps))
      return {kHalfColumnsConfig,
              "off cuBLAS's fast path, 256x128 tiles fill the last wave better: measured faster"};
    const int windows = row_windows_config(p);
    if (windows == kRegisterWindowsConfig)
      return {windows,
              "off cuBLAS's fast path, a wave of 256x256 tiles, B read through row windows into "
              "registers: measured faster"};
    if (windows == kRowWindowsConfig)
      return {windows,
              "off cuBLAS's fast path, a wave of 256x256 tiles, B read through row windows: "
              "measured faster"};
    return {0, "off cuBLAS's fast path, a wave of 256x256 tiles: measured faster"};
  }
  if (!aligned || p.batch != 1) return {-1, "cuBLAS measured faster"};
  if (decode_wins(p, caps))
    return {kDecodeConfig, p.trans_a
                               ? "TN decode, <= 16 tokens (<= 8 for K > 4096), <= 32 weight rows "
                                 "per SM: the decode kernel measured faster"
                               : "NN decode, <= 8 tokens, 4096..4224 x <= 4096 weight: the "
                                 "decode kernel measured faster"};
  if (decode_fp16_square_wins(p, caps))
    return {kDecodeConfig,
            "TN fp16 decode, <= 8 tokens, 8192 x 8192 weight (cuBLAS's fp16 kernel slow there): "
            "the decode kernel measured faster"};
  if (decode_three_an_sm_wins(p, caps))
    return {kDecodeConfig,
            "TN decode, <= 8 tokens, K <= 4096, one wave of the decode kernel three CTAs an SM "
            "(6144 x 4096): the decode kernel measured faster"};
  const int64_t tokens = p.m < p.n ? p.m : p.n, rows = p.m < p.n ? p.n : p.m;
  for (const Row& r : kRows)
    if (in(tokens, 0, r.max_tokens) && in(rows, r.min_rows, r.max_rows) && in(p.k, r.min_k, 0) &&
        in(rows * p.k, 0, r.max_weight))
      return {r.config, r.rule};
  return {-1, "cuBLAS measured faster"};
}

// The ragged edge's configuration where the decode kernel does not take it:
// one CTA per 64 x 128 tile, so that a remainder of up to 64 rows of a large
// grid is one short wave.
constexpr int kEdgeConfig = shape_index("sm90_64x128x64_8stage_1cta");
static_assert(kEdgeConfig > 0 && kShapes[kEdgeConfig].layouts == kAllLayouts);

bool plan_grid_split(const GemmProblem& p, const DeviceCaps& caps, int config, bool tiles_split,
                     GridSplit* out) {
  const int64_t clusters = target_sms(p, caps) / kShapes[config].cluster_size;
  if (split_ragged_edge(p, tile_shape(config, p.c_type), clusters, &out->parts)) {
    out->edge_config = kEdgeConfig;
    out->edge_may_decode = true;
    return true;
  }
  if (config != 0 || tiles_split || !split_last_wave(p, clusters, &out->parts)) return false;
  out->edge_config = kHalfColumnsConfig;
  out->edge_may_decode = false;
  return true;
}

bool decode_edge_from_copy(const GemmProblem& edge, const DeviceCaps& caps, GemmProblem* copied,
                           Matrix16* tokens) {
  const size_t bytes = size_t(edge.n) * size_t(edge.k) * dtype_size(edge.ab_type);
  if (!edge.trans_b || edge.batch != 1 || edge.n > kMaxTransposedColumns || edge.k % 8 != 0 ||
      edge.workspace == nullptr || edge.workspace_bytes < bytes ||
      reinterpret_cast<uintptr_t>(edge.workspace) % 16 != 0)
    return false;
  GemmProblem q = edge;
  q.trans_b = false;
  q.b = edge.workspace;
  q.ldb = edge.k;
  q.workspace = nullptr;  // the copy's now
  q.workspace_bytes = 0;
  if (decode::check(q, caps) != BWGEMM_REASON_KERNEL_SELECTED) return false;
  *copied = q;
  *tokens = Matrix16{edge.b, edge.n, edge.k, edge.ldb, 0, 1};
  return true;
}

}  // namespace bwgemm::sm90
