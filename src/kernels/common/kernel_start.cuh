// SPDX-License-Identifier: MIT
// What both kernel families do before their roles start: one thread
// initialises the barrier rings and prefetches the tensor maps, and every
// thread derives the k-block count from the launch's alpha.
#pragma once

#include "kernels/common/gemm_params.h"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/tma.cuh"

namespace bwgemm {

// A ring of `size` full/empty barrier pairs; full[i] and empty[i] are arrays.
struct BarrierRing {
  ptx::Mbarrier* full;
  ptx::Mbarrier* empty;
  int size;
  uint32_t full_arrivals;
  uint32_t empty_arrivals;
};

// One thread: initialises each ring pair by pair, then makes them visible to
// the cluster; a cluster barrier must follow before anyone uses them.
template <class... Rings>
BWGEMM_DEVICE void init_barrier_rings(const Rings&... rings) {
  const auto init = [](const BarrierRing& ring) {
    for (int i = 0; i < ring.size; ++i) {
      ptx::mbarrier_init(ring.full + i, ring.full_arrivals);
      ptx::mbarrier_init(ring.empty + i, ring.empty_arrivals);
    }
  };
  (init(rings), ...);
  ptx::fence_mbarrier_init();
}

// One thread: brings the tensor maps into the cache before their first use;
// the operand maps only where a mainloop will read them, D's only where TMA
// stores it.
// With row classes, the classes' maps are read instead of row and out_map
// (with row windows instead of row).
BWGEMM_DEVICE void prefetch_maps(const GemmParams& p) {
  if (p.depth > 0) {
    if (p.classes.use == RowClassUse::kNone) ptx::prefetch_tensor_map(&p.row.map);
    ptx::prefetch_tensor_map(&p.col.map);
  }
  if (!p.out_rotated && !cuts_rows(p.classes.use)) ptx::prefetch_tensor_map(&p.out_map);
}

// The k blocks of kBlockK every tile's mainloop runs. alpha == 0 reads
// neither operand and k == 0 has nothing to read: both give D = beta * D with
// no mainloop at all, in every CTA alike.
template <int kBlockK>
BWGEMM_DEVICE int32_t k_block_count(int32_t depth, float alpha) {
  return (depth > 0 && alpha != 0.0f) ? (depth + kBlockK - 1) / kBlockK : 0;
}

}  // namespace bwgemm
