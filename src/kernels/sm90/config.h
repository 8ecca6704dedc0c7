// SPDX-License-Identifier: MIT
// The sm90 kernel's configurations and shared-memory layout. Tile shapes,
// cluster use and stages are rows of one table (kShapes), instantiated as
// template parameters of the one kernel, so tuning is a table, not a rewrite.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/common/smem_budget.h"

namespace bwgemm::sm90 {

// How the CTAs of a cluster share the work of a cluster tile.
enum class ClusterMode : uint8_t {
  // CTAs stacked along the rows, each loading its own rows and a share of the
  // column block, multicast to every CTA (the column operand is read once).
  kMulticast,
  // Every CTA computes the same tile over its own part of K; the partial fp32
  // tiles are added into rank 0 through distributed shared memory in rank
  // order (bitwise reproducible, no workspace, no atomics), which stores D.
  kSplitK,
};

// One configuration (kernel view, kernel_view.h: rows are cuBLAS's n, columns
// its m). Its name follows the scheme sm90_<cluster tile rows>x<cols>x<K>_
// <stages>stage_<CTAs>cta[_splitk].
struct Shape {
  const char* name;
  int consumers;   // warpgroups per CTA, 64 rows each
  int block_cols;  // the tile's columns (wgmma N), loaded by the cluster
  int cluster_size;
  ClusterMode mode;
  int stages;
  // Which operand layouts are compiled (bit: row_mn * 2 + col_mn); the others
  // run configuration 0. Only what the selection can pick is instantiated.
  uint8_t layouts;
  // May be launched as a programmatic dependent, where it follows a grid that
  // releases its dependents early (core/launch_order.h): the prologue then
  // overlaps that grid. Every configuration's kernel waits for the previous
  // grid (griddepcontrol.wait) before touching memory. Configuration 0 keeps
  // its plain launch: with PDL it was level at 4096^3 and faster only on
  // shapes the dispatcher gives cuBLAS (docs/perf.md v27).
  bool programmatic;
  // Row windows (gemm_params.h, RowClassUse::kRowWindows): an M/N-major row
  // operand with any leading dimension is fetched as 16-byte-aligned windows
  // by k residue class into this many window buffers, and shifted into the
  // stage by the producer warpgroup's warps. 0: the row operand is loaded by
  // TMA as it is.
  int row_windows = 0;
  // Each consumer's epilogue staging, at most (a whole 16-bit 64 x 256
  // block in 32 KB; less stores the block in turns).
  uint32_t staging_limit = 32 * 1024;
  // Rows of the row operand each stage holds, where fewer than the
  // consumers' 64 (0: all of them): decode GEMMs, whose row operand is at
  // most this many tokens. The wgmma still reads 64 rows; the rest are the
  // start of the stage's column tile, whose products land in rows past the
  // tokens (never stored), so each stage keeps room for weight, not zeros.
  int row_tile_rows = 0;
  // CTAs an SM can hold at once: the kernel's registers and shared memory
  // are sized for this many (2 measured faster for decode, docs/perf.md v26;
  // why was not profiled).
  int ctas_per_sm = 1;
  // Row windows read without shifting: each k block's window lands in its
  // stage, and the consumers load their wgmma A fragments from it (any
  // element offset) into registers. The column operand, M/N-major, is loaded
  // in the windows' k order (by class, then by k within the class), so that
  // one load of a warp reads one class's rows 2 apart: no bank conflicts.
  // Needs k % 8 == 0 (launch_params.h).
  bool register_windows = false;
  // Where the launch splits the last wave's tiles over K (tile_split.h), the
  // kernel runs their pieces and adds them (tile_split.cuh).
  bool split_tiles = false;
};

constexpr uint8_t kAllLayouts = 0xF;
// Decode (n <= 64 tokens against a weight): B is K-major (op(B) = B, k x n),
// A is the weight, TN (K-major) or NN (M-major).
constexpr uint8_t kDecodeLayouts = 0x3;
// Row windows read M/N-major row operands only.
constexpr uint8_t kRowMNLayouts = 0xC;
constexpr uint8_t kRowMNColMNLayout = 0x8;

inline constexpr Shape kShapes[] = {
    // The large-shape configuration (docs/perf.md).
    {"sm90_256x256x64_3stage_2cta", 2, 256, 2, ClusterMode::kMulticast, 3, kAllLayouts, false, 0,
     32 * 1024, 0, 1, false, true},
    // A quarter of the tile for small and skinny shapes: 4x the tiles.
    {"sm90_128x128x64_6stage_2cta", 1, 128, 2, ClusterMode::kMulticast, 6, kAllLayouts, true},
    // One CTA, 64 x 128: 8x the tiles of configuration 0, no cluster.
    {"sm90_64x128x64_8stage_1cta", 1, 128, 1, ClusterMode::kMulticast, 8, kAllLayouts, true},
    // Decode, n <= 64: 64 x 64 tiles streaming the weight with deep rings,
    // alone or with K split over 2 or 4 CTAs to cover every SM.
    {"sm90_64x64x64_12stage_1cta", 1, 64, 1, ClusterMode::kMulticast, 12, kDecodeLayouts, true},
    {"sm90_64x64x64_12stage_2cta_splitk", 1, 64, 2, ClusterMode::kSplitK, 12, kDecodeLayouts, true},
    {"sm90_64x64x64_10stage_4cta_splitk", 1, 64, 4, ClusterMode::kSplitK, 10, kDecodeLayouts, true},
    // Half of configuration 0's columns: twice its tiles, for shapes whose
    // 256 x 256 tiles leave most of a last wave idle (4097 x 4095 x 4096: 272
    // tiles on 66 clusters; policy.cpp says where).
    {"sm90_256x128x64_5stage_2cta", 2, 128, 2, ClusterMode::kMulticast, 5, kAllLayouts, false},
    // Configuration 0 reading an M/N-major row operand that TMA cannot
    // address as it is (GPT-2's weight gradient, NT with ldb 50257) through
    // row windows instead of a packed copy: two 17 KB window buffers, paid
    // for by half the epilogue staging.
    {"sm90_256x256x64_3stage_2cta_windows", 2, 256, 2, ClusterMode::kMulticast, 3, kRowMNLayouts,
     false, 2, 16 * 1024},
    // Decode at up to 32 tokens: the split-K pair with stages of 32 token rows
    // and 64 weight rows (12 KB), 6 of them so that two CTAs share an SM
    // (faster than 16 stages, one CTA per SM: docs/perf.md v26). Run only
    // where named: in a model it lost to cuBLAS (policy.cpp).
    {"sm90_32x64x64_6stage_2cta_splitk", 1, 64, 2, ClusterMode::kSplitK, 6, kDecodeLayouts, true, 0,
     32 * 1024, 32, 2},
    // Configuration 0 reading an M/N-major row operand through row windows
    // in its stages, into the consumers' registers, where the column operand
    // is M/N-major too (GPT-2's weight gradient, NT): no shifter warps, no
    // shifted copy in shared memory.
    {"sm90_256x256x64_3stage_2cta_regwindows", 2, 256, 2, ClusterMode::kMulticast, 3,
     kRowMNColMNLayout, false, 0, 32 * 1024, 0, 1, true},
};
constexpr int kConfigCount = int(sizeof kShapes / sizeof kShapes[0]);

// The row of kShapes named `name`, or -1 (for tables that name a row).
constexpr int shape_index(const char* name) {
  for (int c = 0; c < kConfigCount; ++c) {
    const char* a = kShapes[c].name;
    int i = 0;
    while (a[i] != '\0' && a[i] == name[i]) ++i;
    if (a[i] == name[i]) return c;
  }
  return -1;
}

// AB: __half or __nv_bfloat16; Out: AB or float. kRowMN / kColMN: the row /
// column operand is stored M/N-contiguous (see kernel_view.h). kConfig: the
// row of kShapes.
template <class AB_, class Out_, bool kRowMN_, bool kColMN_, int kConfig_ = 0>
struct Config {
  using AB = AB_;
  using Out = Out_;
  static constexpr bool kRowMN = kRowMN_;
  static constexpr bool kColMN = kColMN_;
  static constexpr int kConfig = kConfig_;
  static constexpr Shape kShape = kShapes[kConfig];

