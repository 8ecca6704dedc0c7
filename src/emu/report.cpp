// SPDX-License-Identifier: MIT
#include "emu/report.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "emu/machine.h"

namespace bwgemm::emu {
namespace {

[[noreturn]] void stop(const char* kind, const char* ptx_ref, const std::string& what) {
  Machine& m = machine();
  Thread* t = current_thread();
  m.failed = true;
  m.report = format("bwgemm-emu: %s [%s]: %s\n  at %s\n", kind, ptx_ref, what.c_str(),
                    t != nullptr ? describe(*t).c_str() : "an asynchronous unit");
  if (t == nullptr) throw SchedulerAbort{};
  // Leave the fiber for good: the scheduler sees `failed` and ends the run.
  m.current = nullptr;
  t->fiber.suspend(&m.scheduler_context);
  std::fprintf(stderr, "bwgemm-emu: a stopped thread was resumed\n");
  std::abort();
}

std::string wait_text(const WaitInfo& w) {
  switch (w.kind) {
    case WaitKind::Mbarrier:
      return format("%s on mbarrier 0x%llx, parity %llu", w.what,
                    static_cast<unsigned long long>(w.a), static_cast<unsigned long long>(w.b));
    case WaitKind::NamedBarrier:
      return format("bar.sync %llu", static_cast<unsigned long long>(w.a));
    case WaitKind::ClusterBarrier:
      return format("barrier.cluster.wait (arrived in phase %llu)",
                    static_cast<unsigned long long>(w.a));
    case WaitKind::Warp: return format("warp-collective %s (other lanes missing)", w.what);
    case WaitKind::Warpgroup:
      return format("warpgroup-collective %s (other warps missing)", w.what);
    case WaitKind::TmemAlloc:
      return format("tcgen05.alloc of %llu columns (none free)",
                    static_cast<unsigned long long>(w.a));
    case WaitKind::Pair: return format("%s: the peer CTA's warp has not performed it", w.what);
    case WaitKind::None: break;
  }
  return "runnable";
}

}  // namespace

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out(n > 0 ? size_t(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, args);
  va_end(args);
  return out;
}

void violation(const char* ptx_ref, const std::string& what) { stop("VIOLATION", ptx_ref, what); }

void unmodelled(const char* ptx_ref, const std::string& what) {
  stop("NOT MODELLED", ptx_ref, what);
}

std::string deadlock_report(Machine& m) {
  std::string out =
      "bwgemm-emu: DEADLOCK: every thread is blocked and no asynchronous operation is pending\n";
  if (m.stuck_again) {
    out +=
        "(the bounded waits below timed out before in this same state: retrying them with "
        "nothing else changed would go on forever)\n";
  } else if (m.timeouts != 0) {
    out += format("(after %llu bounded waits timed out)\n",
                  static_cast<unsigned long long>(m.timeouts));
  }
  for (const auto& cluster : m.resident) {
    out += format("cluster %u: barrier.cluster phase %llu, %u of %u live threads arrived\n",
                  cluster->index, static_cast<unsigned long long>(cluster->barrier_phase),
                  cluster->barrier_arrived, cluster->live_threads);
    for (const auto& cta : cluster->ctas) {
      out += format(" CTA %u:%s\n", cta->rank, cta->exited ? " exited" : "");
      // Threads grouped into runs of consecutive ids with the same wait.
      const auto& ts = cta->threads;
      for (size_t i = 0; i < ts.size();) {
        const std::string w = ts[i].done ? "exited" : wait_text(ts[i].wait);
        size_t j = i + 1;
        while (j < ts.size() && (ts[j].done ? "exited" : wait_text(ts[j].wait)) == w) ++j;
        out += j - i == 1 ? format("  thread %zu: %s\n", i, w.c_str())
                          : format("  threads %zu-%zu: %s\n", i, j - 1, w.c_str());
        i = j;
      }
      for (const MbarrierState& b : cta->mbarriers) out += "  " + describe_mbarrier(b) + "\n";
      for (int id = 0; id < 16; ++id) {
        const NamedBarrier& nb = cta->named[id];
        if (nb.arrived != 0) {
          out += format("  bar %d: %u of %u threads arrived\n", id, nb.arrived, nb.expected);
        }
      }
      if (cta->tmem.allocated != 0) {
        out += format("  TMEM: column mask 0x%x allocated%s\n", cta->tmem.allocated,
                      cta->tmem.relinquished ? ", permit relinquished" : "");
      }
    }
  }
  return out;
}

}  // namespace bwgemm::emu
