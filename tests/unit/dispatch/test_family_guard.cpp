// SPDX-License-Identifier: MIT
// src/dispatch/family_guard.cpp with the CUDA runtime mocked: a guarded
// family's first call on a device made inside a stream capture defers the
// self-check (it allocates and synchronizes) without allocating, warning or
// switching anything off; the first call outside a capture runs it, and a
// failure switches the family off once, with one warning.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <string>

#include "core/env_config.h"
#include "dispatch/family_guard.h"
#include "dispatch/path_switch.h"
#include "support/cmocka_cxx.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

using bwgemm::GuardDecision;

// ---- the runtime calls the guard makes ------------------------------------------

namespace {

int g_host_allocs = 0;

}  // namespace

// cudaStreamIsCapturing comes from the unit tests' runtime (mock_cuda).
extern "C" {
// The error flag cannot be allocated: the self-check fails before any kernel.
cudaError_t cudaHostAlloc(void**, size_t, unsigned int) {
  ++g_host_allocs;
  return cudaErrorMemoryAllocation;
}
cudaError_t cudaHostGetDevicePointer(void**, void*, unsigned int) { return cudaErrorUnknown; }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t*, unsigned int) { return cudaErrorUnknown; }
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaErrorUnknown; }
cudaError_t cudaMalloc(void**, size_t) { return cudaErrorMemoryAllocation; }
cudaError_t cudaFree(void*) { return cudaSuccess; }
cudaError_t cudaMemcpy(void*, const void*, size_t, cudaMemcpyKind) { return cudaErrorUnknown; }
}

namespace {

bool never_runs(const bwgemm::DeviceCaps&) { return false; }
bwgemmReason_t takes_nothing(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&) {
  return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
}
bwgemm::ConfigChoice no_config(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&, bool) {
  return {-1, "none"};
}
const char* no_name(int) { return ""; }
bwgemm::LaunchResult no_launch(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&, int,
                               uint32_t*) {
  fail_msg("the guard launched the family although its check could not run");
  return {bwgemm::LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
}

const bwgemm::KernelFamily kGuarded = {BWGEMM_PATH_SM100, "sm100",   true,    never_runs,
                                       takes_nothing,     no_config, no_name, no_launch};

bwgemm::DeviceCaps device(int index) { return {index, 10, 0, 148, 232448}; }

int set_up(void** state) {
  test::clear_bwgemm_environment();
  auto* log = new test::TempFile;
  setenv("BWGEMM_LOG_FILE", log->path(), 1);
  bwgemm::env_config_reload();
  bwgemm::path_switch_reset();
  mock_cuda::set_capture_status(cudaStreamCaptureStatusNone);
  g_host_allocs = 0;
  *state = log;
  return 0;
}

int tear_down(void** state) {
  delete static_cast<test::TempFile*>(*state);
  return 0;
}

std::string log_text(void** state) { return static_cast<test::TempFile*>(*state)->contents(); }

bool sm100_switched_off() { return (bwgemm::disabled_paths() & (1u << BWGEMM_PATH_SM100)) != 0; }

// The defect this guards against: every such call used to be logged as a
// failed launch (CUDA error 600) and recorded as LAUNCH_FAILED.
void a_capturing_stream_defers_the_self_check(void** state) {
  mock_cuda::set_capture_status(cudaStreamCaptureStatusActive);
  for (int call = 0; call < 3; ++call) {
    uint32_t* flag = nullptr;
    assert_int_equal(int(bwgemm::guard_launch(kGuarded, device(1), nullptr, &flag)),
                     int(GuardDecision::kPending));
    assert_null(flag);
  }
  assert_int_equal(g_host_allocs, 0);
  assert_false(sm100_switched_off());
  assert_int_equal(test::count_lines_with(log_text(state), {"warning"}), 0);
}

void the_check_runs_once_the_capture_ended_and_a_failure_switches_off_once(void** state) {
  uint32_t* flag = nullptr;
  mock_cuda::set_capture_status(cudaStreamCaptureStatusActive);
  assert_int_equal(int(bwgemm::guard_launch(kGuarded, device(2), nullptr, &flag)),
                   int(GuardDecision::kPending));
  mock_cuda::set_capture_status(cudaStreamCaptureStatusNone);
  for (int call = 0; call < 3; ++call)
    assert_int_equal(int(bwgemm::guard_launch(kGuarded, device(2), nullptr, &flag)),
                     int(GuardDecision::kFailed));
  assert_null(flag);
  assert_int_equal(g_host_allocs, 1);  // one check per device, not one per call
  assert_true(sm100_switched_off());
  const std::string log = log_text(state);
  assert_int_equal(test::count_lines_with(log, {"bwgemm: warning: ", "sm100 self-check on device 2",
                                                "cannot allocate the error flag"}),
                   1);
  assert_int_equal(test::count_lines_with(log, {"bwgemm: warning: ", "sm100 kernels switched off"}),
                   1);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup_teardown(f, set_up, tear_down)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(a_capturing_stream_defers_the_self_check),
      TEST(the_check_runs_once_the_capture_ended_and_a_failure_switches_off_once),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
