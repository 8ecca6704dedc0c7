// SPDX-License-Identifier: MIT
// src/dispatch/family_guard.cpp with the CUDA runtime and driver mocked and
// the GPU self-check replaced (set_self_check_runner):
//  - a guarded family's first call on a device made inside a stream capture
//    defers the self-check (it allocates and synchronizes) without
//    allocating, warning or switching anything off; the first call outside a
//    capture runs it, and a failure switches the family off on that device
//    only, with one warning;
//  - the error flag names the call that tripped it: the next call on the
//    device reports that call's shape and stream in the log, returns
//    kProtocolFailure on that call's stream (kFailed on another), and the
//    device (only) falls back from then on; a call captured in a graph keeps
//    its record while direct calls overwrite theirs;
//  - a device reset (a new context) is noticed: the device is checked again
//    with a new flag and the old one, freed by the reset, is never read.
#include <cuda_runtime_api.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "core/device_caps.h"
#include "core/env_config.h"
#include "dispatch/family_guard.h"
#include "support/cmocka_cxx.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

using bwgemm::GuardDecision;

// ---- the runtime and driver calls the guard makes ------------------------------

namespace {

int g_host_allocs = 0;
bool g_host_alloc_fails = false;
// The calling thread's capture mode, and what it was at each cudaHostAlloc.
cudaStreamCaptureMode g_mode = cudaStreamCaptureModeGlobal;
bool g_alloc_outside_relaxed = false;

// A page per flag, so that a reset can make the old one unreadable, as the
// runtime's freeing it would.
void* g_pages[16];

}  // namespace

// The capture status and the context id come from the unit tests' runtime
// (mock_cuda).
extern "C" {
cudaError_t cudaHostAlloc(void** p, size_t, unsigned int) {
  if (g_mode != cudaStreamCaptureModeRelaxed) g_alloc_outside_relaxed = true;
  if (g_host_alloc_fails || g_host_allocs == 16) return cudaErrorMemoryAllocation;
  void* page = mmap(nullptr, size_t(getpagesize()), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return cudaErrorMemoryAllocation;
  g_pages[g_host_allocs++] = page;
  *p = page;
  return cudaSuccess;
}
// Mapped memory with unified addressing: the device sees the same address.
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int) {
  *device = host;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  std::swap(*mode, g_mode);
  return cudaSuccess;
}
// What the GPU self-check would call; the tests replace that check.
cudaError_t cudaStreamCreateWithFlags(cudaStream_t*, unsigned int) { return cudaErrorUnknown; }
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaErrorUnknown; }
cudaError_t cudaMalloc(void**, size_t) { return cudaErrorMemoryAllocation; }
cudaError_t cudaFree(void*) { return cudaSuccess; }
cudaError_t cudaMemcpy(void*, const void*, size_t, cudaMemcpyKind) { return cudaErrorUnknown; }
}