  // Blocks are counted per CTA (rows) or per cluster (columns), as in
  // sm100's Config.
  static constexpr int kClusterSize = kShape.cluster_size;
  static constexpr bool kSplitK = kShape.mode == ClusterMode::kSplitK;
  static constexpr bool kMulticast = !kSplitK && kClusterSize > 1;
  static constexpr int kRowCtas = kSplitK ? 1 : kClusterSize;  // CTAs stacked along the rows
  static constexpr int kConsumers = kShape.consumers;          // warpgroups, 64 rows each
  static constexpr int kThreads = 128 * (1 + kConsumers);
  static constexpr int kBlockRows = 64 * kConsumers;    // per CTA
  static constexpr int kBlockCols = kShape.block_cols;  // per cluster tile: wgmma N
  static constexpr int kBlockK = 64;                    // one 128-byte swizzle row of 16-bit K
  static constexpr int kStages = kShape.stages;
  // The columns each CTA loads: its share of a multicast block, else all.
  static constexpr int kLoadedCols = kMulticast ? kBlockCols / kClusterSize : kBlockCols;

  // Row windows (Shape::row_windows): a window holds one k block of the CTA's
  // rows, by k residue class (gemm_params.h), each class's 8 k as rows of
  // the block's rows plus the 8 elements a shift can move them by (16-byte
  // multiples, as an unswizzled box's rows must be). The producer warpgroup's
  // four warps, the TMA one among them, shift them into the stage: two
  // classes each (three shifters measured 0.69x of cuBLAS's aligned call on
  // GPT-2's weight gradient, the consumers waiting on them: docs/perf.md v23).
  // With register windows (Shape::register_windows) a stage's row tile is
  // its window instead, and nothing shifts it.
  static constexpr bool kSplitTiles = kShape.split_tiles;
  static constexpr int kRowWindows = kShape.row_windows;
  static constexpr bool kRegisterWindows = kShape.register_windows;
  static constexpr uint32_t kWindowRowBytes = (kBlockRows + 8) * 2;
  static constexpr uint32_t kWindowClassBytes = kBlockK / 8 * kWindowRowBytes;
  static constexpr uint32_t kWindowBytes = 8 * kWindowClassBytes;
  static constexpr int kShifterWarps = 4;

