// SPDX-License-Identifier: MIT
// The CPU emulation backend as the primitive layer (src/kernels/ptx/) sees
// it: one function per modelled PTX operation, called instead of the inline
// PTX when the kernels are built with BWGEMM_EMU (a host build, no nvcc).
// Every call is made by an emulated GPU thread (a fiber of the virtual GPU,
// machine.h); the current thread's indices, shared memory and barriers are its
// own. Violations of the PTX rules stop the run with a report (report.h).
#pragma once

#include <cuda.h>

#include <cstdint>

namespace bwgemm::emu {

// Indices and shared memory (PTX ISA 10: special registers).
uint32_t thread_index();
uint32_t cluster_cta_rank();
uint32_t cluster_index();
uint32_t cluster_count();
uint8_t* dynamic_smem();
// The 32-bit shared-window address of a pointer into this CTA's shared
// memory (cvta.to.shared); anything else is a violation.
uint32_t smem_address(const void* p);
// mapa: the same location as `p` (this CTA's shared memory) in the shared
// memory of CTA `cta_rank` of the cluster; a rank outside the cluster or a
// CTA that has exited is a violation.
void* map_shared_cluster(const void* p, uint32_t cta_rank);

// mbarrier (PTX ISA 9.7.13.15).
void mbarrier_init(uint64_t* bar, uint32_t arrivals);
void fence_mbarrier_init();
void mbarrier_arrive(uint64_t* bar);
void mbarrier_arrive_cluster(uint64_t* bar, uint32_t cta_rank);
void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes);
bool mbarrier_try_wait(uint64_t* bar, uint32_t parity);
// try_wait until the phase of `parity` completes (true) or the wait times
// out (false): on hardware after a time limit; here when no thread and no
// asynchronous operation could ever complete the phase (machine.cpp).
bool mbarrier_wait_bounded(uint64_t* bar, uint32_t parity);

// bar.sync and barrier.cluster (PTX ISA 9.7.13.1, 9.7.13.2). threads == 0:
// every thread of the CTA (bar.sync without a count).
void named_barrier_sync(uint32_t id, uint32_t threads);
// bar.red.or.pred: bar.sync that returns whether any thread's predicate was true.
bool named_barrier_or(uint32_t id, uint32_t threads, bool predicate);
void cluster_arrive();
void cluster_wait();

// fence.proxy.async (PTX ISA 9.7.13.4).
void fence_proxy_async_smem();

// Tensor copies (PTX ISA 9.7.9.25); maps as encode_tensor_map_tiled
// (tensor_map.h) wrote them.
void prefetch_tensor_map(const CUtensorMap* map);
void tma_load_3d(void* dst, const CUtensorMap* map, uint64_t* bar, int32_t c0, int32_t c1,
                 int32_t c2);
void tma_load_3d_multicast(void* dst, const CUtensorMap* map, uint64_t* bar, uint16_t cta_mask,
                           int32_t c0, int32_t c1, int32_t c2);
void tma_load_3d_2cta(void* dst, const CUtensorMap* map, uint64_t* bar, uint32_t bar_cta,
                      int32_t c0, int32_t c1, int32_t c2);
void tma_store_3d(const CUtensorMap* map, const void* src, int32_t c0, int32_t c1, int32_t c2);
// cp.async.bulk.prefetch.L2.global: recorded in the run's result.
void prefetch_l2(const void* src, uint32_t bytes);
void tma_store_commit();
// cp.async.bulk.wait_group{.read} pending.
void tma_store_wait(int pending, bool read_only);

// Warp-level operations (PTX ISA elect.sync, bar.warp.sync,
// setmaxnreg, shfl.sync).
bool elect_one();
void sync_warp();
void setmaxnreg(uint32_t registers, bool increase);
uint32_t shfl_idx(uint32_t value, uint32_t src_lane);

// wgmma (PTX ISA 9.7.15).
enum class MmaInput : uint8_t { F16, BF16 };
void wgmma_fence();
void wgmma_commit();
void wgmma_wait(int pending);
// One wgmma.mma_async m64nNk16 with f32 accumulators d[N / 2].
void wgmma_mma(int n, MmaInput type, bool trans_a, bool trans_b, float* d, uint64_t desc_a,
               uint64_t desc_b, bool accumulate);
// The same with A from each thread's four registers a[0..3] (the fragment
// layout of ptx::WgmmaFromRegisters).
void wgmma_mma_from_registers(int n, MmaInput type, bool trans_b, float* d, const uint32_t* a,
                              uint64_t desc_b, bool accumulate);

// tcgen05 (PTX ISA 9.7.16); cta_group is 1 or 2.
void tmem_alloc(uint32_t* smem_slot, uint32_t columns, int cta_group);
void tmem_dealloc(uint32_t taddr, uint32_t columns, int cta_group);
void tmem_relinquish(int cta_group);
void umma_f16(uint32_t d_tmem, uint64_t a_desc, uint64_t b_desc, uint32_t idesc, bool accumulate,
              int cta_group);
void umma_commit(uint64_t* bar, uint16_t cta_mask, int cta_group);
void tmem_load_32x32b(uint32_t taddr, float* out, int columns);
void tmem_load_wait();
void tcgen05_fence_before_sync();
void tcgen05_fence_after_sync();

}  // namespace bwgemm::emu
