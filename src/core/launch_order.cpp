// SPDX-License-Identifier: MIT
#include "core/launch_order.h"

namespace bwgemm {
namespace {

// This thread's last grid where it releases its dependents early; a NULL B
// where it did not (a NULL B follows nothing).
thread_local GridInputs t_last{nullptr, nullptr};

}  // namespace

bool follows_releasing_grid(const GridInputs& g) {
  return g.b != nullptr && g.stream == t_last.stream && g.b == t_last.b;
}

void record_releasing_grid(const GridInputs& g) { t_last = g; }

void record_other_grid() { t_last = {nullptr, nullptr}; }

}  // namespace bwgemm
