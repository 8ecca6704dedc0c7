// SPDX-License-Identifier: MIT
#include "core/launch_order.h"

namespace bwgemm {
namespace {

// This thread's last grid, and whether it releases its dependents early.
thread_local GridInputs t_last{nullptr, nullptr};
thread_local bool t_last_releases = false;

}  // namespace

bool follows_releasing_grid(const GridInputs& g) {
  return t_last_releases && g.b != nullptr && g.stream == t_last.stream && g.b == t_last.b;
}

void record_releasing_grid(const GridInputs& g) {
  t_last = g;
  t_last_releases = true;
}

void record_other_grid() { t_last_releases = false; }

}  // namespace bwgemm
