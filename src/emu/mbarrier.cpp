// SPDX-License-Identifier: MIT
// PTX ISA 9.7.13.15 (mbarrier), by subsection title:
//  - size and alignment: 8 bytes, 8-byte aligned, in shared memory;
//  - contents of the mbarrier object: expected arrival count, pending arrival
//    count, tx-count, phase; counts in [1, 2^20 - 1], tx-count in
//    [-(2^20 - 1), 2^20 - 1];
//  - phase completion: when the pending count and the tx-count are both 0,
//    the barrier moves to the next phase with pending = expected;
//  - tracking asynchronous operations: expect-tx raises the tx-count,
//    complete-tx lowers it;
//  - mbarrier.test_wait/try_wait with .parity: true when the phase of that
//    parity has completed, i.e. the current phase's parity differs; for each
//    phase at least one test_wait or try_wait returning true must happen
//    before an arrive-on in the next phase.
#include "emu/mbarrier.h"

#include <cstring>

#include "emu/api.h"
#include "emu/machine.h"
#include "emu/report.h"

namespace bwgemm::emu {
namespace {

constexpr int64_t kMaxCount = (int64_t{1} << 20) - 1;
// Written into the barrier's 8 bytes at init: a generic or async write over a
// live barrier shows up at its next use.
constexpr uint64_t kMarker = 0x6d62617272696572;  // "mbarrier"

const char* const kRef = "PTX ISA 9.7.13.15 mbarrier";
const char* const kWaitRef = "PTX ISA mbarrier.test_wait/try_wait";

MbarrierState* find(Cta& cta, uint32_t offset) {
  for (MbarrierState& b : cta.mbarriers)
    if (b.offset == offset) return &b;
  return nullptr;
}

uint32_t barrier_offset(Cta& cta, const uint64_t* bar, const char* op) {
  const int64_t off = window_offset(cta, bar);
  if (off < 0) violation(kRef, format("%s: %p is not in this CTA's shared memory", op, bar));
  if (off % 8 != 0) {
    violation("PTX ISA mbarrier: size and alignment",
              format("%s: mbarrier at shared address 0x%llx is not 8-byte aligned", op,
                     static_cast<unsigned long long>(off)));
  }
  if (off < kReservedSmem) {
    violation(kRef, format("%s: shared address 0x%llx is in the reserved shared memory", op,
                           static_cast<unsigned long long>(off)));
  }
  return static_cast<uint32_t>(off);
}

void complete_phase(MbarrierState& b) {
  ++b.phase;
  b.pending = b.expected;
  b.tx = 0;
  wake_all(b.waiters);
}

void check_tx(const MbarrierState& b, const char* op) {
  if (b.tx > kMaxCount || b.tx < -kMaxCount) {
    violation("PTX ISA mbarrier: contents of the mbarrier object",
              format("%s: tx-count %lld of the mbarrier at 0x%x leaves the range +-(2^20 - 1)", op,
                     static_cast<long long>(b.tx), b.offset));
  }
}

Cta& target_cta(uint32_t rank, const char* op) {
  Cta& me = *self().cta;
  if (rank >= me.cluster->ctas.size()) {
    violation("PTX ISA mapa", format("%s: CTA rank %u is outside the cluster of %zu", op, rank,
                                     me.cluster->ctas.size()));
  }
  Cta& target = *me.cluster->ctas[rank];
  if (target.exited) {
    violation("PTX ISA mbarrier.arrive",
              format("%s: CTA %u of the cluster has exited (\"cluster target block not present\")",
                     op, rank));
  }
  return target;
}

}  // namespace

MbarrierState& mbarrier_at(Cta& cta, uint32_t offset, const Cta& origin, const char* op) {
  MbarrierState* b = find(cta, offset);
  if (b == nullptr) {
    violation(kRef, format("%s: no initialised mbarrier at shared address 0x%x of CTA %u", op,
                           offset, cta.rank));
  }
  uint64_t marker;
  std::memcpy(&marker, cta.window + offset, sizeof marker);
  if (marker != kMarker) {
    violation(kRef, format("%s: the mbarrier object at 0x%x of CTA %u was overwritten while in use",
                           op, offset, cta.rank));
  }
  if (&origin != &cta && (!b->fenced || cta.cluster->barrier_phase <= b->fence_cluster_phase)) {
    violation("PTX ISA mbarrier.init / fence.mbarrier_init",
              format("%s: CTA %u uses the mbarrier at 0x%x of CTA %u before its initialisation was "
                     "made visible to the cluster (fence.mbarrier_init, then a cluster barrier)",
                     op, origin.rank, offset, cta.rank));
  }
  return *b;
}

void mbarrier_arrive_on(Cta& cta, MbarrierState& b, const char* op) {
  if (b.phase > 0 && b.observed < static_cast<int64_t>(b.phase) - 1) {
    violation(kWaitRef,
              format("%s: arrive-on in phase %llu of the mbarrier at 0x%x of CTA %u, but no "
                     "successful test_wait/try_wait observed the completion of phase %llu",
                     op, static_cast<unsigned long long>(b.phase), b.offset, cta.rank,
                     static_cast<unsigned long long>(b.phase - 1)));
  }
  --b.pending;
  if (b.pending == 0 && b.tx == 0) complete_phase(b);
}

void mbarrier_expect_tx(MbarrierState& b, uint32_t bytes) {
  b.tx += bytes;
  check_tx(b, "expect-tx");
}

void mbarrier_complete_tx(MbarrierState& b, uint32_t bytes) {
  b.tx -= bytes;
  check_tx(b, "complete-tx");
  if (b.pending == 0 && b.tx == 0) complete_phase(b);
}

const MbarrierState* mbarrier_overlapping(const Cta& cta, uint32_t offset, uint32_t bytes) {
  for (const MbarrierState& b : cta.mbarriers)
    if (b.offset + 8 > offset && b.offset < offset + bytes) return &b;
  return nullptr;
}

std::string describe_mbarrier(const MbarrierState& b) {
  return format(
      "mbarrier 0x%x (init #%u): expected %u, pending %u, tx %lld, phase %llu (parity %llu), "
      "last observed phase %lld, %zu waiting",
      b.offset, b.init_index, b.expected, b.pending, static_cast<long long>(b.tx),
      static_cast<unsigned long long>(b.phase), static_cast<unsigned long long>(b.phase & 1),
      static_cast<long long>(b.observed), b.waiters.size());
}

// ---- the primitives ---------------------------------------------------------

void mbarrier_init(uint64_t* bar, uint32_t arrivals) {
  Thread& t = self();
  Cta& cta = *t.cta;
  const uint32_t off = barrier_offset(cta, bar, "mbarrier.init");
  const Faults& faults = machine().options.faults;
  const uint32_t index = cta.mbarrier_inits++;
  int64_t count = arrivals;
  if (static_cast<int>(index) == faults.init_index) count += faults.arrival_delta;
  if (count < 1 || count > kMaxCount) {
    violation("PTX ISA mbarrier.init", format("mbarrier.init: count %lld outside [1, 2^20 - 1]",
                                              static_cast<long long>(count)));
  }
  if (find(cta, off) != nullptr) {
    violation("PTX ISA mbarrier: lifecycle of the mbarrier object",
              format("mbarrier.init on the mbarrier at 0x%x, which is already initialised", off));
  }
  MbarrierState b;
  b.offset = off;
  b.init_index = index;
  b.expected = b.pending = static_cast<uint32_t>(count);
  b.init_tid = t.tid;
  cta.mbarriers.push_back(std::move(b));  // a deque: references stay valid
  std::memcpy(cta.window + off, &kMarker, sizeof kMarker);
  preemption_point();
}

void fence_mbarrier_init() {
  Thread& t = self();
  for (MbarrierState& b : t.cta->mbarriers) {
    if (b.init_tid == t.tid && !b.fenced) {
      b.fenced = true;
      b.fence_cluster_phase = t.cta->cluster->barrier_phase;
    }
  }
}

void mbarrier_arrive(uint64_t* bar) {
  Cta& cta = *self().cta;
  MbarrierState& b =
      mbarrier_at(cta, barrier_offset(cta, bar, "mbarrier.arrive"), cta, "mbarrier.arrive");
  mbarrier_arrive_on(cta, b, "mbarrier.arrive");
  preemption_point();
}

void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  Cta& cta = *self().cta;
  const char* op = "mbarrier.arrive.expect_tx";
  MbarrierState& b = mbarrier_at(cta, barrier_offset(cta, bar, op), cta, op);
  mbarrier_expect_tx(b, bytes);
  mbarrier_arrive_on(cta, b, op);
  preemption_point();
}