  // A stage in each CTA's shared memory: its row tile and the whole column
  // block (each CTA multicasts its share into all, or loads it all).
  // A TMA box of an M/N-major operand: 64 elements of M/N by kBlockK.
  static constexpr int kMNBox = 64;
  static constexpr uint32_t kBoxBytes = kMNBox * kBlockK * 2;
  // The rows of the row tile each stage holds (Shape::row_tile_rows).
  static constexpr int kLoadedRows = kShape.row_tile_rows > 0 ? kShape.row_tile_rows : kBlockRows;
  // A register window's row tile ends 1024-byte aligned, for the column tile after it.
  static constexpr uint32_t kRowTileBytes =
      kRegisterWindows ? (kWindowBytes + 1023) / 1024 * 1024 : kLoadedRows * kBlockK * 2;
  static constexpr uint32_t kColTileBytes = kBlockCols * kBlockK * 2;
  static constexpr uint32_t kStageBytes = kRowTileBytes + kColTileBytes;

  // Epilogue: each consumer converts its 64 x kBlockCols block into chunks of
  // 64 rows x 128 bytes (one TMA store each) in its own staging buffer,
  // issues the stores and goes on to the next tile while they drain. The
  // buffer holds up to Shape::staging_limit bytes (32 KB: a whole 16-bit
  // 64 x 256 block, or half an fp32 one); a block larger than it is stored in
  // turns, each waiting for the previous turn's stores to have read it.
  static constexpr int kChunkCols = 128 / int(sizeof(Out));
  static constexpr int kChunks = kBlockCols / kChunkCols;
  static constexpr uint32_t kChunkBytes = 64 * 128;
  static constexpr uint32_t kStagingBytes =
      kChunks * kChunkBytes < kShape.staging_limit ? kChunks * kChunkBytes : kShape.staging_limit;
  static constexpr int kChunksPerStaging = kStagingBytes / kChunkBytes;
  // The accumulators are registers: each chunk's index must be known at
  // compile time, so the epilogue's chunk loops are unrolled.
  static constexpr bool kUnrollChunkLoops = true;

