// SPDX-License-Identifier: MIT
// The virtual GPU: clusters of CTAs whose threads are fibers, a scheduler
// that runs them on one OS thread, thread and CTA exit with their checks,
// and the special registers (PTX ISA 10) the kernels read.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "emu/api.h"
#include "emu/machine.h"
#include "emu/report.h"

namespace bwgemm::emu {
namespace {

thread_local Machine* t_machine = nullptr;
thread_local Options t_device_options;
thread_local RunResult t_last_run;

// Resident clusters: one CTA per virtual SM, at most max_resident_clusters.
uint32_t resident_limit(const Machine& m) {
  uint32_t r = m.options.sm_count / m.config.cluster_size;
  if (r > m.options.max_resident_clusters) r = m.options.max_resident_clusters;
  return r == 0 ? 1 : r;
}

void switch_to_scheduler(Thread& t) {
  Machine& m = *t_machine;
  m.current = nullptr;
  t.fiber.suspend(&m.scheduler_context);
}

[[noreturn]] void thread_exit(Thread& t);

void thread_main(void* p) {
  Thread& t = *static_cast<Thread*>(p);
  Machine& m = *t_machine;
  m.entry(m.arg);
  thread_exit(t);
}

void launch_cluster(Machine& m, uint32_t index) {
  auto cluster = std::make_unique<Cluster>();
  cluster->index = index;
  cluster->pairs.resize((m.config.cluster_size + 1) / 2);
  const uint32_t window = kReservedSmem + (m.config.smem_bytes + 1023) / 1024 * 1024;
  for (uint32_t r = 0; r < m.config.cluster_size; ++r) {
    auto cta = std::make_unique<Cta>();
    cta->cluster = cluster.get();
    cta->rank = r;
    cta->window_bytes = window;
    cta->window = static_cast<uint8_t*>(std::aligned_alloc(1024, window));
    // Fresh shared memory reads as NaN in every type the kernels use.
    std::memset(cta->window, 0xff, window);
    const uint32_t warps = m.config.threads / 32;
    cta->warps.resize(warps);
    cta->warpgroups.resize((warps + 3) / 4);
    cta->wgmma.resize((warps + 3) / 4);
    for (NamedBarrier& b : cta->named) b.warp_arrivals.assign(warps, 0);
    cta->threads.resize(m.config.threads);
    cta->live_threads = m.config.threads;
    for (uint32_t i = 0; i < m.config.threads; ++i) {
      Thread& t = cta->threads[i];
      t.cta = cta.get();
      t.tid = i;
      t.fiber.start(m.stacks.acquire(), m.stacks.size(), thread_main, &t);
    }
    cluster->live_threads += m.config.threads;
    cluster->ctas.push_back(std::move(cta));
  }
  for (auto& cta : cluster->ctas)
    for (Thread& t : cta->threads) m.runnable.push_back(&t);
  m.resident.push_back(std::move(cluster));
}

void free_cluster(Machine& m, Cluster& c) {
  for (auto& cta : c.ctas) {
    for (Thread& t : cta->threads)
      if (!t.done) m.stacks.release(t.fiber.stack());
    std::free(cta->window);
  }
}

// Launches clusters into free slots; retires finished ones.
void refill(Machine& m) {
  for (size_t i = 0; i < m.resident.size();) {
    if (m.resident[i]->live_threads == 0) {
      free_cluster(m, *m.resident[i]);
      m.resident.erase(m.resident.begin() + i);
    } else {
      ++i;
    }
  }
  while (m.resident.size() < resident_limit(m) && m.next_cluster < m.config.clusters)
    launch_cluster(m, m.next_cluster++);
}

void check_cta_exit(Cta& cta) {
  if (cta.tmem.allocated != 0) {
    violation("PTX ISA 9.7.16.7.1 tcgen05.alloc/dealloc",
              format("CTA %u exited with Tensor Memory still allocated (column mask 0x%x): all "
                     "TMEM must be deallocated before the kernel exits",
                     cta.rank, cta.tmem.allocated));
  }
  const std::string pending = async_pending_for(cta.cluster, int(cta.rank));
  if (!pending.empty()) {
    violation("PTX ISA 9.7.9.25 cp.async.bulk.tensor / 9.7.16.6 tcgen05",
              format("CTA %u exited with asynchronous operations on its shared memory or TMEM in "
                     "flight:\n%s",
                     cta.rank, pending.c_str()));
  }
}

void thread_exit(Thread& t) {
  Cta& cta = *t.cta;
  if (!t.tcgen05.loads.empty()) {
    violation("PTX ISA 9.7.16.8 tcgen05.wait",
              "thread exited with tcgen05.ld results it never waited for (tcgen05.wait::ld)");
  }
  const WgmmaWarpgroup& wg = cta.wgmma[t.tid / 128];
  if (!wg.groups.empty() || !wg.uncommitted.empty()) {
    violation("PTX ISA wgmma.wait_group",
              "thread exited while wgmma operations writing its registers were in flight");
  }
  const Collective& warp = cta.warps[warp_of(t)];
  if (warp.arrived != 0) {
    violation("PTX ISA: .aligned instructions",
              format("thread exited while other lanes of its warp wait in %s", warp.op));
  }
  t.done = true;
  --cta.live_threads;
  Cluster& cluster = *cta.cluster;
  --cluster.live_threads;
  // barrier.cluster waits for the non-exited threads (PTX ISA 9.7.13.2).
  if (t.cluster_arrived == int64_t(cluster.barrier_phase)) --cluster.barrier_arrived;
  if (cluster.live_threads > 0 && cluster.barrier_arrived == cluster.live_threads) {
    ++cluster.barrier_phase;
    cluster.barrier_arrived = 0;
    wake_all(cluster.barrier_waiters);
  }
  if (cta.live_threads == 0) {
    check_cta_exit(cta);
    cta.exited = true;
  }
  switch_to_scheduler(t);
  std::fprintf(stderr, "bwgemm-emu: an exited thread was resumed\n");
  std::abort();
}

Thread* pick(Machine& m) {
  if (m.lead_parity >= 0) {
    // A runnable thread of a leading CTA, at random; else any.
    size_t leading = 0;
    for (const Thread* t : m.runnable) leading += int(t->cta->rank & 1) == m.lead_parity;
    if (leading > 0) {
      size_t n = m.rng() % leading;
      for (size_t i = 0; i < m.runnable.size(); ++i) {
        Thread* t = m.runnable[i];
        if (int(t->cta->rank & 1) != m.lead_parity || n-- != 0) continue;
        m.runnable[i] = m.runnable.back();
        m.runnable.pop_back();
        return t;
      }
    }
  }
  if (!m.random || m.runnable.size() == 1) {
    Thread* t = m.runnable.front();
    m.runnable.pop_front();
    return t;
  }
  const size_t i = m.rng() % m.runnable.size();
  Thread* t = m.runnable[i];
  m.runnable[i] = m.runnable.back();
  m.runnable.pop_back();
  return t;
}

// What a stuck run is doing: every resident thread's wait, every barrier's
// and allocation's state, and the progress counters. Memory contents and
// registers are not part of it.
std::vector<uint64_t> state_key(const Machine& m) {
  std::vector<uint64_t> key = {m.next_cluster, m.async_ops};
  for (const auto& cluster : m.resident) {
    key.insert(key.end(), {cluster->index, cluster->barrier_phase, cluster->barrier_arrived,
                           cluster->live_threads});
    for (const TmemPair& pair : cluster->pairs)
      key.insert(key.end(), {pair.alloc_done, pair.dealloc_done});
    for (const auto& cta : cluster->ctas) {
      key.insert(key.end(), {cta->exited, cta->tmem.allocated, cta->mbarrier_inits});
      for (const MbarrierState& b : cta->mbarriers)
        key.insert(key.end(), {b.offset, b.phase, b.pending, uint64_t(b.tx)});
      for (const NamedBarrier& b : cta->named) key.insert(key.end(), {b.arrived, b.generation});
      for (const Collective& w : cta->warps) key.push_back(w.generation);
      for (const Collective& g : cta->warpgroups) key.push_back(g.generation);
      for (const Thread& t : cta->threads) {
        key.insert(key.end(), {t.done, uint64_t(t.wait.kind), t.wait.a, t.wait.b, t.wait.bounded,
                               uint64_t(t.cluster_arrived)});
      }
    }
  }
  return key;
}

// On hardware a bounded wait (ptx::mbarrier_wait_bounded) gives up after about
// a second of polling. Time does not exist here, so the emulator gives it this
// meaning instead: when no thread can run and no asynchronous operation is
// pending (the state otherwise reported as a deadlock), only a time-out can
// move the run on, so every bounded wait in it times out, all at once (returns
// false), and the run goes on. (All at once is one of the hardware's outcomes:
// there the wait that began first gives up first, and what its thread does next
// might still complete another's phase.) A stuck state without a bounded wait
// is a deadlock, and so is a stuck state in which bounded waits were already
// timed out: the kernel retried them with nothing else changed, which would go
// on forever. (Registers are not part of the state, so a kernel that retries a
// fixed number of times is reported at its first retry.) Plain waits
// (mbarrier_wait) never time out.
bool time_out_bounded_waits(Machine& m) {
  std::vector<Thread*> bounded;
  for (const auto& c : m.resident)
    for (const auto& cta : c->ctas)
      for (Thread& t : cta->threads)
        if (t.blocked && t.wait.bounded) bounded.push_back(&t);
  if (bounded.empty()) return false;
  if (!m.timed_out_states.insert(state_key(m)).second) {
    m.stuck_again = true;
    return false;
  }
  for (Thread* t : bounded) {
    // Out of the barrier's waiter list: a later phase completion must not
    // wake the thread in whatever it waits for by then.
    std::vector<Thread*>& list = *t->waiting_in;
    list.erase(std::remove(list.begin(), list.end(), t), list.end());
    t->blocked = false;
    t->timed_out = true;
    m.runnable.push_back(t);
  }
  m.timeouts += bounded.size();
  return true;
}

void schedule(Machine& m) {
  refill(m);
  while (!m.failed) {
    try {
      if (!m.runnable.empty()) {
        // Random mode: asynchronous units also finish at random points
        // (with a leading CTA only when no thread can run).
        if (m.random && m.lead_parity < 0 && (m.rng() & 3) == 0) async_complete_one();
        if (m.failed) break;
        Thread* t = pick(m);
        m.current = t;
        ++m.switches;
        t->fiber.resume(&m.scheduler_context);
        m.current = nullptr;
        if (m.failed) break;
        if (t->done) {
          m.stacks.release(t->fiber.stack());
          if (t->cta->cluster->live_threads == 0) refill(m);
        }
        continue;
      }
      if (async_complete_one()) continue;
    } catch (const SchedulerAbort&) {
      break;
    }
    refill(m);
    if (!m.runnable.empty()) continue;
    if (m.resident.empty()) return;  // every cluster finished
    if (time_out_bounded_waits(m)) continue;
    m.failed = true;
    m.report = deadlock_report(m);
  }
}

}  // namespace

Machine& machine() { return *t_machine; }

Thread* current_thread() { return t_machine != nullptr ? t_machine->current : nullptr; }

Thread& self() {
  Thread* t = current_thread();
  if (t == nullptr) {
    std::fprintf(stderr, "bwgemm-emu: a GPU primitive was called outside an emulated thread\n");
    std::abort();
  }
  return *t;
}

void block(std::vector<Thread*>& waiters, WaitInfo info) {
  Thread& t = self();
  t.blocked = true;
  t.wait = info;
  t.waiting_in = &waiters;
  waiters.push_back(&t);
  switch_to_scheduler(t);
  t.wait = {};
  t.waiting_in = nullptr;
}

void wake_all(std::vector<Thread*>& waiters) {
  Machine& m = *t_machine;
  for (Thread* t : waiters) {
    if (t->blocked) {
      t->blocked = false;
      m.runnable.push_back(t);
    }
  }
  waiters.clear();
}

void preemption_point() {
  Machine& m = *t_machine;
  if (!m.random || (m.rng() & 7) != 0) return;
  Thread& t = self();
  m.runnable.push_back(&t);
  switch_to_scheduler(t);
}

std::string describe(const Thread& t) {
  return format("cluster %u CTA %u thread %u (warp %u lane %u)", t.cta->cluster->index, t.cta->rank,
                t.tid, t.tid / 32, t.tid % 32);
}

int64_t window_offset(const Cta& cta, const void* p) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  if (b < cta.window || b >= cta.window + cta.window_bytes) return -1;
  return b - cta.window;
}

