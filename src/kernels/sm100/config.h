// SPDX-License-Identifier: MIT
// The sm100 kernel's configurations and shared-memory layout. Tile shapes,
// cluster use and stages are rows of one table (kShapes), instantiated as
// template parameters of the one kernel, as sm90's are.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/common/smem_budget.h"

namespace bwgemm::sm100 {

// How the CTAs of a cluster share the work of a cluster tile.
enum class ClusterMode : uint8_t {
  // A CTA pair runs one tcgen05.mma.cta_group::2 of M = 256: each CTA holds
  // 128 rows of the row operand and half of the column block, and the even
  // CTA's MMA thread multiplies the pair's tile into both CTAs' TMEM.
  kPair,
  // One CTA, its own tcgen05.mma.cta_group::1 of M = 128 over the whole
  // column block.
  kSingle,
  // Every CTA of the cluster computes the same 128-row tile over its own
  // part of K (cta_group::1); the other ranks push their fp32 partial tiles
  // into rank 0's shared memory (distributed shared memory), which adds them
  // in rank order (bitwise reproducible, no workspace, no atomics) and
  // stores D. sm90's split-K in the tcgen05 family.
  kSplitK,
};

// One configuration (kernel view, kernel_view.h: rows are cuBLAS's n, columns
// its m). Its name follows sm90's scheme, sm100_<cluster tile rows>x<cols>x<K>_
// <stages>stage_<CTAs>cta[_splitk]_tmem<accumulators>.
struct Shape {
  const char* name;
  ClusterMode mode;
  int cluster_size;
  int block_cols;  // the tile's columns: MMA N
  int stages;
  // Which operand layouts are compiled (bit: row_mn * 2 + col_mn), as in
  // sm90's table.
  uint8_t layouts;
};

constexpr uint8_t kAllLayouts = 0xF;
// Decode (a few tokens against a weight): the tokens, the row operand,
// K-major (cuBLAS's B not transposed), the weight either way.
constexpr uint8_t kDecodeLayouts = 0x3;

// Nothing here has run on Blackwell (no such GPU was reachable): the
// smaller configurations follow sm90's for small and skinny shapes, and run
// only where named (BWGEMM_SM100_CONFIG, or a policy file that bwgemm-bench
// --tune measured on the user's GPU).
inline constexpr Shape kShapes[] = {
    // The large-shape configuration: 256 x 256 tiles of the pair's M = 256.
    {"sm100_256x256x64_6stage_2cta_tmem2", ClusterMode::kPair, 2, 256, 6, kAllLayouts},
    // A quarter of its tile, one CTA: 4x the tiles for small shapes.
    {"sm100_128x128x64_6stage_1cta_tmem2", ClusterMode::kSingle, 1, 128, 6, kAllLayouts},
    // Skinny shapes with a long K (decode: a weight by a few tokens): 128 x
    // 64 tiles with K split over a CTA pair, so that a few tiles cover twice
    // the SMs.
    {"sm100_128x64x64_6stage_2cta_splitk_tmem2", ClusterMode::kSplitK, 2, 64, 6, kDecodeLayouts},
};
constexpr int kConfigCount = int(sizeof kShapes / sizeof kShapes[0]);

// AB: __half or __nv_bfloat16; Out: AB or float. kRowMN / kColMN: the row /
// column operand is stored M/N-contiguous (see kernels/common/kernel_view.h).
// kConfig: the row of kShapes.
template <class AB_, class Out_, bool kRowMN_, bool kColMN_, int kConfig_ = 0>
struct Config {
  using AB = AB_;
  using Out = Out_;
  static constexpr bool kRowMN = kRowMN_;
  static constexpr bool kColMN = kColMN_;
  static constexpr int kConfig = kConfig_;
  static constexpr Shape kShape = kShapes[kConfig];

  // Blocks are counted per CTA (rows) or per cluster (columns), as in sm90's
  // Config. The pair's MMA has M = 2 x 128 across both CTAs; the others each
  // CTA's own M = 128.
  static constexpr int kClusterSize = kShape.cluster_size;
  static constexpr bool kPair = kShape.mode == ClusterMode::kPair;
  static constexpr bool kSplitK = kShape.mode == ClusterMode::kSplitK;
  // The scheduler never splits this family's tiles over K (tile_split.h).
  static constexpr bool kSplitTiles = false;
  static constexpr int kCtaGroup = kPair ? 2 : 1;  // tcgen05's .cta_group
  static constexpr int kRowCtas = kPair ? 2 : 1;   // CTAs stacked along the rows
  static constexpr int kBlockRows = 128;           // per CTA: TMEM's lanes
  static constexpr int kMmaRows = kCtaGroup * kBlockRows;
  static constexpr int kBlockCols = kShape.block_cols;  // per cluster: MMA N
  // The columns each CTA loads and holds: with the pair its half (the MMA
  // reads the peer's half from the peer), else all.
  static constexpr int kLoadedCols = kBlockCols / kRowCtas;
  static constexpr int kBlockK = 64;  // one 128-byte swizzle row of 16-bit K
  static constexpr int kUmmaK = 16;
  static constexpr int kStages = kShape.stages;

  // Eight warps, in the roles of gemm_kernel.cuh (role_of).
  static constexpr int kThreads = 256;

