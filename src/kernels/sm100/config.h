// SPDX-License-Identifier: MIT
// The sm100 kernel's tile configuration and shared-memory layout.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/common/smem_budget.h"

namespace bwgemm::sm100 {

// AB: __half or __nv_bfloat16; Out: AB or float. kRowMN / kColMN: the row /
// column operand is stored M/N-contiguous (see kernels/common/kernel_view.h).
template <class AB_, class Out_, bool kRowMN_, bool kColMN_, int kStages_ = 6>
struct Config {
  using AB = AB_;
  using Out = Out_;
  static constexpr bool kRowMN = kRowMN_;
  static constexpr bool kColMN = kColMN_;

  // A CTA pair runs one tcgen05.mma.cta_group::2 of M = 256: each CTA holds
  // 128 rows of the row operand and half of the column block. Blocks are
  // counted per CTA (rows) or per cluster (columns), as in sm90's Config.
  static constexpr int kClusterSize = 2;
  static constexpr int kRowCtas = kClusterSize;  // both CTAs' rows form the MMA's M
  static constexpr int kBlockRows = 128;         // per CTA; the pair's MMA has M = 2 x 128
  static constexpr int kBlockCols = 256;         // per cluster: MMA N, shared by the pair
  static constexpr int kHalfCols = kBlockCols / kClusterSize;  // each CTA loads and holds these
  static constexpr int kBlockK = 64;  // one 128-byte swizzle row of 16-bit K
  static constexpr int kUmmaK = 16;
  static constexpr int kStages = kStages_;

  // Eight warps, in the roles of gemm_kernel.cuh (role_of).
  static constexpr int kThreads = 256;

  // A stage in each CTA's shared memory: its row tile and its half of the
  // column block (the MMA reads the peer's half from the peer).
  static constexpr int kMNBox = 64;  // M/N extent of a box of an M/N-major operand
  static constexpr uint32_t kBoxBytes = kMNBox * kBlockK * 2;
  static constexpr uint32_t kRowTileBytes = kBlockRows * kBlockK * 2;
  static constexpr uint32_t kColTileBytes = kHalfCols * kBlockK * 2;
  static constexpr uint32_t kStageBytes = kRowTileBytes + kColTileBytes;

  // Two fp32 accumulators of 128 lanes x 256 columns: the epilogue drains one
  // while the MMA fills the other.
  static constexpr int kAccumulators = 2;
  static constexpr uint32_t kTmemColumns = kAccumulators * kBlockCols;

  // Epilogue chunks: 128 rows x 128 bytes, one TMA store each, two per
  // staging fill.
  static constexpr int kChunkCols = 128 / int(sizeof(Out));
  static constexpr int kChunks = kBlockCols / kChunkCols;
  static constexpr uint32_t kChunkBytes = kBlockRows * 128;
  static constexpr uint32_t kStagingBytes = 2 * kChunkBytes;
  static constexpr int kChunksPerStaging = kStagingBytes / kChunkBytes;
  // The epilogue reads each chunk from TMEM at a run-time column, so its
  // chunk loops stay rolled: one copy of the per-value epilogue (bias,
  // activation, conversion), not kChunks copies per drain variant.
  static constexpr bool kUnrollChunkLoops = false;

  // Shared memory: stages | staging | barriers | TMEM address slot.
  static constexpr uint32_t kStagingOffset = kStages * kStageBytes;
  static constexpr uint32_t kBarrierOffset = kStagingOffset + kStagingBytes;
  static constexpr int kBarriers = 2 * kStages + 2 * kAccumulators;
  static constexpr uint32_t kTmemSlotOffset = kBarrierOffset + kBarriers * sizeof(uint64_t);
  static constexpr uint32_t kSmemBytes = kTmemSlotOffset + 16;

  // tmem_empty[a] counts one arrival per epilogue warp of both CTAs.
  static constexpr uint32_t kTmemEmptyArrivals = kClusterSize * 4;

  static_assert(std::is_same_v<Out, AB> || std::is_same_v<Out, float>);
  static_assert(kStageBytes % 1024 == 0 && kChunkBytes % 1024 == 0);
  static_assert(kChunks % kChunksPerStaging == 0);
  static_assert(kTmemColumns <= 512 && (kTmemColumns & (kTmemColumns - 1)) == 0);
  // Dynamic plus static shared memory within the limit. The headroom left,
  // kSmemPerBlockOptin - kSmemBytes - kStaticSmemAllowance (1904 bytes with 6
  // stages), is less than 4 KB, and that is safe: the static part is not a
  // guess but checked in every compiled sm100 kernel (check_sass.py), the
  // layout above is exact, and a launch whose total exceeded the device's
  // limit would fail in cudaFuncSetAttribute and go to cuBLAS, never run.
  static_assert(kSmemBytes + kStaticSmemAllowance <= kSmemPerBlockOptin,
                "exceeds the sm100 shared-memory limit per block");
};

// One configuration, compiled for every layout (variant_table.cuh).
constexpr int kConfigCount = 1;
template <class AB, class Out, bool kRowMN, bool kColMN, int kConfig>
using ConfigFor = Config<AB, Out, kRowMN, kColMN>;
constexpr bool layout_compiled(int config, bool, bool) { return config == 0; }

}  // namespace bwgemm::sm100
