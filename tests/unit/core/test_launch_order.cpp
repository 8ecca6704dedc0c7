// SPDX-License-Identifier: MIT
// src/core/launch_order.h: which grid is taken to follow this thread's last
// grid of this library directly, and so starts as a programmatic dependent.
// The defect it guards: every grid of a programmatic sm90 configuration
// started so, behind any kernel (a model's norms, cuBLAS's, this library's
// operand copies), where it only costs.
#include <cstdint>
#include <thread>

#include "core/launch_order.h"
#include "support/cmocka_cxx.h"

namespace {

using bwgemm::follows_releasing_grid;
using bwgemm::GridInputs;
using bwgemm::record_other_grid;
using bwgemm::record_releasing_grid;

int g_h, g_x, g_dy;  // stand-ins for activations' addresses

cudaStream_t stream(uintptr_t id) { return reinterpret_cast<cudaStream_t>(id); }

// A model's q, k and v projections read one activation (cuBLAS's B); its o
// projection after attention reads another. A weight gradient reads the
// output gradient its input gradient read.
void the_same_b_on_the_same_stream_follows(void**) {
  record_other_grid();
  const GridInputs q{stream(1), &g_h}, o{stream(1), &g_x};
  assert_false(follows_releasing_grid(q));
  record_releasing_grid(q);
  assert_true(follows_releasing_grid(q));
  assert_false(follows_releasing_grid(o));
  record_releasing_grid({stream(1), &g_dy});
  assert_true(follows_releasing_grid({stream(1), &g_dy}));
}

void another_stream_does_not_follow(void**) {
  record_releasing_grid({stream(2), &g_h});
  assert_false(follows_releasing_grid({stream(3), &g_h}));
  assert_true(follows_releasing_grid({stream(2), &g_h}));
}

// An operand copy, a call forwarded to cuBLAS or a family whose kernel does
// not release its dependents early stands between the two grids.
void nothing_follows_another_grid(void**) {
  record_releasing_grid({stream(4), &g_h});
  record_other_grid();
  assert_false(follows_releasing_grid({stream(4), &g_h}));
}

// A NULL B (a call that reads none) is in common with nothing.
void a_null_b_follows_nothing(void**) {
  record_releasing_grid({stream(5), nullptr});
  assert_false(follows_releasing_grid({stream(5), nullptr}));
}

void each_thread_keeps_its_own_record(void**) {
  record_releasing_grid({stream(6), &g_h});
  bool other = true;
  std::thread([&] { other = follows_releasing_grid({stream(6), &g_h}); }).join();
  assert_false(other);
  std::thread([] { record_other_grid(); }).join();
  assert_true(follows_releasing_grid({stream(6), &g_h}));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_same_b_on_the_same_stream_follows),
      cmocka_unit_test(another_stream_does_not_follow),
      cmocka_unit_test(nothing_follows_another_grid),
      cmocka_unit_test(a_null_b_follows_nothing),
      cmocka_unit_test(each_thread_keeps_its_own_record),
  };
  return cmocka_run_group_tests_name("launch_order", tests, nullptr, nullptr);
}
