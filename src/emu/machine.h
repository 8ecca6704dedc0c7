// SPDX-License-Identifier: MIT
// Internal state of the virtual GPU shared by the modelled units: threads
// (fibers), CTAs, clusters, the scheduler and the asynchronous units.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "emu/async.h"
#include "emu/emu.h"
#include "emu/fiber.h"
#include "emu/mbarrier.h"
#include "emu/tcgen05.h"
#include "emu/tma.h"
#include "emu/wgmma.h"

namespace bwgemm::emu {

struct Cta;
struct Cluster;
struct Machine;

// What a blocked thread waits for, formatted only for a deadlock report.
enum class WaitKind : uint8_t {
  None,
  Mbarrier,        // a: barrier offset, b: parity
  NamedBarrier,    // a: id
  ClusterBarrier,  // a: phase it arrived in
  Warp,            // a: collective op name index
  Warpgroup,
  TmemAlloc,  // a: columns
  Pair,       // a: pair op name index
};

struct WaitInfo {
  WaitKind kind = WaitKind::None;
  const char* what = "";
  uint64_t a = 0, b = 0;
  // A wait the hardware gives up after a time limit (the kernels'
  // mbarrier_wait_bounded): the scheduler may time it out (machine.cpp).
  bool bounded = false;
};

// A warp- or warpgroup-collective (.sync.aligned) rendezvous: every member
// thread arrives with its operands; the last one performs the operation;
// results are double-buffered by generation so a fast thread can enter the
// next collective while slower ones read this one's results.
struct Collective {
  static constexpr int kMax = 128;
  uint64_t generation = 0;
  uint32_t arrived = 0;
  const char* op = nullptr;
  uint64_t key[3] = {};
  uint64_t values[kMax];
  void* pointers[kMax];
  uint64_t results[2][kMax];
  std::vector<struct Thread*> waiters;
};

struct Thread {
  Cta* cta = nullptr;
  uint32_t tid = 0;
  Fiber fiber;
  bool done = false;
  bool blocked = false;
  WaitInfo wait;
  // The waiter list this thread is blocked in, so that a time-out can take
  // it out again; and whether its bounded wait timed out.
  std::vector<Thread*>* waiting_in = nullptr;
  bool timed_out = false;
  // Cluster barrier: the phase this thread arrived in and has not waited
  // for yet (-1: none).
  int64_t cluster_arrived = -1;
  TmaThreadState tma;
  Tcgen05ThreadState tcgen05;
};

struct NamedBarrier {
  uint32_t expected = 0;  // 0: no barrier instance in progress
  uint32_t arrived = 0;
  uint64_t generation = 0;
  bool any = false;                     // bar.red.or: the predicates of this instance so far
  bool results[2] = {};                 // and of the last two instances, by generation parity
  std::vector<uint32_t> warp_arrivals;  // per warp of the CTA
  std::vector<Thread*> waiters;
};

struct Cta {
  Cluster* cluster = nullptr;
  uint32_t rank = 0;
  uint8_t* window = nullptr;  // the shared-memory window: reserved, then dynamic
  uint32_t window_bytes = 0;
  std::vector<Thread> threads;
  uint32_t live_threads = 0;
  bool exited = false;
  std::vector<Collective> warps;       // one per warp
  std::vector<Collective> warpgroups;  // one per warpgroup
  std::vector<WgmmaWarpgroup> wgmma;   // one per warpgroup
  NamedBarrier named[16];
  std::deque<MbarrierState> mbarriers;
  uint32_t mbarrier_inits = 0;
  Tmem tmem;
};

struct Cluster {
  uint32_t index = 0;
  std::vector<std::unique_ptr<Cta>> ctas;
  uint32_t live_threads = 0;
  // barrier.cluster: completed phases and arrivals in the current one.
  uint64_t barrier_phase = 0;
  uint32_t barrier_arrived = 0;
  std::vector<Thread*> barrier_waiters;
  std::vector<TmemPair> pairs;  // one per even/odd CTA pair
};

// Shared memory reserved below the dynamic region (as on sm_90 / sm_100,
// where the first KB of the window is system-reserved): catches code that
// assumes dynamic shared memory starts at window address 0.
constexpr uint32_t kReservedSmem = 1024;

struct Machine {
  Options options;
  LaunchConfig config;
  void (*entry)(void*) = nullptr;
  void* arg = nullptr;
  std::mt19937_64 rng;
  bool random = false;
  // In some random schedules one CTA of every pair runs far ahead: the
  // CTAs of this rank parity (-1: none; emu.h).
  int lead_parity = -1;

  std::vector<std::unique_ptr<Cluster>> resident;
  uint32_t next_cluster = 0;
  std::deque<Thread*> runnable;
  Thread* current = nullptr;
  FiberContext scheduler_context;
  StackPool stacks;
  AsyncEngine engine;

  bool failed = false;
  std::string report;
  uint64_t switches = 0;
  uint64_t async_ops = 0;
  uint64_t timeouts = 0;
  std::vector<L2Prefetch> l2_prefetches;
  // The states in which bounded waits were timed out (state_key in
  // machine.cpp): reaching one again is a deadlock, not another time-out.
  std::set<std::vector<uint64_t>> timed_out_states;
  bool stuck_again = false;
};

// The machine of the run in progress on this OS thread, and the emulated
// thread executing now (nullptr on the scheduler).
Machine& machine();
Thread* current_thread();
// The current thread; a primitive called outside an emulated thread is a
// usage error and aborts.
Thread& self();

// Blocks the current thread until wake_all() on `waiters`, or for a bounded
// wait (info.bounded) until the scheduler times it out (then
// self().timed_out is set); the caller loops on its condition.
void block(std::vector<Thread*>& waiters, WaitInfo info);
void wake_all(std::vector<Thread*>& waiters);
// In random mode, gives other threads a chance to run here.
void preemption_point();

// Where a thread is, for reports: "cluster 0 CTA 1 thread 130 (warp 4 lane 2)".
std::string describe(const Thread& t);

// The shared-memory window offset of a pointer into `cta`'s window, or -1.
int64_t window_offset(const Cta& cta, const void* p);
Cta& peer_cta(const Cta& cta, uint32_t rank);

uint32_t warp_of(const Thread& t);

// Records the result of a launch made through launch_persistent (last_run()).
void set_last_run(const RunResult& r);

}  // namespace bwgemm::emu
