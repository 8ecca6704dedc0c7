// SPDX-License-Identifier: MIT
// Named barriers (PTX ISA 9.7.13.1 bar.sync), cluster barriers (9.7.13.2
// barrier.cluster), the proxy fence (9.7.13.4), and the warp-level
// collectives elect.sync, bar.warp.sync, shfl.sync and setmaxnreg (PTX ISA,
// by instruction name).
#include "emu/sync.h"

#include <cstring>

#include "emu/api.h"
#include "emu/report.h"

namespace bwgemm::emu {
namespace {

const char* const kAligned = "PTX ISA: .aligned instructions";

}  // namespace

uint32_t index_in(Group group, const Thread& t) {
  return group == Group::Warp ? t.tid % 32 : t.tid % 128;
}

uint64_t collective(Group group, const char* op, const uint64_t (&key)[3], uint64_t value,
                    void* pointer, const std::function<void(Collective&, uint64_t*)>& perform) {
  Thread& t = self();
  Cta& cta = *t.cta;
  const uint32_t size = group == Group::Warp ? 32 : 128;
  const uint32_t first = t.tid / size * size;
  const uint32_t members =
      first + size <= cta.threads.size() ? size : uint32_t(cta.threads.size()) - first;
  Collective& c = group == Group::Warp ? cta.warps[t.tid / 32] : cta.warpgroups[t.tid / 128];
  const char* unit = group == Group::Warp ? "warp" : "warpgroup";
  if (c.arrived == 0) {
    for (uint32_t i = first; i < first + members; ++i) {
      if (cta.threads[i].done) {
        violation(kAligned, format("%s by a %s whose thread %u has exited", op, unit, i));
      }
    }
    c.op = op;
    std::memcpy(c.key, key, sizeof c.key);
  } else if (std::strcmp(c.op, op) != 0) {
    violation(kAligned, format("threads of one %s execute different collective instructions at "
                               "once: %s and %s",
                               unit, c.op, op));
  } else if (std::memcmp(c.key, key, sizeof c.key) != 0) {
    violation(
        kAligned,
        format("%s: the threads of the %s pass different operands (0x%llx 0x%llx 0x%llx "
               "vs 0x%llx 0x%llx 0x%llx)",
               op, unit, static_cast<unsigned long long>(c.key[0]),
               static_cast<unsigned long long>(c.key[1]), static_cast<unsigned long long>(c.key[2]),
               static_cast<unsigned long long>(key[0]), static_cast<unsigned long long>(key[1]),
               static_cast<unsigned long long>(key[2])));
  }
  const uint32_t index = t.tid - first;
  c.values[index] = value;
  c.pointers[index] = pointer;
  const uint64_t generation = c.generation;
  if (++c.arrived == members) {
    uint64_t* results = c.results[generation & 1];
    perform(c, results);
    c.arrived = 0;
    ++c.generation;
    wake_all(c.waiters);
    return results[index];
  }
  while (c.generation == generation) {
    block(c.waiters, {group == Group::Warp ? WaitKind::Warp : WaitKind::Warpgroup, op, 0, 0});
  }
  return c.results[generation & 1][index];
}

// ---- bar.sync ---------------------------------------------------------------

void named_barrier_sync(uint32_t id, uint32_t threads) { named_barrier_or(id, threads, false); }

bool named_barrier_or(uint32_t id, uint32_t threads, bool predicate) {
  Thread& t = self();
  Cta& cta = *t.cta;
  const char* ref = "PTX ISA bar.sync";
  if (id > 15) violation(ref, format("barrier id %u is not in 0..15", id));
  const uint32_t count = threads == 0 ? uint32_t(cta.threads.size()) : threads;
  if (count % 32 != 0 || count > cta.threads.size()) {
    violation(ref, format("bar.sync %u, %u: the thread count must be a multiple of the warp size "
                          "and at most the CTA's %zu threads",
                          id, threads, cta.threads.size()));
  }
  NamedBarrier& b = cta.named[id];
  if (b.arrived == 0) {
    b.expected = count;
  } else if (b.expected != count) {
    violation(ref, format("bar.sync %u: threads expect %u and %u threads at once", id, b.expected,
                          count));
  }
  ++b.warp_arrivals[warp_of(t)];
  b.any = b.any || predicate;
  const uint64_t generation = b.generation;
  if (++b.arrived == b.expected) {
    // bar.sync is barrier.sync.aligned: whole warps arrive.
    for (size_t w = 0; w < b.warp_arrivals.size(); ++w) {
      if (b.warp_arrivals[w] != 0 && b.warp_arrivals[w] != 32) {
        violation(ref, format("bar.sync %u completed with %u threads of warp %zu: all threads of "
                              "a warp execute an aligned barrier",
                              id, b.warp_arrivals[w], w));
      }
      b.warp_arrivals[w] = 0;
    }
    // The result stays until the barrier's instance after next completes,
    // which needs this instance's threads to have returned first.
    b.results[generation & 1] = b.any;
    b.any = false;
    b.arrived = 0;
    b.expected = 0;
    ++b.generation;
    wake_all(b.waiters);
    preemption_point();
    return b.results[generation & 1];
  }
  while (b.generation == generation) block(b.waiters, {WaitKind::NamedBarrier, "bar.sync", id, 0});
  return b.results[generation & 1];
}

// ---- barrier.cluster ----------------------------------------------------------

void cluster_arrive() {
  Thread& t = self();
  Cluster& c = *t.cta->cluster;
  if (t.cluster_arrived >= 0) {
    violation("PTX ISA barrier.cluster",
              "barrier.cluster.arrive twice without a barrier.cluster.wait in between");
  }
  t.cluster_arrived = int64_t(c.barrier_phase);
  if (++c.barrier_arrived == c.live_threads) {
    ++c.barrier_phase;
    c.barrier_arrived = 0;
    wake_all(c.barrier_waiters);
  }
  preemption_point();
}

void cluster_wait() {
  Thread& t = self();
  Cluster& c = *t.cta->cluster;
  if (t.cluster_arrived < 0) {
    violation("PTX ISA barrier.cluster",
              "barrier.cluster.wait without a preceding barrier.cluster.arrive");
  }
  while (c.barrier_phase == uint64_t(t.cluster_arrived)) {
    block(c.barrier_waiters,
          {WaitKind::ClusterBarrier, "barrier.cluster.wait", uint64_t(t.cluster_arrived), 0});
  }
  t.cluster_arrived = -1;
}

// ---- fences -------------------------------------------------------------------

// Generic-proxy writes are visible to the emulated async units at once; the
// fence orders nothing further here.
void fence_proxy_async_smem() { preemption_point(); }

// ---- warp-level ---------------------------------------------------------------

bool elect_one() {
  // elect.sync with a full member mask elects one lane, the same one every
  // time for the same mask: here the lowest.
  return collective(Group::Warp, "elect.sync", {0xffffffff, 0, 0}, 0, nullptr,
                    [](Collective&, uint64_t* results) {
                      for (int i = 0; i < 32; ++i) results[i] = i == 0;
                    }) != 0;
}

void sync_warp() {
  collective(Group::Warp, "bar.warp.sync", {0xffffffff, 0, 0}, 0, nullptr,
             [](Collective&, uint64_t*) {});
}

uint32_t shfl_idx(uint32_t value, uint32_t src_lane) {
  return uint32_t(collective(Group::Warp, "shfl.sync.idx", {0xffffffff, 0x1f, 0},
                             value | uint64_t(src_lane) << 32, nullptr,
                             [](Collective& c, uint64_t* results) {
                               for (int i = 0; i < 32; ++i) {
                                 const uint32_t src = uint32_t(c.values[i] >> 32) & 31;
                                 results[i] = uint32_t(c.values[src]);
                               }
                             }));
}

// setmaxnreg.sync.aligned: every warp of the warpgroup executes the same one
// (PTX ISA setmaxnreg); registers are not modelled, so it has no other
// effect.
void setmaxnreg(uint32_t registers, bool increase) {
  if (registers < 24 || registers > 256 || registers % 8 != 0) {
    violation("PTX ISA setmaxnreg",
              format("setmaxnreg %u: the count must be a multiple of 8 in 24..256", registers));
  }
  collective(Group::Warpgroup, increase ? "setmaxnreg.inc" : "setmaxnreg.dec", {registers, 0, 0}, 0,
             nullptr, [](Collective&, uint64_t*) {});
}

}  // namespace bwgemm::emu