Cta& peer_cta(const Cta& cta, uint32_t rank) { return *cta.cluster->ctas[rank]; }

uint32_t warp_of(const Thread& t) { return t.tid / 32; }

RunResult run(const LaunchConfig& config, const Options& options, void (*entry)(void*), void* arg) {
  RunResult result;
  if (t_machine != nullptr) {
    result.ok = false;
    result.report = "bwgemm-emu: a launch from inside an emulated kernel is not modelled";
    return result;
  }
  if (config.threads == 0 || config.threads % 32 != 0 || config.threads > 1024 ||
      config.cluster_size == 0 || config.cluster_size > 16) {
    result.ok = false;
    result.report = format(
        "bwgemm-emu: launch of %u threads per CTA, clusters of %u: threads must be a multiple "
        "of 32 up to 1024 and clusters 1..16 CTAs",
        config.threads, config.cluster_size);
    return result;
  }
  Machine m;
  m.options = options;
  m.config = config;
  m.entry = entry;
  m.arg = arg;
  m.random = options.seed != 0;
  if (options.seed % 4 == 1 || options.seed % 4 == 2) m.lead_parity = int(options.seed % 4) - 1;
  m.rng.seed(options.seed);
  m.stacks.set_size(options.stack_bytes);
  t_machine = &m;
  schedule(m);
  // Abandoned fibers (after a violation) are never resumed: their stacks go
  // back to the pool with the clusters.
  for (auto& c : m.resident) free_cluster(m, *c);
  m.resident.clear();
  t_machine = nullptr;
  result.ok = !m.failed;
  result.report = m.report;
  result.switches = m.switches;
  result.async_ops = m.async_ops;
  result.timeouts = m.timeouts;
  result.l2_prefetches = std::move(m.l2_prefetches);
  return result;
}

