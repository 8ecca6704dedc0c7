// SPDX-License-Identifier: MIT
#include <chrono>
#include <cstdio>

#include "emu_runner.h"

using namespace bwgemm;
using namespace bwgemm::emu_test;

int main() {
  GemmCase c;
  c.m = 200;
  c.n = 300;
  c.k = 100;
  HostGemm g(c, 1);
  emu::Options o;
  auto t0 = std::chrono::steady_clock::now();
  EmuOutcome r = run_sm90(g, o);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("%s: launched %d, %.2fs, switches %llu ops %llu\n", describe(c).c_str(), r.launched,
              std::chrono::duration<double>(t1 - t0).count(), (unsigned long long)r.run.switches,
              (unsigned long long)r.run.async_ops);
  if (!r.launched) {
    std::printf("%s\n", r.error.c_str());
    return 1;
  }
  std::string bad = g.check(r.c.data());
  std::printf("%s\n", bad.empty() ? "OK" : bad.c_str());
  return bad.empty() ? 0 : 1;
}