  // Split-K: rank 0 holds a slot per other rank and consumer for its fp32
  // partial block (each thread's accumulators, as float2 pairs, thread-minor).
  static constexpr int kAccumulators = kBlockCols / 2;  // per consumer thread
  static constexpr uint32_t kReduceSlotBytes = 128 * kAccumulators * 4;
  static constexpr uint32_t kReduceBytes =
      kSplitK ? (kClusterSize - 1) * kConsumers * kReduceSlotBytes : 0;

  // Shared memory: stages | staging buffers | split-K slots | row windows |
  // full and empty barriers | split-K reduce_full and reduce_empty barriers
  // per consumer | the row windows' full and empty barriers.
  // Every tile is 1024-byte aligned, as 128B swizzling requires.
  static constexpr uint32_t kStagingOffset = kStages * kStageBytes;
  static constexpr uint32_t kReduceOffset = kStagingOffset + kConsumers * kStagingBytes;
  static constexpr uint32_t kWindowOffset = kReduceOffset + kReduceBytes;
  static constexpr uint32_t kBarrierOffset = kWindowOffset + kRowWindows * kWindowBytes;
  static constexpr int kBarriers = 2 * kStages + (kSplitK ? 2 * kConsumers : 0) + 2 * kRowWindows;
  static constexpr uint32_t kSmemBytes = kBarrierOffset + kBarriers * sizeof(uint64_t);

  // empty[s] is released by every consumer warp of the CTAs the stage's data
  // lands in: with multicast, the peer's column share lands here too.
  static constexpr uint32_t kEmptyArrivals = (kMulticast ? kClusterSize : 1) * kConsumers * 4;
  // full[s] completes on the TMA bytes after the TMA thread's arrival, and
  // with row windows after each shifter warp's too (the TMA warp's included).
  static constexpr uint32_t kFullArrivals = kRowWindows > 0 ? 1 + kShifterWarps : 1;
  // reduce_full (rank 0): every thread of the consumer in each other rank;
  // reduce_empty (other ranks): every thread of rank 0's consumer.
  static constexpr uint32_t kReduceFullArrivals = (kClusterSize - 1) * 128;
  static constexpr uint32_t kReduceEmptyArrivals = 128;

  // Register split: the producer keeps little, the consumers hold up to 128
  // fp32 accumulators each. setmaxnreg moves registers within the CTA's
  // pool, what its threads got at launch (ptxas gives 384-thread kernels 168
  // each): a request beyond it never returns, and the kernel hangs. The
  // static_assert below holds the split to the most ptxas can give at launch;
  // it may give fewer, so tests/sass/check_sass.py checks every kernel
  // against the count it actually got. Two CTAs per SM halve the pool to 128
  // a thread: the consumers then take 208 (at most 216 fit beside the
  // producer's 40; a 64-column block needs 32 accumulators).
  static constexpr int kCtasPerSm = kShape.ctas_per_sm;
  static constexpr uint32_t kProducerRegisters = 40;
  static constexpr uint32_t kConsumerRegisters = kCtasPerSm == 1 ? 232 : 208;
  static constexpr uint32_t kLaunchRegisterCap =
      (65536 / kCtasPerSm / kThreads < 255 ? 65536 / kCtasPerSm / kThreads : 255) / 8 * 8;

