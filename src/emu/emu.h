// SPDX-License-Identifier: MIT
// The CPU emulation backend as a host program sees it: a small virtual GPU
// that runs a kernel body on clusters of CTAs with their full thread counts,
// every thread a cooperative fiber on the calling OS thread.
//
// Runs are reproducible: with seed 0 the scheduler is deterministic (threads
// run in order until they block; asynchronous units work only when no
// thread can run, i.e. as late as the PTX rules allow); a non-zero seed
// interleaves threads at every primitive and completes asynchronous
// operations at random points; with seed % 4 == 1 (2) the even (odd) CTA of
// every pair runs far ahead instead: its threads run whenever one can, its
// peer's only when all of its own are blocked, and asynchronous operations
// complete, in random order, only when no thread can run (a peer that lags
// far behind, as on a busy GPU). Protocol violations and deadlocks stop the
// run with a report instead of hanging or crashing. Time does not exist:
// a bounded wait (mbarrier_wait_bounded) times out when nothing else could
// ever complete it (machine.cpp, docs/emulation.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bwgemm::emu {

// Test-only fault injection: each field makes the emulator see a kernel with
// one deliberate bug, so tests can check that the bug is caught. Every fault
// is off by default.
struct Faults {
  // mbarrier_init call number `init_index` of every CTA (in call order)
  // initialises its barrier with `arrival_delta` more (or fewer) arrivals.
  int init_index = -1;
  int arrival_delta = 0;
  // Every wgmma.wait_group with a non-zero pending count returns at once.
  bool skip_wgmma_wait = false;
  // Every try_wait on the barrier of mbarrier_init call number
  // `skip_wait_init_index` of CTA 0 returns true while its first phase is
  // incomplete, as if the kernel did not wait for it.
  int skip_wait_init_index = -1;
  // XORed into bits 61-63 of every wgmma / tcgen05.mma matrix descriptor.
  uint32_t desc_swizzle_xor = 0;
  // Added to the lane field of every tcgen05.ld address.
  uint32_t tmem_ld_lane_offset = 0;
};

struct Options {
  // Virtual SMs; one CTA each (also for kernels built for two per SM), so
  // sm_count / cluster_size clusters run at a time (persistent kernels size
  // their grid from it).
  uint32_t sm_count = 4;
  // At most this many clusters are emulated at once; a larger grid runs in
  // waves (clusters never interact, so only memory use changes).
  uint32_t max_resident_clusters = 8;
  uint64_t seed = 0;  // 0: deterministic schedule
  size_t stack_bytes = 256 * 1024;
  Faults faults;
};

struct LaunchConfig {
  uint32_t clusters;      // grid size in clusters (1-D)
  uint32_t cluster_size;  // CTAs per cluster
  uint32_t threads;       // per CTA
  uint32_t smem_bytes;    // dynamic shared memory per CTA
};

// A range of global memory a kernel asked L2 for (no data moves).
struct L2Prefetch {
  const void* address;
  uint32_t bytes;
};

struct RunResult {
  bool ok = true;
  std::string report;                     // empty when ok: the violation or deadlock
  uint64_t switches = 0;                  // fiber switches, for profiling
  uint64_t async_ops = 0;                 // asynchronous operations completed
  uint64_t timeouts = 0;                  // bounded mbarrier waits that timed out
  std::vector<L2Prefetch> l2_prefetches;  // in the order issued
};

// Runs entry(arg) on every thread of the grid; returns when every thread has
// exited or the first violation / deadlock stopped the run.
RunResult run(const LaunchConfig& config, const Options& options, void (*entry)(void*), void* arg);

// For launches made through the library's own launcher code
// (launch_persistent, provided by the emulation build): the options of the
// virtual device (setting them clears last_run) and the result of the last
// launch on this OS thread.
void set_device_options(const Options& options);
const Options& device_options();
const RunResult& last_run();

}  // namespace bwgemm::emu
