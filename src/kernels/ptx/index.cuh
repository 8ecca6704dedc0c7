// SPDX-License-Identifier: MIT
// Thread, block and cluster indices and the dynamic shared memory base: the
// only way kernel bodies learn where they are.
#pragma once

#include "kernels/ptx/device.cuh"

namespace bwgemm::ptx {

#if defined(BWGEMM_EMU)

BWGEMM_DEVICE uint32_t thread_index() { return emu::thread_index(); }
BWGEMM_DEVICE uint32_t warp_index() { return emu::thread_index() / 32; }
BWGEMM_DEVICE uint32_t lane_index() { return emu::thread_index() % 32; }
BWGEMM_DEVICE uint32_t cluster_cta_rank() { return emu::cluster_cta_rank(); }
BWGEMM_DEVICE uint32_t cluster_index() { return emu::cluster_index(); }
BWGEMM_DEVICE uint32_t cluster_count() { return emu::cluster_count(); }
BWGEMM_DEVICE uint8_t* dynamic_smem() { return emu::dynamic_smem(); }
BWGEMM_DEVICE uint32_t smem_address(const void* p) { return emu::smem_address(p); }
template <class T>
BWGEMM_DEVICE T* cluster_peer_pointer(T* p, uint32_t cta_rank) {
  return static_cast<T*>(emu::map_shared_cluster(p, cta_rank));
}

#else

BWGEMM_DEVICE uint32_t thread_index() { return threadIdx.x; }
BWGEMM_DEVICE uint32_t warp_index() { return threadIdx.x / 32; }
BWGEMM_DEVICE uint32_t lane_index() { return threadIdx.x % 32; }

// %cluster_ctarank: this CTA's rank within its cluster.
BWGEMM_DEVICE uint32_t cluster_cta_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// %clusterid.x and %nclusterid.x: the cluster's index in a 1-D grid of clusters.
BWGEMM_DEVICE uint32_t cluster_index() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
  return r;
}

BWGEMM_DEVICE uint32_t cluster_count() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
  return r;
}

BWGEMM_DEVICE uint8_t* dynamic_smem() {
  extern __shared__ __align__(1024) uint8_t bwgemm_dynamic_smem[];
  return bwgemm_dynamic_smem;
}

// 32-bit shared-window address of a generic pointer into shared memory.
BWGEMM_DEVICE uint32_t smem_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// mapa: the generic address of the same shared-memory location in CTA
// `cta_rank` of the cluster (distributed shared memory), for plain loads and
// stores.
template <class T>
BWGEMM_DEVICE T* cluster_peer_pointer(T* p, uint32_t cta_rank) {
  uint64_t out;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"(p), "r"(cta_rank));
  return reinterpret_cast<T*>(out);
}

// %globaltimer: the GPU's clock in nanoseconds, whatever the SM clock (the
// emulator has no time: its bounded waits time out otherwise).
BWGEMM_DEVICE uint64_t global_timer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

#endif

}  // namespace bwgemm::ptx
