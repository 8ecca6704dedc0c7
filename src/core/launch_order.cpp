// SPDX-License-Identifier: MIT
#include "core/launch_order.h"

namespace bwgemm {
namespace {

// This thread's last grid, and whether it releases its dependents early.
thread_local GridInputs t_last{nullptr, nullptr, nullptr};
thread_local bool t_last_releases = false;

bool reads(const GridInputs& g, const void* operand) {
  return operand != nullptr && (g.a == operand || g.b == operand);
}

}  // namespace

bool follows_releasing_grid(const GridInputs& g) {
  return t_last_releases && g.stream == t_last.stream && (reads(t_last, g.a) || reads(t_last, g.b));
}

void record_releasing_grid(const GridInputs& g) {
  t_last = g;
  t_last_releases = true;
}

void record_other_grid() { t_last_releases = false; }

}  // namespace bwgemm
