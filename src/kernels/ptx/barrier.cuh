// SPDX-License-Identifier: MIT
// mbarrier objects, named barriers and cluster barriers (PTX ISA 9.7.13.15,
// 9.7.13.1, 9.7.13.2). The mbarrier operations keep PTX's default semantics
// (release/acquire at CTA scope): a .cluster scope costs a MEMBAR.ALL.GPU
// per arrive and an L1 invalidation per wait, and the data they guard moves
// through the async proxy (TMA, wgmma), which the barrier itself orders.
#pragma once

#include "kernels/ptx/index.cuh"

namespace bwgemm::ptx {

using Mbarrier = uint64_t;

BWGEMM_DEVICE void mbarrier_init(Mbarrier* bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_address(bar)), "r"(arrivals)
               : "memory");
}

// Makes barrier initialisation visible to the cluster (and the async proxy);
// follow with a cluster barrier before anyone else touches the barriers.
BWGEMM_DEVICE void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

BWGEMM_DEVICE void mbarrier_arrive(Mbarrier* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_address(bar)) : "memory");
}

// Arrive on the barrier at the same offset in CTA `cta_rank` of the cluster.
BWGEMM_DEVICE void mbarrier_arrive_cluster(Mbarrier* bar, uint32_t cta_rank) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}" ::"r"(smem_address(bar)),
      "r"(cta_rank)
      : "memory");
}

// One arrival plus `bytes` of expected transactions for the current phase.
BWGEMM_DEVICE void mbarrier_arrive_expect_tx(Mbarrier* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_address(bar)),
               "r"(bytes)
               : "memory");
}

BWGEMM_DEVICE bool mbarrier_try_wait(Mbarrier* bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}"
      : "=r"(done)
      : "r"(smem_address(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

// Blocks until the phase with the given parity has completed.
BWGEMM_DEVICE void mbarrier_wait(Mbarrier* bar, uint32_t parity) {
  while (!mbarrier_try_wait(bar, parity)) {
  }
}

// bar.sync on a named barrier (ids 1..15; 0 is __syncthreads).
BWGEMM_DEVICE void named_barrier_sync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

BWGEMM_DEVICE void cluster_arrive() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}

BWGEMM_DEVICE void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

BWGEMM_DEVICE void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}

}  // namespace bwgemm::ptx