  static_assert(std::is_same_v<Out, AB> || std::is_same_v<Out, float>);
  static_assert(kConsumers == 1 || kConsumers == 2);
  static_assert(kBlockCols == 64 || kBlockCols == 128 || kBlockCols == 256);
  static_assert(!kMulticast || kClusterSize == 2, "multicast pairs only");
  static_assert(kClusterSize >= 1 && kClusterSize <= 8, "portable cluster sizes");
  // M/N-major operands load 64-element boxes: every CTA's share is whole boxes.
  static_assert(kLoadedCols % kMNBox == 0);
  static_assert(kStageBytes % 1024 == 0 && kStagingBytes % 1024 == 0 && kReduceBytes % 1024 == 0);
  // Fewer rows per stage: whole 8-row swizzle atoms of a K-major row operand,
  // and the 64 rows the wgmma reads end inside the stage.
  static_assert(kLoadedRows == kBlockRows ||
                    (kConsumers == 1 && !kRowMN && kRowWindows == 0 && kLoadedRows % 8 == 0 &&
                     kBlockRows * kBlockK * 2 <= kStageBytes),
                "a partial row tile: one consumer, K-major rows, inside the stage");
  static_assert(kChunks % kChunksPerStaging == 0);
  static_assert(kSmemBytes <= kSmemPerBlockOptin, "exceeds the sm90 shared-memory limit per block");
  static_assert(kCtasPerSm == 1 || kCtasPerSm == 2);
  // Two CTAs: each one's dynamic and static shared memory and the 1 KB the
  // system reserves per CTA within the SM's 228 KB.
  static_assert(kCtasPerSm == 1 ||
                    (kSmemBytes + kStaticSmemAllowance + kSmemReservedPerBlock) * kCtasPerSm <=
                        kSmemPerSm,
                "the CTAs per SM do not fit one SM's shared memory");
  // (Only M/N-major row operands are compiled with row windows: kRowMNLayouts;
  // shift_window asserts it.)
  static_assert(!kRegisterWindows || (kRowWindows == 0 && kMulticast && kBlockCols == 256),
                "register windows: no shifters, configuration 0's tiles");
  static_assert(!kSplitTiles || (!kSplitK && kRowWindows == 0 && !kRegisterWindows),
                "split tiles: whole k blocks per CTA, read by TMA");
  static_assert(kRowWindows == 0 || !kSplitK,
                "row windows: the shifters run every k block, not a split-K share");
  static_assert(kWindowClassBytes % 128 == 0, "each class's box lands 128-byte aligned");
  // The TMA warp shifts one window behind its loads: k block j's loads wait
  // for stage j - kStages to be released, which needs k block j - kStages + 1
  // shifted (the consumers release a stage after the next one is full), and
  // for window j - kRowWindows, shifted after k block j - kRowWindows + 1's
  // loads. Fewer stages or windows would wait on the warp's own later work.
  static_assert(kRowWindows == 0 || (kStages >= 3 && kRowWindows >= 2),
                "row windows: the TMA warp's one-behind shift needs 3 stages and 2 windows");
  static_assert(kProducerRegisters + kConsumerRegisters * kConsumers <=
                (1 + kConsumers) * kLaunchRegisterCap);
};

// What the variant tables instantiate (variant_table.cuh).
template <class AB, class Out, bool kRowMN, bool kColMN, int kConfig>
using ConfigFor = Config<AB, Out, kRowMN, kColMN, kConfig>;

constexpr bool layout_compiled(int config, bool row_mn, bool col_mn) {
  return (kShapes[config].layouts >> (int(row_mn) * 2 + int(col_mn))) & 1;
}

}  // namespace bwgemm::sm90
