// SPDX-License-Identifier: MIT
// The tcgen05 model (PTX ISA 9.7.16): Tensor Memory (128 lanes x 512 columns
// of 32 bits per CTA) with its allocator, the kind::f16 MMA with cta_group::1
// (M = 128) and ::2 (M = 256 across the CTA pair), commit, 32x32b loads and
// the ordering rules around thread synchronization.
#pragma once

#include <cstdint>
#include <vector>

namespace bwgemm::emu {

struct AsyncOp;
struct Thread;

constexpr uint32_t kTmemLanes = 128;
constexpr uint32_t kTmemColumns = 512;

struct Tmem {
  std::vector<uint32_t> cells;  // [lane][column], allocated lazily
  uint32_t allocated = 0;       // bit i: columns [32 i, 32 i + 32)
  uint32_t last_alloc = 0;      // columns of the previous allocation
  bool relinquished = false;
  std::vector<Thread*> waiters;  // blocked in tcgen05.alloc
};

// The 2-CTA rendezvous of alloc / dealloc (.cta_group::2: one warp in each
// CTA of the pair performs it collectively).
struct TmemPair {
  struct Request {
    bool present = false;
    uint32_t columns = 0, slot = 0, taddr = 0;
  };
  Request alloc[2], dealloc[2];
  uint64_t alloc_done = 0, dealloc_done = 0;  // completed rendezvous
  std::vector<Thread*> waiters;
};

// A tcgen05.ld waiting for tcgen05.wait::ld.
struct TmemLoad {
  uint32_t lane, column, columns;
  float* out;
};

struct Tcgen05ThreadState {
  std::vector<TmemLoad> loads;
  // A successful mbarrier wait since the last tcgen05.fence::after_thread_sync:
  // the next mma or ld is not ordered after what the wait synchronized with
  // (PTX ISA 9.7.16.6.4 canonical patterns).
  bool fence_after_needed = false;
};

// The asynchronous halves (async.h): an MMA, and a commit's arrivals.
void perform_mma(const AsyncOp& op);
void perform_commit(const AsyncOp& op);

}  // namespace bwgemm::emu