void mbarrier_arrive_cluster(uint64_t* bar, uint32_t cta_rank) {
  Cta& me = *self().cta;
  const char* op = "mbarrier.arrive.shared::cluster";
  const uint32_t off = barrier_offset(me, bar, op);
  Cta& target = target_cta(cta_rank, op);
  MbarrierState& b = mbarrier_at(target, off, me, op);
  mbarrier_arrive_on(target, b, op);
  preemption_point();
}

namespace {

// try_wait suspends the thread until the phase completes (or a time limit
// passes): here, until the barrier completes any phase; then it tests again.
// A bounded wait (`bounded`) tests until the phase has completed or the
// scheduler times the wait out (machine.cpp: only when nothing could ever
// complete it).
bool wait_parity(uint64_t* bar, uint32_t parity, bool bounded) {
  Thread& t = self();
  Cta& cta = *t.cta;
  const char* op = bounded ? "mbarrier.try_wait.parity (bounded wait)" : "mbarrier.try_wait.parity";
  const uint32_t off = barrier_offset(cta, bar, op);
  MbarrierState* b = &mbarrier_at(cta, off, cta, op);
  if (parity > 1) violation(kWaitRef, format("%s: parity %u is not 0 or 1", op, parity));
  while ((b->phase & 1) == parity) {
    const Faults& faults = machine().options.faults;
    if (cta.rank == 0 && b->phase == 0 &&
        static_cast<int>(b->init_index) == faults.skip_wait_init_index) {
      return true;
    }
    block(b->waiters, {WaitKind::Mbarrier, op, off, parity, bounded});
    if (t.timed_out) {
      t.timed_out = false;
      preemption_point();
      return false;
    }
    if (!bounded && (b->phase & 1) == parity) return false;
  }
  b->observed = static_cast<int64_t>(b->phase) - 1;
  // Orders nothing for tcgen05 until tcgen05.fence::after_thread_sync (tcgen05.h).
  t.tcgen05.fence_after_needed = true;
  preemption_point();
  return true;
}

}  // namespace

bool mbarrier_try_wait(uint64_t* bar, uint32_t parity) { return wait_parity(bar, parity, false); }

bool mbarrier_wait_bounded(uint64_t* bar, uint32_t parity) {
  return wait_parity(bar, parity, true);
}

}  // namespace bwgemm::emu
