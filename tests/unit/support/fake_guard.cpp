// SPDX-License-Identifier: MIT
#include "support/fake_guard.h"

#include <atomic>

namespace fake {
namespace {

bwgemm::GuardDecision g_decision = bwgemm::GuardDecision::kLaunch;
uint32_t g_flag;
std::atomic<int> g_calls;

}  // namespace

void reset_guard() {
  g_decision = bwgemm::GuardDecision::kLaunch;
  g_flag = 0;
  g_calls = 0;
}

void set_guard_decision(bwgemm::GuardDecision decision) { g_decision = decision; }
uint32_t* guard_error_flag() { return &g_flag; }
int guard_calls() { return g_calls; }

}  // namespace fake

namespace bwgemm {

GuardDecision guard_launch(const KernelFamily&, const DeviceCaps&, const GemmProblem&,
                           ErrorFlag* error_flag) {
  ++fake::g_calls;
  if (fake::g_decision == GuardDecision::kLaunch) *error_flag = {&fake::g_flag, 1};
  return fake::g_decision;
}

}  // namespace bwgemm