  // A stage in each CTA's shared memory: its row tile and its columns.
  static constexpr int kMNBox = 64;  // M/N extent of a box of an M/N-major operand
  static constexpr uint32_t kBoxBytes = kMNBox * kBlockK * 2;
  static constexpr uint32_t kRowTileBytes = kBlockRows * kBlockK * 2;
  static constexpr uint32_t kColTileBytes = kLoadedCols * kBlockK * 2;
  static constexpr uint32_t kStageBytes = kRowTileBytes + kColTileBytes;

  // Two fp32 accumulators of 128 lanes x kBlockCols columns: the epilogue
  // drains one while the MMA fills the other.
  static constexpr int kAccumulators = 2;
  static constexpr uint32_t kTmemColumns = kAccumulators * kBlockCols;

  // Epilogue chunks: 128 rows x 128 bytes, one TMA store each, up to two per
  // staging fill.
  static constexpr int kChunkCols = 128 / int(sizeof(Out));
  static constexpr int kChunks = kBlockCols / kChunkCols;
  static constexpr uint32_t kChunkBytes = kBlockRows * 128;
  static constexpr int kChunksPerStaging = kChunks < 2 ? kChunks : 2;
  static constexpr uint32_t kStagingBytes = kChunksPerStaging * kChunkBytes;
  // The epilogue reads each chunk from TMEM at a run-time column, so its
  // chunk loops stay rolled: one copy of the per-value epilogue (bias,
  // activation, conversion), not kChunks copies per drain variant.
  static constexpr bool kUnrollChunkLoops = false;

  // Split-K: rank 0 holds a slot per other rank for its fp32 partial tile,
  // as float pairs, thread-minor (a thread's pairs 128 pairs apart: TMEM
  // lane = thread = row, so the pushes and reads are conflict-free).
  static constexpr uint32_t kReduceSlotBytes = kBlockRows * kBlockCols * 4;
  static constexpr uint32_t kReduceBytes = kSplitK ? (kClusterSize - 1) * kReduceSlotBytes : 0;

  // Shared memory: stages | staging | split-K slots | barriers (the stage
  // ring's, the TMEM ring's, split-K's reduce_full and reduce_empty) | TMEM
  // address slot and the epilogue's failure vote.
  static constexpr uint32_t kStagingOffset = kStages * kStageBytes;
  static constexpr uint32_t kReduceOffset = kStagingOffset + kStagingBytes;
  static constexpr uint32_t kBarrierOffset = kReduceOffset + kReduceBytes;
  static constexpr int kBarriers = 2 * kStages + 2 * kAccumulators + (kSplitK ? 2 : 0);
  static constexpr uint32_t kTmemSlotOffset = kBarrierOffset + kBarriers * sizeof(uint64_t);
  static constexpr uint32_t kSmemBytes = kTmemSlotOffset + 16;

  // tmem_empty[a] counts one arrival per epilogue warp of the CTAs whose
  // TMEM the MMA wrote: both with the pair, else its own.
  static constexpr uint32_t kTmemEmptyArrivals = kRowCtas * 4;
  // reduce_full (rank 0): every epilogue thread of each other rank;
  // reduce_empty (other ranks): every epilogue thread of rank 0.
  static constexpr uint32_t kReduceFullArrivals = (kClusterSize - 1) * 128;
  static constexpr uint32_t kReduceEmptyArrivals = 128;

  static_assert(std::is_same_v<Out, AB> || std::is_same_v<Out, float>);
  static_assert(kPair     ? kClusterSize == 2
                : kSplitK ? kClusterSize >= 2
                          : kClusterSize == 1,
                "a pair is two CTAs, a split a cluster, a single CTA none");
  static_assert(kClusterSize <= 8, "portable cluster sizes");
  // MMA N for M = 128 / 256 (kind::f16): a multiple of 16 up to 256; and
  // whole 64-element boxes of an M/N-major operand in each CTA's share.
  static_assert(kBlockCols % 16 == 0 && kBlockCols <= 256 && kLoadedCols % kMNBox == 0);
  static_assert(kStageBytes % 1024 == 0 && kChunkBytes % 1024 == 0 && kReduceBytes % 1024 == 0);
  static_assert(kChunks % kChunksPerStaging == 0);
  static_assert(kTmemColumns >= 32 && kTmemColumns <= 512 &&
                (kTmemColumns & (kTmemColumns - 1)) == 0);
  // Dynamic plus static shared memory within the limit. The headroom left,
  // kSmemPerBlockOptin - kSmemBytes - kStaticSmemAllowance (1904 bytes for
  // configuration 0), is less than 4 KB, and that is safe: the static part is
  // not a guess but checked in every compiled sm100 kernel (check_sass.py),
  // the layout above is exact, and a launch whose total exceeded the
  // device's limit would fail in cudaFuncSetAttribute and go to cuBLAS,
  // never run.
  static_assert(kSmemBytes + kStaticSmemAllowance <= kSmemPerBlockOptin,
                "exceeds the sm100 shared-memory limit per block");
};

// What the variant tables instantiate (variant_table.cuh).
template <class AB, class Out, bool kRowMN, bool kColMN, int kConfig>
using ConfigFor = Config<AB, Out, kRowMN, kColMN, kConfig>;
constexpr bool layout_compiled(int config, bool row_mn, bool col_mn) {
  return config >= 0 && config < kConfigCount &&
         ((kShapes[config].layouts >> (int(row_mn) * 2 + int(col_mn))) & 1);
}

}  // namespace bwgemm::sm100
