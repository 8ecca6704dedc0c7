// SPDX-License-Identifier: MIT
// src/core/fork_safe.cpp with the locks registered by device_caps.cpp and
// decision_log.cpp: a process forked while another thread holds every one of
// them gives a child whose first GEMM completes (the defect: the child
// inherited the locks held and hung). The child's GEMM takes both locks: the
// device is queried for the first time and BWGEMM_LOG=1 looks the decision up.
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "core/device_caps.h"
#include "core/env_config.h"
#include "core/fork_safe.h"
#include "dispatch/decision_log.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cublas_client.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

namespace {

pthread_barrier_t g_locked;

// Holds every registered lock for a while, so that the main thread forks
// while they are held.
void* hold_locks(void*) {
  const int count = bwgemm::fork_safe_mutex_count();
  for (int i = 0; i < count; ++i) bwgemm::fork_safe_mutex(i)->lock();
  pthread_barrier_wait(&g_locked);
  usleep(200 * 1000);
  for (int i = count - 1; i >= 0; --i) bwgemm::fork_safe_mutex(i)->unlock();
  return nullptr;
}

// The child's exit status, or -1 when it has not exited after `seconds`.
int wait_for(pid_t child, int seconds) {
  for (int tick = 0; tick < seconds * 100; ++tick) {
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    usleep(10 * 1000);
  }
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  return -1;
}

void child_of_a_fork_with_locks_held_completes_a_gemm(void**) {
  // The device-capability cache and the decision log (the guard registers
  // too, in the library; this binary links a fake one).
  assert_true(bwgemm::fork_safe_mutex_count() >= 2);
  mock_cuda::reset();
  fake::reset();
  fake::register_families({0});
  mock_cublas().reset();
  bwgemm::device_caps_reset();
  bwgemm::decision_log_reset();

  pthread_t holder;
  assert_int_equal(pthread_barrier_init(&g_locked, nullptr, 2), 0);
  assert_int_equal(pthread_create(&holder, nullptr, hold_locks, nullptr), 0);
  pthread_barrier_wait(&g_locked);
  const pid_t child = fork();
  if (child == 0) {
    const test::GemmCall c = test::candidate_call(test::Api::Cublas, test::Entry::GemmEx);
    _exit(test::invoke(c) == CUBLAS_STATUS_SUCCESS && fake::total_launches() == 1 ? 0 : 1);
  }
  assert_true(child > 0);
  pthread_join(holder, nullptr);
  pthread_barrier_destroy(&g_locked);
  assert_int_equal(wait_for(child, 10), 0);
}

}  // namespace

int main() {
  test::clear_bwgemm_environment();
  setenv("BWGEMM_CUBLAS_LIBRARY", mock_cublas_path(), 1);
  setenv("BWGEMM_LOG", "1", 1);
  setenv("BWGEMM_LOG_FILE", "/dev/null", 1);
  bwgemm::env_config_reload();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(child_of_a_fork_with_locks_held_completes_a_gemm),
  };
  return cmocka_run_group_tests_name("fork_safe", tests, nullptr, nullptr);
}
