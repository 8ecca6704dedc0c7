// SPDX-License-Identifier: MIT
// src/core/device_caps.cpp: a device's facts come from the CUDA runtime on
// its first query and from the cache afterwards; failures are not cached.
#include "core/device_caps.h"
#include "support/cmocka_cxx.h"
#include "support/mock_cuda_runtime.h"

using bwgemm::DeviceCaps;

namespace {

int reset_all(void**) {
  mock_cuda::reset();
  bwgemm::device_caps_reset();
  return 0;
}

DeviceCaps caps_now() {
  DeviceCaps caps{};
  assert_true(bwgemm::current_device_caps(&caps));
  return caps;
}

void caps_are_the_runtimes_answers(void**) {
  mock_cuda::set_attributes(0, {10, 3, 148, 232448});
  const DeviceCaps caps = caps_now();
  assert_int_equal(caps.device, 0);
  assert_int_equal(caps.cc_major, 10);
  assert_int_equal(caps.cc_minor, 3);
  assert_int_equal(caps.sm_count, 148);
  assert_int_equal(caps.smem_per_block_optin, 232448);
}

void the_runtime_is_asked_once_per_device(void**) {
  caps_now();
  const int first = mock_cuda::attribute_query_count();
  assert_true(first > 0);
  for (int i = 0; i < 10; ++i) caps_now();
  assert_int_equal(mock_cuda::attribute_query_count(), first);

  mock_cuda::set_attributes(2, {9, 0, 114, 232448});
  mock_cuda::set_current_device(2);
  const DeviceCaps caps = caps_now();
  assert_int_equal(caps.device, 2);
  assert_int_equal(caps.sm_count, 114);
  assert_int_equal(mock_cuda::attribute_query_count(), 2 * first);
  caps_now();
  mock_cuda::set_current_device(0);
  assert_int_equal(caps_now().sm_count, 132);
  assert_int_equal(mock_cuda::attribute_query_count(), 2 * first);
}

// The cache answers with what was read, even after the runtime changes its mind.
void cached_caps_are_not_read_again(void**) {
  assert_int_equal(caps_now().cc_major, 9);
  mock_cuda::set_attributes(0, {10, 0, 148, 232448});
  assert_int_equal(caps_now().cc_major, 9);
  bwgemm::device_caps_reset();
  assert_int_equal(caps_now().cc_major, 10);
}

// A thread's current context names its device: the runtime is asked for
// the device once per context, not on every call (host time per call,
// docs/perf.md), and the caps carry the context's id.
void the_current_device_is_asked_once_per_context(void**) {
  assert_int_equal(caps_now().context_id, 1);
  const int first = mock_cuda::get_device_call_count();
  for (int i = 0; i < 10; ++i) assert_int_equal(caps_now().device, 0);
  assert_int_equal(mock_cuda::get_device_call_count(), first);

  mock_cuda::set_current_device(3);  // device 3's primary context
  const DeviceCaps on_3 = caps_now();
  assert_int_equal(on_3.device, 3);
  assert_int_equal(on_3.context_id, 4);
  assert_int_equal(mock_cuda::get_device_call_count(), first + 1);

  mock_cuda::set_context_id(9);  // device 3 reset: a new context
  assert_int_equal(caps_now().context_id, 9);
  assert_int_equal(mock_cuda::get_device_call_count(), first + 2);

  mock_cuda::set_context_id(0);  // none current yet: the runtime answers each time
  assert_int_equal(caps_now().device, 3);
  assert_int_equal(caps_now().context_id, 0);
  assert_int_equal(mock_cuda::get_device_call_count(), first + 4);
}

// No device: no context is current either.
void no_current_device_is_a_failure_and_not_cached(void**) {
  DeviceCaps caps{};
  mock_cuda::set_context_id(0);
  mock_cuda::set_get_device_error(cudaErrorNoDevice);
  assert_false(bwgemm::current_device_caps(&caps));
  mock_cuda::set_get_device_error(cudaSuccess);
  mock_cuda::set_context_id(1);
  assert_int_equal(caps_now().cc_major, 9);
}

void attribute_failure_is_a_failure_and_not_cached(void**) {
  DeviceCaps caps{};
  mock_cuda::set_attribute_error(cudaErrorInsufficientDriver);
  assert_false(bwgemm::current_device_caps(&caps));
  assert_false(bwgemm::current_device_caps(&caps));
  mock_cuda::set_attribute_error(cudaSuccess);
  const int before = mock_cuda::attribute_query_count();
  assert_int_equal(caps_now().sm_count, 132);
  assert_true(mock_cuda::attribute_query_count() > before);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup(f, reset_all)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(caps_are_the_runtimes_answers),
      TEST(the_runtime_is_asked_once_per_device),
      TEST(cached_caps_are_not_read_again),
      TEST(the_current_device_is_asked_once_per_context),
      TEST(no_current_device_is_a_failure_and_not_cached),
      TEST(attribute_failure_is_a_failure_and_not_cached),
  };
  return cmocka_run_group_tests_name("device_caps", tests, nullptr, nullptr);
}
