// SPDX-License-Identifier: MIT
// The emulator must be able to fail: each kernel family runs with one
// deliberate bug injected (emu::Faults: what the kernel would do if its code
// had that bug) and the run must be caught, by a violation report, a
// deadlock report, the sm100 kernel's error flag (its bounded waits time
// out) or a wrong result; right bits with no flag are a miss. The same
// problem without the fault passes first, so the failure is the fault's.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "emu_runner.h"

using namespace bwgemm;
using namespace bwgemm::emu_test;

namespace {

enum class Family { Sm90, Sm100 };

struct Fault {
  const char* name;
  Family family;
  std::function<void(emu::Faults&)> inject;
  // A substring the report must contain; nullptr: any detection (a report,
  // the error flag or a wrong result) will do.
  const char* expect;
};

// mbarrier_init order: sm90 full[s], empty[s] for s = 0..2; sm100 full[s],
// empty[s] for s = 0..5, then tmem_full[a], tmem_empty[a] for a = 0, 1.
const std::vector<Fault>& faults() {
  static const std::vector<Fault> list = {
      {"sm90: empty[0] expects one arrival too few", Family::Sm90,
       [](emu::Faults& f) {
         f.init_index = 1;
         f.arrival_delta = -1;
       },
       nullptr},
      {"sm90: full[0] expects one arrival too many", Family::Sm90,
       [](emu::Faults& f) {
         f.init_index = 0;
         f.arrival_delta = 1;
       },
       "DEADLOCK"},
      {"sm90: wgmma.wait_group<1> missing (stage released before its wgmma completed)",
       Family::Sm90, [](emu::Faults& f) { f.skip_wgmma_wait = true; }, nullptr},
      {"sm90: consumers do not wait for full[0]", Family::Sm90,
       [](emu::Faults& f) { f.skip_wait_init_index = 0; }, "still writing"},
      {"sm90: wgmma descriptors say 64B swizzle instead of 128B", Family::Sm90,
       [](emu::Faults& f) { f.desc_swizzle_xor = 6; }, nullptr},
      {"sm100: tcgen05.ld from the next warp's TMEM lanes", Family::Sm100,
       [](emu::Faults& f) { f.tmem_ld_lane_offset = 32; }, "can only access lanes"},
      {"sm100: tmem_empty[0] expects one arrival too few", Family::Sm100,
       [](emu::Faults& f) {
         f.init_index = 13;
         f.arrival_delta = -1;
       },
       nullptr},
      {"sm100: tmem_empty[0] expects one arrival too many (a bounded wait times out)",
       Family::Sm100,
       [](emu::Faults& f) {
         f.init_index = 13;
         f.arrival_delta = 1;
       },
       "error flag"},
      {"sm100: the MMA thread does not wait for full[0]", Family::Sm100,
       [](emu::Faults& f) { f.skip_wait_init_index = 0; }, "still writing"},
      {"sm100: the epilogue does not wait for tmem_full[0]", Family::Sm100,
       [](emu::Faults& f) { f.skip_wait_init_index = 12; }, nullptr},
      {"sm100: UMMA descriptors say 64B swizzle instead of 128B", Family::Sm100,
       [](emu::Faults& f) { f.desc_swizzle_xor = 6; }, nullptr},
  };
  return list;
}

EmuOutcome run(Family family, const HostGemm& g, const emu::Options& o) {
  return family == Family::Sm90 ? run_sm90(g, o) : run_sm100(g, o);
}

}  // namespace

int main() {
  GemmCase c;
  c.m = 300;
  c.n = 520;
  c.k = 200;
  c.beta = 1.0f;
  const HostGemm g(c, 42);
  int failures = 0;
  for (Family family : {Family::Sm90, Family::Sm100}) {
    const EmuOutcome clean = run(family, g, emu::Options{});
    const std::string bad = clean.launched ? g.check(clean.c.data()) : clean.error;
    if (!bad.empty()) {
      std::printf("FAIL: the problem without a fault fails:\n%s\n", bad.c_str());
      ++failures;
    }
  }
  for (const Fault& f : faults()) {
    emu::Options o;
    f.inject(o.faults);
    const EmuOutcome out = run(f.family, g, o);
    std::string how;
    if (!out.launched) {
      how = out.error;
    } else {
      const std::string bad = g.check(out.c.data());
      if (!bad.empty()) how = "wrong result:\n" + bad;
    }
    const bool caught =
        !how.empty() && (f.expect == nullptr || how.find(f.expect) != std::string::npos);
    std::printf("%s %s\n", caught ? "caught " : "MISSED ", f.name);
    std::printf("  %s\n",
                how.empty() ? "(the run passed)" : how.substr(0, how.find('\n', 200)).c_str());
    if (!caught) ++failures;
  }
  std::printf("%s\n", failures == 0 ? "every fault was caught" : "some faults were missed");
  return failures == 0 ? 0 : 1;
}
