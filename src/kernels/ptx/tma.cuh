// SPDX-License-Identifier: MIT
// Tensor (TMA) copies between global and shared memory (PTX ISA 9.7.9.25).
// Coordinates are in elements, innermost first; 3-D maps carry the batch.
#pragma once

#include <cuda.h>

#include "kernels/ptx/barrier.cuh"

namespace bwgemm::ptx {

using TensorMap = CUtensorMap;

BWGEMM_DEVICE void prefetch_tensor_map(const TensorMap* map) {
#if defined(BWGEMM_EMU)
  emu::prefetch_tensor_map(map);
#else
  asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
#endif
}

// Loads one box into this CTA's shared memory; completes `bytes` on `bar`.
BWGEMM_DEVICE void tma_load_3d(void* dst, const TensorMap* map, Mbarrier* bar, int32_t c0,
                               int32_t c1, int32_t c2) {
#if defined(BWGEMM_EMU)
  emu::tma_load_3d(dst, map, bar, c0, c1, c2);
#else
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(smem_address(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(smem_address(bar))
      : "memory");
#endif
}

// Loads one box into the same shared-memory offset of every CTA in
// `cta_mask`; each destination's barrier at `bar`'s offset sees the bytes.
BWGEMM_DEVICE void tma_load_3d_multicast(void* dst, const TensorMap* map, Mbarrier* bar,
                                         uint16_t cta_mask, int32_t c0, int32_t c1, int32_t c2) {
#if defined(BWGEMM_EMU)
  emu::tma_load_3d_multicast(dst, map, bar, cta_mask, c0, c1, c2);
#else
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(smem_address(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(smem_address(bar)), "h"(cta_mask)
      : "memory");
#endif
}

// Stores one box from shared memory; out-of-range elements are clipped (the
// innermost dimension only at 16-byte granularity, as measured on H200).
BWGEMM_DEVICE void tma_store_3d(const TensorMap* map, const void* src, int32_t c0, int32_t c1,
                                int32_t c2) {
#if defined(BWGEMM_EMU)
  emu::tma_store_3d(map, src, c0, c1, c2);
#else
  asm volatile(
      "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(
          map),
      "r"(c0), "r"(c1), "r"(c2), "r"(smem_address(src))
      : "memory");
#endif
}

// Closes the bulk group of this thread's stores issued so far.
BWGEMM_DEVICE void tma_store_commit() {
#if defined(BWGEMM_EMU)
  emu::tma_store_commit();
#else
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}

// Waits until at most kPending of this thread's bulk groups still read their
// shared-memory source.
template <int kPending>
BWGEMM_DEVICE void tma_store_wait_read() {
#if defined(BWGEMM_EMU)
  emu::tma_store_wait(kPending, true);
#else
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kPending) : "memory");
#endif
}

// Waits until at most kPending of this thread's bulk groups are incomplete.
template <int kPending>
BWGEMM_DEVICE void tma_store_wait() {
#if defined(BWGEMM_EMU)
  emu::tma_store_wait(kPending, false);
#else
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(kPending) : "memory");
#endif
}

}  // namespace bwgemm::ptx
