// SPDX-License-Identifier: MIT
// The sm90 kernel's tile configuration and shared-memory layout. Tile shapes
// and stages are template parameters, so tuning is a table, not a rewrite.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace bwgemm::sm90 {

// AB: __half or __nv_bfloat16; Out: AB or float. kRowMN / kColMN: the row /
// column operand is stored M/N-contiguous (see kernel_view.h).
template <class AB_, class Out_, bool kRowMN_, bool kColMN_, int kStages_ = 3>
struct Config {
  using AB = AB_;
  using Out = Out_;
  static constexpr bool kRowMN = kRowMN_;
  static constexpr bool kColMN = kColMN_;

  // Blocks are counted per CTA (rows) or per cluster (columns), as in
  // sm100's Config.
  static constexpr int kClusterSize = 2;  // the pair shares the column operand
  static constexpr int kConsumers = 2;    // warpgroups, 64 rows each
  static constexpr int kThreads = 128 * (1 + kConsumers);
  static constexpr int kBlockRows = 64 * kConsumers;  // per CTA
  static constexpr int kBlockCols = 256;              // per cluster: wgmma N, shared by the pair
  static constexpr int kBlockK = 64;                  // one 128-byte swizzle row of 16-bit K
  static constexpr int kStages = kStages_;
  static constexpr int kHalfCols = kBlockCols / kClusterSize;  // each CTA loads these

  // A stage in each CTA's shared memory: its row tile and the whole column
  // block (each CTA multicasts its half into both).
  // A TMA box of an M/N-major operand: 64 elements of M/N by kBlockK.
  static constexpr int kMNBox = 64;
  static constexpr uint32_t kBoxBytes = kMNBox * kBlockK * 2;
  static constexpr uint32_t kRowTileBytes = kBlockRows * kBlockK * 2;
  static constexpr uint32_t kColTileBytes = kBlockCols * kBlockK * 2;
  static constexpr uint32_t kStageBytes = kRowTileBytes + kColTileBytes;

  // Epilogue: each consumer converts its 64 x 256 block into chunks of 64 rows
  // x 128 bytes (one TMA store each) in its own staging buffer, issues the
  // stores and goes on to the next tile while they drain. 32 KB hold a whole
  // 16-bit block, or half an fp32 one (then the second half waits for the
  // first half's stores to have read the buffer).
  static constexpr int kChunkCols = 128 / int(sizeof(Out));
  static constexpr int kChunks = kBlockCols / kChunkCols;
  static constexpr uint32_t kChunkBytes = 64 * 128;
  static constexpr uint32_t kStagingBytes = 32 * 1024;
  static constexpr int kChunksPerStaging = kStagingBytes / kChunkBytes;

  // Shared memory: stages | staging buffers | full and empty barriers. Every
  // tile is 1024-byte aligned, as 128B swizzling requires.
  static constexpr uint32_t kStagingOffset = kStages * kStageBytes;
  static constexpr uint32_t kBarrierOffset = kStagingOffset + kConsumers * kStagingBytes;
  static constexpr uint32_t kSmemBytes = kBarrierOffset + 2 * kStages * sizeof(uint64_t);

  // empty[s] is released by every consumer warp of both CTAs: the peer's
  // column half lands in this CTA's stage too.
  static constexpr uint32_t kEmptyArrivals = kClusterSize * kConsumers * 4;

  // Register split: the producer keeps little, the consumers hold 128 fp32
  // accumulators each.
  static constexpr uint32_t kProducerRegisters = 40;
  static constexpr uint32_t kConsumerRegisters = 232;

  static_assert(std::is_same_v<Out, AB> || std::is_same_v<Out, float>);
  static_assert(kStageBytes % 1024 == 0 && kStagingBytes % 1024 == 0);
  static_assert(kChunks % kChunksPerStaging == 0);
  static_assert(kSmemBytes <= 232448, "exceeds the sm90 shared-memory limit per block");
  static_assert(kProducerRegisters * 128 + kConsumerRegisters * 128 * kConsumers <= 65536);
};

}  // namespace bwgemm::sm90