namespace {

int g_checks = 0;
bool g_check_passes = true;

bool fake_check(const bwgemm::KernelFamily&, const bwgemm::DeviceCaps&, bwgemm::ErrorFlag flag,
                const volatile uint32_t* host_flag, std::string* failure) {
  ++g_checks;
  assert_non_null(flag.word);
  assert_ptr_equal(flag.word, const_cast<const uint32_t*>(host_flag));
  *failure = "a mismatch in case 3";
  return g_check_passes;
}

bool never_runs(const bwgemm::DeviceCaps&) { return false; }
bwgemmReason_t takes_nothing(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&) {
  return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
}
bwgemm::ConfigChoice no_config(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&, bool) {
  return {-1, "none"};
}
const char* no_name(int) { return ""; }
bwgemm::LaunchResult no_launch(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&, int,
                               bwgemm::ErrorFlag) {
  fail_msg("the guard launched the family itself");
  return {bwgemm::LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
}

bool no_config_takes(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&, int) { return false; }

const bwgemm::KernelFamily kGuarded = {BWGEMM_PATH_SM100, "sm100", true, never_runs, takes_nothing,
                                       no_config,         no_name, 1,    no_launch,  nullptr,
                                       no_config_takes,   nullptr};

// The context is the current one, as current_device_caps reports it.
bwgemm::DeviceCaps device(int index) {
  return {index, 10, 0, 148, 232448, bwgemm::current_context_id()};
}

cudaStream_t stream(uintptr_t id) { return reinterpret_cast<cudaStream_t>(id); }

// A call of shape m x n x k on `s` (bf16 in, f32 out, A transposed).
bwgemm::GemmProblem call(int64_t m, int64_t n, int64_t k, cudaStream_t s) {
  bwgemm::GemmProblem p{};
  p.ab_type = bwgemm::DType::BF16;
  p.c_type = bwgemm::DType::F32;
  p.trans_a = true;
  p.m = m;
  p.n = n;
  p.k = k;
  p.batch = 1;
  p.stream = s;
  return p;
}

GuardDecision guard(int dev, const bwgemm::GemmProblem& p, bwgemm::ErrorFlag* flag) {
  *flag = {nullptr, 0};
  return bwgemm::guard_launch(kGuarded, device(dev), p, flag);
}

// What a kernel launched with `flag` does when a bounded wait gives up.
void trip(const bwgemm::ErrorFlag& flag) { *static_cast<volatile uint32_t*>(flag.word) = flag.tag; }

int set_up(void** state) {
  test::clear_bwgemm_environment();
  auto* log = new test::TempFile;
  setenv("BWGEMM_LOG_FILE", log->path(), 1);
  bwgemm::env_config_reload();
  bwgemm::family_guard_reset();
  bwgemm::set_self_check_runner(fake_check);
  mock_cuda::set_capture_status(cudaStreamCaptureStatusNone);
  for (int i = 0; i < g_host_allocs; ++i) munmap(g_pages[i], size_t(getpagesize()));
  g_host_allocs = 0;
  g_host_alloc_fails = false;
  g_mode = cudaStreamCaptureModeGlobal;
  g_alloc_outside_relaxed = false;
  mock_cuda::set_context_id(1);
  // No device UUID: the helper cannot be asked, the check runs in process.
  mock_cuda::set_properties_error(cudaErrorUnknown);
  g_checks = 0;
  g_check_passes = true;
  *state = log;
  return 0;
}

int tear_down(void** state) {
  // The flag is allocated in relaxed capture mode, so that a global-mode
  // capture on another thread survives it (the defect: error 901 there),
  // and the thread's mode is restored.
  assert_false(g_alloc_outside_relaxed);
  assert_int_equal(g_mode, cudaStreamCaptureModeGlobal);
  bwgemm::set_self_check_runner(nullptr);
  delete static_cast<test::TempFile*>(*state);
  return 0;
}

std::string log_text(void** state) { return static_cast<test::TempFile*>(*state)->contents(); }

// The defect this guards against: every such call used to be logged as a
// failed launch (CUDA error 600) and recorded as LAUNCH_FAILED.
void a_capturing_stream_defers_the_self_check(void** state) {
  mock_cuda::set_capture_status(cudaStreamCaptureStatusActive);
  for (int i = 0; i < 3; ++i) {
    bwgemm::ErrorFlag flag;
    assert_int_equal(int(guard(1, call(256, 256, 256, nullptr), &flag)),
                     int(GuardDecision::kPending));
    assert_null(flag.word);
  }
  assert_int_equal(g_host_allocs, 0);
  assert_int_equal(g_checks, 0);
  assert_int_equal(test::count_lines_with(log_text(state), {"warning"}), 0);
}

// The defect: a failed check switched the family off on every device.
void a_failed_check_switches_off_its_device_only_once(void** state) {
  bwgemm::ErrorFlag flag;
  mock_cuda::set_capture_status(cudaStreamCaptureStatusActive);
  assert_int_equal(int(guard(2, call(256, 256, 256, nullptr), &flag)),
                   int(GuardDecision::kPending));
  mock_cuda::set_capture_status(cudaStreamCaptureStatusNone);
  g_check_passes = false;
  for (int i = 0; i < 3; ++i)
    assert_int_equal(int(guard(2, call(256, 256, 256, nullptr), &flag)),
                     int(GuardDecision::kFailed));
  assert_null(flag.word);
  assert_int_equal(g_checks, 1);  // one check per device, not one per call
  g_check_passes = true;
  assert_int_equal(int(guard(3, call(256, 256, 256, nullptr), &flag)), int(GuardDecision::kLaunch));
  assert_non_null(flag.word);
  // A flag that cannot be allocated fails the device before any check.
  g_host_alloc_fails = true;
  assert_int_equal(int(guard(4, call(256, 256, 256, nullptr), &flag)), int(GuardDecision::kFailed));
  assert_int_equal(g_checks, 2);
  const std::string log = log_text(state);
  assert_int_equal(test::count_lines_with(log, {"bwgemm: warning: ", "sm100 self-check on device 2",
                                                "a mismatch in case 3", "on this device"}),
                   1);
  assert_int_equal(test::count_lines_with(log, {"bwgemm: warning: ", "sm100 self-check on device 4",
                                                "cannot allocate the error flag"}),
                   1);
  assert_int_equal(test::count_lines_with(log, {"warning"}), 2);
}

// The defect: the flag was reported to whichever call on the device looked
// first, as EXECUTION_FAILED, without saying which call had failed.
void a_tripped_flag_names_its_call_and_fails_that_stream_only(void** state) {
  bwgemm::ErrorFlag a, b, later;
  assert_int_equal(int(guard(0, call(4096, 2048, 1024, stream(0x100)), &a)),
                   int(GuardDecision::kLaunch));
  assert_int_equal(int(guard(0, call(512, 768, 8192, stream(0x200)), &b)),
                   int(GuardDecision::kLaunch));
  assert_int_equal(int(guard(5, call(64, 64, 64, stream(0x100)), &later)),
                   int(GuardDecision::kLaunch));
  assert_ptr_equal(a.word, b.word);  // one flag per device
  assert_int_not_equal(a.tag, 0);
  assert_int_not_equal(a.tag, b.tag);
  assert_ptr_not_equal(a.word, later.word);
  trip(b);
  // The next call on the device, on another stream: forwarded, not failed.
  assert_int_equal(int(guard(0, call(300, 300, 300, stream(0x100)), &later)),
                   int(GuardDecision::kFailed));
  assert_null(later.word);
  assert_int_equal(int(guard(0, call(300, 300, 300, stream(0x200)), &later)),
                   int(GuardDecision::kFailed));
  // Device 5 is unaffected.
  assert_int_equal(int(guard(5, call(64, 64, 64, stream(0x100)), &later)),
                   int(GuardDecision::kLaunch));
  const std::string log = log_text(state);
  assert_int_equal(
      test::count_lines_with(log, {"bwgemm: warning: ", "sm100 kernel on device 0",
                                   "barrier-protocol failure", "m=512 n=768 k=8192 batch=1 TN",
                                   "bf16->f32", "on stream 0x200", "every later call"}),
      1);
  assert_int_equal(test::count_lines_with(log, {"warning"}), 1);
}

void the_tripping_calls_own_stream_gets_the_failure(void** state) {
  bwgemm::ErrorFlag a, next;
  assert_int_equal(int(guard(1, call(1024, 1024, 1024, stream(0x300)), &a)),
                   int(GuardDecision::kLaunch));
  trip(a);
  assert_int_equal(int(guard(1, call(8, 8, 8, stream(0x300)), &next)),
                   int(GuardDecision::kProtocolFailure));
  assert_int_equal(int(guard(1, call(8, 8, 8, stream(0x300)), &next)), int(GuardDecision::kFailed));
  assert_int_equal(test::count_lines_with(log_text(state), {"m=1024 n=1024 k=1024", "0x300"}), 1);
}

// A graph replays its captured calls long after the capture: their records
// survive the direct calls made since; a direct call's record does not.
void a_graph_replay_is_named_as_its_captured_call(void** state) {
  bwgemm::ErrorFlag captured, first_direct, flag;
  assert_int_equal(int(guard(2, call(64, 64, 64, stream(0x400)), &first_direct)),
                   int(GuardDecision::kLaunch));
  mock_cuda::set_capture_status(cudaStreamCaptureStatusActive);
  assert_int_equal(int(guard(2, call(6144, 4096, 4096, stream(0x500)), &captured)),
                   int(GuardDecision::kLaunch));
  mock_cuda::set_capture_status(cudaStreamCaptureStatusNone);
  assert_int_not_equal(captured.tag, first_direct.tag);
  for (int i = 0; i < 1000; ++i)
    assert_int_equal(int(guard(2, call(128, 128, i + 1, stream(0x400)), &flag)),
                     int(GuardDecision::kLaunch));
  trip(captured);  // a replay of the graph
  assert_int_equal(int(guard(2, call(8, 8, 8, stream(0x500)), &flag)),
                   int(GuardDecision::kProtocolFailure));
  assert_int_equal(test::count_lines_with(log_text(state), {"m=6144 n=4096 k=4096", "0x500",
                                                            "captured in a CUDA graph"}),
                   1);

  // On another device, a direct call's record overwritten since.
  assert_int_equal(int(guard(3, call(64, 64, 64, stream(0x400)), &first_direct)),
                   int(GuardDecision::kLaunch));
  for (int i = 0; i < 1000; ++i)
    assert_int_equal(int(guard(3, call(128, 128, 128, stream(0x400)), &flag)),
                     int(GuardDecision::kLaunch));
  trip(first_direct);
  assert_int_equal(int(guard(3, call(8, 8, 8, stream(0x400)), &flag)), int(GuardDecision::kFailed));
  assert_int_equal(test::count_lines_with(log_text(state), {"sm100 kernel on device 3", "call #",
                                                            "record later calls have overwritten"}),
                   1);
}

// The defect: after cudaDeviceReset the next call read the flag the reset
// had freed (SIGSEGV). Here the old flag's page is made unreadable, as
// freed memory can be.
void a_device_reset_rebuilds_the_device_state(void** state) {
  bwgemm::ErrorFlag before, after;
  assert_int_equal(int(guard(0, call(256, 256, 256, nullptr), &before)),
                   int(GuardDecision::kLaunch));
  assert_int_equal(g_checks, 1);
  mprotect(g_pages[0], size_t(getpagesize()), PROT_NONE);
  mock_cuda::set_context_id(7);  // the reset device's new primary context
  assert_int_equal(int(guard(0, call(256, 256, 256, nullptr), &after)),
                   int(GuardDecision::kLaunch));
  assert_int_equal(g_checks, 2);  // checked again, with a new flag
  assert_int_equal(g_host_allocs, 2);
  assert_ptr_not_equal(after.word, before.word);
  assert_ptr_equal(after.word, g_pages[1]);
  // Until the runtime makes the new context, cuBLAS takes the calls.
  mock_cuda::set_context_id(0);
  assert_int_equal(int(guard(0, call(256, 256, 256, nullptr), &after)),
                   int(GuardDecision::kPending));
  assert_int_equal(g_host_allocs, 2);
  assert_int_equal(test::count_lines_with(log_text(state), {"warning"}), 0);
}

// A device that failed stays off after a reset: the kernel did not change.
void a_failed_device_stays_off_after_a_reset(void**) {
  bwgemm::ErrorFlag flag;
  g_check_passes = false;
  assert_int_equal(int(guard(6, call(256, 256, 256, nullptr), &flag)), int(GuardDecision::kFailed));
  mock_cuda::set_context_id(9);
  g_check_passes = true;
  assert_int_equal(int(guard(6, call(256, 256, 256, nullptr), &flag)), int(GuardDecision::kFailed));
  assert_int_equal(g_checks, 1);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup_teardown(f, set_up, tear_down)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(a_capturing_stream_defers_the_self_check),
      TEST(a_failed_check_switches_off_its_device_only_once),
      TEST(a_tripped_flag_names_its_call_and_fails_that_stream_only),
      TEST(the_tripping_calls_own_stream_gets_the_failure),
      TEST(a_graph_replay_is_named_as_its_captured_call),
      TEST(a_device_reset_rebuilds_the_device_state),
      TEST(a_failed_device_stays_off_after_a_reset),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
