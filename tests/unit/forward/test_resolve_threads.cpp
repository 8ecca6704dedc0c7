// SPDX-License-Identifier: MIT
// src/forward/real_cublas.cpp and src/core/device_caps.cpp under a race:
// 32 threads released together make the process's first GEMM calls. Each
// must reach cuBLAS (the mock) with its own arguments and get its status, and
// the device must be queried as if by a single first call. A process of its
// own, since resolution happens once per process.
#include <pthread.h>

#include <cstdlib>

#include "core/device_caps.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cublas_client.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

using test::Api;
using test::Entry;
using test::GemmCall;

namespace {

constexpr int kThreads = 32;

pthread_barrier_t g_start;

struct ThreadResult {
  GemmCall call;
  cublasStatus_t status;
  MockCublasCall received;
};
ThreadResult g_results[kThreads];

// Even threads make a call bwgemm would run if it had a kernel for the device
// (so they query the handle and the device), odd threads an fp32 call; each
// has its own m.
GemmCall call_of_thread(int i) {
  const Entry entries[] = {Entry::GemmEx, Entry::GemmEx64, Entry::StridedBatchedEx,
                           Entry::StridedBatchedEx64};
  GemmCall c = test::candidate_call(i % 4 < 2 ? Api::Cublas : Api::Bwgemm, entries[i % 4]);
  c.m = 1000 + 8 * i;
  c.lda = c.ldc = c.m;
  c.strideA = c.lda * c.k;
  c.strideC = c.ldc * c.n;
  if (i % 2 == 1) c.Atype = c.Btype = c.Ctype = CUDA_R_32F;
  return c;
}

void* run_thread(void* arg) {
  ThreadResult& r = *static_cast<ThreadResult*>(arg);
  pthread_barrier_wait(&g_start);
  r.status = test::invoke(r.call);
  r.received = mock_cublas().last_call();
  return nullptr;
}

void first_calls_from_32_threads_all_reach_cublas(void**) {
  const MockCublasControl& mock = mock_cublas();
  mock.reset();
  const cublasStatus_t status = test::distinctive_status();
  mock.set_status(status);
  pthread_t threads[kThreads];
  assert_int_equal(pthread_barrier_init(&g_start, nullptr, kThreads), 0);
  for (int i = 0; i < kThreads; ++i) {
    g_results[i].call = call_of_thread(i);
    assert_int_equal(pthread_create(&threads[i], nullptr, run_thread, &g_results[i]), 0);
  }
  for (pthread_t t : threads) pthread_join(t, nullptr);
  pthread_barrier_destroy(&g_start);

  assert_int_equal(mock.call_count(), kThreads);
  for (int i = 0; i < kThreads; ++i) {
    const ThreadResult& r = g_results[i];
    assert_int_equal(r.status, status);
    assert_int_equal(r.received.m, 1000 + 8 * i);
    test::assert_mock_call_equal(test::expected_forward(r.call), r.received,
                                 test::function_name(r.call.api, r.call.entry));
  }
}

// The racing first calls read the device once: as many attribute queries as
// one first call makes on its own.
void the_device_was_queried_once(void**) {
  const int during_race = mock_cuda::attribute_query_count();
  assert_true(during_race > 0);
  bwgemm::device_caps_reset();
  test::invoke(call_of_thread(0));
  assert_int_equal(mock_cuda::attribute_query_count() - during_race, during_race);
}

}  // namespace

int main() {
  test::clear_bwgemm_environment();
  setenv("BWGEMM_CUBLAS_LIBRARY", mock_cublas_path(), 1);
  mock_cuda::reset();
  mock_cuda::set_attributes(0, {8, 0, 108, 166912});  // no fake family runs there
  fake::reset();
  fake::register_families({0});
  bwgemm::device_caps_reset();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(first_calls_from_32_threads_all_reach_cublas),
      cmocka_unit_test(the_device_was_queried_once),
  };
  return cmocka_run_group_tests_name("resolve_threads", tests, nullptr, nullptr);
}