void set_device_options(const Options& options) {
  t_device_options = options;
  t_last_run = RunResult{};
}
const Options& device_options() { return t_device_options; }
const RunResult& last_run() { return t_last_run; }
void set_last_run(const RunResult& r) { t_last_run = r; }

// ---- special registers and shared memory ------------------------------------

uint32_t thread_index() { return self().tid; }
uint32_t cluster_cta_rank() { return self().cta->rank; }
uint32_t cluster_index() { return self().cta->cluster->index; }
uint32_t cluster_count() { return machine().config.clusters; }
uint8_t* dynamic_smem() { return self().cta->window + kReservedSmem; }

uint32_t smem_address(const void* p) {
  const Cta& cta = *self().cta;
  const int64_t off = window_offset(cta, p);
  if (off < 0) {
    violation("PTX ISA cvta",
              format("cvta.to.shared of %p, which is not in this CTA's shared memory", p));
  }
  return static_cast<uint32_t>(off);
}

void* map_shared_cluster(const void* p, uint32_t cta_rank) {
  const Cta& cta = *self().cta;
  const int64_t off = window_offset(cta, p);
  if (off < 0) {
    violation("PTX ISA mapa", format("mapa of %p, which is not in this CTA's shared memory", p));
  }
  if (cta_rank >= cta.cluster->ctas.size()) {
    violation("PTX ISA mapa", format("mapa to CTA rank %u, outside the cluster of %zu", cta_rank,
                                     cta.cluster->ctas.size()));
  }
  Cta& target = peer_cta(cta, cta_rank);
  if (target.exited) {
    violation("PTX ISA mapa",
              format("mapa to CTA %u of the cluster, which has exited (\"cluster target block not "
                     "present\")",
                     cta_rank));
  }
  preemption_point();
  return target.window + off;
}

}  // namespace bwgemm::emu
