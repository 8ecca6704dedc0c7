// SPDX-License-Identifier: MIT
// Where a split tile's pieces meet (tile_split.h), shared by the kernel
// families: no piece waits for another; the last to arrive adds them all.
#pragma once

#include "kernels/common/gemm_params.h"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/global.cuh"
#include "kernels/ptx/index.cuh"

namespace bwgemm {

// One consumer warpgroup's 64-row block of piece `piece` of a split tile;
// `block` numbers the block among the split tiles' blocks (its arrival
// counter). Writes the piece's accumulators to the workspace and counts the
// arrival. The warpgroup whose piece arrives last adds every piece's
// partials, its own read back, in piece order into `acc` and returns true:
// it stores D. The others return false. `barrier_id`: a named barrier of
// the warpgroup's 128 threads.
template <int kAccumulators>
BWGEMM_DEVICE bool gather_pieces(const TileSplitBuffers& split, int64_t block, int32_t piece,
                                 int32_t pieces, uint32_t barrier_id, float (&acc)[kAccumulators]) {
  static_assert(kAccumulators % 4 == 0);
  constexpr int kQuads = kAccumulators / 4;
  constexpr int64_t kPieceFloats = int64_t{kAccumulators} * 128;
  const uint32_t thread = ptx::thread_index() % 128;
  // Quads thread-minor: a warp's 16-byte accesses cover 512 contiguous bytes.
  float* const first = split.partials + block * pieces * kPieceFloats + 4 * thread;
  float* const mine = first + piece * kPieceFloats;
#pragma unroll
  for (int q = 0; q < kQuads; ++q)
    ptx::store_global(mine + q * 512, {acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]});
  // The warpgroup's stores, then its count, each fence on its side of the
  // counter (the release, and on the last piece the acquire of the other
  // pieces' stores), and the answer to every thread.
  ptx::named_barrier_sync(barrier_id, 128);
  bool last = false;
  if (thread == 0) {
    ptx::fence_gpu();
    last = ptx::atomic_add_gpu(&split.arrivals[block], 1) == uint32_t(pieces - 1);
    if (last) ptx::fence_gpu();
  }
  if (!ptx::named_barrier_any(barrier_id, 128, last)) return false;
    // A fixed order whichever piece this is: 0 + p0 + p1 + ... (its own
    // stores are visible to its own loads).
#pragma unroll
  for (float& v : acc) v = 0.0f;
  for (int32_t i = 0; i < pieces; ++i) {
    const float* const partial = first + i * kPieceFloats;
#pragma unroll
    for (int q = 0; q < kQuads; ++q) {
      const ptx::Float4 v = ptx::load_global_l2(partial + q * 512);
      acc[4 * q] += v.x;
      acc[4 * q + 1] += v.y;
      acc[4 * q + 2] += v.z;
      acc[4 * q + 3] += v.w;
    }
  }
  return true;
}

}  // namespace bwgemm
