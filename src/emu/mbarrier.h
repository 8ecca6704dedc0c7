// SPDX-License-Identifier: MIT
// The mbarrier model (PTX ISA 9.7.13.15): arrival
// count, pending count, signed transaction count, phase, and the rule that a
// successful wait must observe every phase before the next phase's first
// arrive-on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bwgemm::emu {

struct Cta;
struct Thread;

struct MbarrierState {
  uint32_t offset = 0;      // shared-window address
  uint32_t init_index = 0;  // mbarrier_init call number in its CTA
  uint32_t expected = 0;    // arrivals per phase (mbarrier.init count)
  uint32_t pending = 0;     // arrivals still missing in the current phase
  int64_t tx = 0;           // tx-count of the current phase
  uint64_t phase = 0;       // completed phases; the current one's parity is phase & 1
  int64_t observed = -1;    // the last completed phase a successful wait observed
  uint32_t init_tid = 0;
  // fence.mbarrier_init by the initialising thread, and the cluster barrier
  // phase at that point: remote operations need a cluster barrier after it.
  bool fenced = false;
  uint64_t fence_cluster_phase = 0;
  std::vector<Thread*> waiters;
};

// The barrier at `offset` of `cta` for an operation `op` by `origin` (the
// CTA of the issuing thread or unit); violations for an uninitialised or
// overwritten barrier, or a remote use before its initialisation is visible
// to the cluster.
MbarrierState& mbarrier_at(Cta& cta, uint32_t offset, const Cta& origin, const char* op);

// Arrive-on with count 1 (mbarrier.arrive, the tcgen05.commit arrive).
void mbarrier_arrive_on(Cta& cta, MbarrierState& b, const char* op);
// expect-tx / complete-tx operations (PTX ISA mbarrier: "tracking asynchronous
// operations").
void mbarrier_expect_tx(MbarrierState& b, uint32_t bytes);
void mbarrier_complete_tx(MbarrierState& b, uint32_t bytes);

// A barrier whose memory an asynchronous write of [offset, offset + bytes)
// would overwrite, or nullptr.
const MbarrierState* mbarrier_overlapping(const Cta& cta, uint32_t offset, uint32_t bytes);

// "offset 0x...: expected 16, pending 3, tx 0, phase 5 (parity 1), ...".
std::string describe_mbarrier(const MbarrierState& b);

}  // namespace bwgemm::emu
