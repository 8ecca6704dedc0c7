// SPDX-License-Identifier: MIT
// src/forward/handle_registry.cpp, the table of handles bwgemm saw created: a
// handle is known, with the device it was made on, from remember_handle until
// forget_handle, never otherwise (NULL, a full slot group), also while many
// threads remember and forget at once. The table has no lock, so a fork cannot
// leave one held.
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "forward/handle_registry.h"
#include "support/cmocka_cxx.h"
#include "support/test_env.h"

using bwgemm::forget_handle;
using bwgemm::handle_device;
using bwgemm::kUnknownHandle;
namespace registry = bwgemm::handle_registry;

namespace {

bool is_known_handle(cublasHandle_t h) { return handle_device(h) != kUnknownHandle; }
bool remember_handle(cublasHandle_t h) { return bwgemm::remember_handle(h, 0); }

// Addresses shaped like heap handles (16-byte aligned), distinct per `i`.
cublasHandle_t fake_handle(uintptr_t i) {
  return reinterpret_cast<cublasHandle_t>(uintptr_t{0x7f0000000000} + 16 * i);
}

void remembered_until_forgotten(void**) {
  const cublasHandle_t a = fake_handle(1), b = fake_handle(2);
  assert_false(is_known_handle(a));
  assert_true(remember_handle(a));
  assert_true(is_known_handle(a));
  assert_false(is_known_handle(b));
  assert_true(remember_handle(a));  // again: still one handle
  forget_handle(a);
  assert_false(is_known_handle(a));
  forget_handle(b);  // never remembered: nothing happens
  assert_false(is_known_handle(b));
}

// The device is the one given when the handle was (last) remembered: an
// address cuBLAS hands out again on another device takes the new one.
void the_handle_keeps_its_device(void**) {
  const cublasHandle_t a = fake_handle(3), b = fake_handle(4);
  assert_true(bwgemm::remember_handle(a, 1));
  assert_true(bwgemm::remember_handle(b, 0));
  assert_int_equal(handle_device(a), 1);
  assert_int_equal(handle_device(b), 0);
  assert_true(bwgemm::remember_handle(a, 2));
  assert_int_equal(handle_device(a), 2);
  forget_handle(a);
  forget_handle(b);
  assert_int_equal(handle_device(a), kUnknownHandle);
}

void null_is_never_known(void**) {
  assert_false(remember_handle(nullptr));
  assert_false(is_known_handle(nullptr));
}

// More handles than the table holds: at least one group overflows. A handle
// that did not fit is unknown (its calls are forwarded), one that did is
// known, and the overflow is reported once.
void a_full_group_leaves_the_handle_unknown(void**) {
  const int count = registry::kCapacity + 1;
  std::vector<char> fitted(count);
  const std::string err = test::capture_stderr([&] {
    for (int i = 0; i < count; ++i) fitted[i] = remember_handle(fake_handle(1000 + i));
  });
  int refused = 0;
  for (int i = 0; i < count; ++i) {
    assert_int_equal(is_known_handle(fake_handle(1000 + i)), fitted[i] != 0);
    refused += fitted[i] == 0;
  }
  assert_true(refused > 0);
  assert_int_equal(test::count_lines_with(err, {"bwgemm: warning: ", "slot group"}), 1);
  for (int i = 0; i < count; ++i) forget_handle(fake_handle(1000 + i));
  for (int i = 0; i < count; ++i) assert_false(is_known_handle(fake_handle(1000 + i)));
  // The table is empty again: a handle fits.
  assert_true(remember_handle(fake_handle(1000)));
  forget_handle(fake_handle(1000));
}

constexpr int kThreads = 8;
constexpr int kRounds = 20000;
constexpr int kHandlesPerThread = 16;
pthread_barrier_t g_start;
std::atomic<int> g_errors{0};
const cublasHandle_t kResident = fake_handle(999999);

// Each thread remembers and forgets handles of its own, checking each on the
// way, and that a handle remembered before it started stays known throughout.
void* churn(void* arg) {
  const auto base = static_cast<uintptr_t>(reinterpret_cast<intptr_t>(arg)) * kHandlesPerThread;
  pthread_barrier_wait(&g_start);
  for (int round = 0; round < kRounds; ++round) {
    const cublasHandle_t h = fake_handle(base + round % kHandlesPerThread);
    const int device = static_cast<int>(base / kHandlesPerThread);
    if (!bwgemm::remember_handle(h, device) || handle_device(h) != device) ++g_errors;
    if (!is_known_handle(kResident)) ++g_errors;
    forget_handle(h);
    if (is_known_handle(h)) ++g_errors;
  }
  return nullptr;
}

void threads_remember_and_forget_at_once(void**) {
  assert_true(remember_handle(kResident));
  pthread_barrier_init(&g_start, nullptr, kThreads);
  pthread_t threads[kThreads];
  for (intptr_t i = 0; i < kThreads; ++i)
    assert_int_equal(pthread_create(&threads[i], nullptr, churn, reinterpret_cast<void*>(i)), 0);
  for (pthread_t t : threads) pthread_join(t, nullptr);
  pthread_barrier_destroy(&g_start);
  assert_int_equal(g_errors.load(), 0);
  assert_true(is_known_handle(kResident));
  forget_handle(kResident);
}

}  // namespace

int main() {
  test::clear_bwgemm_environment();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(remembered_until_forgotten),
      cmocka_unit_test(the_handle_keeps_its_device),
      cmocka_unit_test(null_is_never_known),
      cmocka_unit_test(a_full_group_leaves_the_handle_unknown),
      cmocka_unit_test(threads_remember_and_forget_at_once),
  };
  return cmocka_run_group_tests_name("handle_registry", tests, nullptr, nullptr);
}
