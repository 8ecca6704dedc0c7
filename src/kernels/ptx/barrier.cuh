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
#if defined(BWGEMM_EMU)
  emu::mbarrier_init(bar, arrivals);
#else
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_address(bar)), "r"(arrivals)
               : "memory");
#endif
}

// Makes barrier initialisation visible to the cluster (and the async proxy);
// follow with a cluster barrier before anyone else touches the barriers.
BWGEMM_DEVICE void fence_mbarrier_init() {
#if defined(BWGEMM_EMU)
  emu::fence_mbarrier_init();
#else
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

BWGEMM_DEVICE void mbarrier_arrive(Mbarrier* bar) {
#if defined(BWGEMM_EMU)
  emu::mbarrier_arrive(bar);
#else
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_address(bar)) : "memory");
#endif
}

// Arrive on the barrier at the same offset in CTA `cta_rank` of the cluster.
BWGEMM_DEVICE void mbarrier_arrive_cluster(Mbarrier* bar, uint32_t cta_rank) {
#if defined(BWGEMM_EMU)
  emu::mbarrier_arrive_cluster(bar, cta_rank);
#else
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}" ::"r"(smem_address(bar)),
      "r"(cta_rank)
      : "memory");
#endif
}

// Arrive on the barrier at the same offset in CTA `cta_rank`, releasing at
// cluster scope: this thread's earlier generic-proxy accesses (distributed
// shared memory included) happen before a cluster-scope acquire of the phase.
BWGEMM_DEVICE void mbarrier_arrive_cluster_release(Mbarrier* bar, uint32_t cta_rank) {
#if defined(BWGEMM_EMU)
  emu::mbarrier_arrive_cluster(bar, cta_rank);
#else
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n"
      "}" ::"r"(smem_address(bar)),
      "r"(cta_rank)
      : "memory");
#endif
}

// One arrival plus `bytes` of expected transactions for the current phase.
BWGEMM_DEVICE void mbarrier_arrive_expect_tx(Mbarrier* bar, uint32_t bytes) {
#if defined(BWGEMM_EMU)
  emu::mbarrier_arrive_expect_tx(bar, bytes);
#else
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_address(bar)),
               "r"(bytes)
               : "memory");
#endif
}

// The scope at which a wait acquires the completed phase: the CTA's
// (try_wait's default), or the cluster's, pairing with
// mbarrier_arrive_cluster_release from other CTAs of the cluster.
enum class AcquireScope { kCta, kCluster };

template <AcquireScope kScope = AcquireScope::kCta>
BWGEMM_DEVICE bool mbarrier_try_wait(Mbarrier* bar, uint32_t parity) {
#if defined(BWGEMM_EMU)
  return emu::mbarrier_try_wait(bar, parity);
#else
  uint32_t done;
  if constexpr (kScope == AcquireScope::kCta)
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}"
        : "=r"(done)
        : "r"(smem_address(bar)), "r"(parity)
        : "memory");
  else
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}"
        : "=r"(done)
        : "r"(smem_address(bar)), "r"(parity)
        : "memory");
  return done != 0;
#endif
}

// Blocks until the phase with the given parity has completed.
template <AcquireScope kScope = AcquireScope::kCta>
BWGEMM_DEVICE void mbarrier_wait(Mbarrier* bar, uint32_t parity) {
  while (!mbarrier_try_wait<kScope>(bar, parity)) {
  }
}

// Like mbarrier_wait, but gives up (false) once `budget_ns` nanoseconds of
// the GPU's clock have passed, so that a barrier-protocol failure cannot
// hang the application. Timed by the clock, not by a count of polls: each
// try_wait may suspend the thread for a hardware-defined time (2^22 polls
// took 16.5 s on an H200).
template <AcquireScope kScope = AcquireScope::kCta>
BWGEMM_DEVICE bool mbarrier_wait_bounded(Mbarrier* bar, uint32_t parity, uint64_t budget_ns) {
#if defined(BWGEMM_EMU)
  // The emulator has no time: it times the wait out when nothing could
  // ever complete the phase (docs/emulation.md).
  (void)budget_ns;
  return emu::mbarrier_wait_bounded(bar, parity);
#else
  if (mbarrier_try_wait<kScope>(bar, parity)) return true;
  const uint64_t start = global_timer_ns();
  while (!mbarrier_try_wait<kScope>(bar, parity))
    if (global_timer_ns() - start > budget_ns) return false;
  return true;
#endif
}

// bar.sync on a named barrier (ids 1..15; 0 is __syncthreads).
BWGEMM_DEVICE void named_barrier_sync(uint32_t id, uint32_t threads) {
#if defined(BWGEMM_EMU)
  emu::named_barrier_sync(id, threads);
#else
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
#endif
}

// bar.red.or.pred on a named barrier: bar.sync, and whether any of the
// threads' predicates was true (the same answer in every thread).
BWGEMM_DEVICE bool named_barrier_any(uint32_t id, uint32_t threads, bool predicate) {
#if defined(BWGEMM_EMU)
  return emu::named_barrier_or(id, threads, predicate);
#else
  uint32_t any;
  asm volatile(
      "{\n.reg .pred p, q;\nsetp.ne.u32 p, %1, 0;\nbar.red.or.pred q, %2, %3, p;\n"
      "selp.u32 %0, 1, 0, q;\n}\n"
      : "=r"(any)
      : "r"(uint32_t(predicate)), "r"(id), "r"(threads)
      : "memory");
  return any != 0;
#endif
}

// bar.sync 0: every thread of the CTA (__syncthreads).
BWGEMM_DEVICE void cta_sync() {
#if defined(BWGEMM_EMU)
  emu::named_barrier_sync(0, 0);
#else
  asm volatile("bar.sync 0;" ::: "memory");
#endif
}

BWGEMM_DEVICE void cluster_arrive() {
#if defined(BWGEMM_EMU)
  emu::cluster_arrive();
#else
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
#endif
}

BWGEMM_DEVICE void cluster_wait() {
#if defined(BWGEMM_EMU)
  emu::cluster_wait();
#else
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
#endif
}

BWGEMM_DEVICE void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}

}  // namespace bwgemm::ptx
