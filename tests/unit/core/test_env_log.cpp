// SPDX-License-Identifier: MIT
// src/core/env_config.cpp, log.cpp, decision_log.cpp and path_switch.cpp:
// the BWGEMM_* variables, the decision log and the paths switched off at run
// time, observed through the exported functions and the log file.
#include <cstdlib>
#include <string>
#include <utility>

#include "core/device_caps.h"
#include "core/env_config.h"
#include "dispatch/decision_log.h"
#include "dispatch/path_switch.h"
#include "support/cmocka_cxx.h"
#include "support/fake_guard.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cublas_client.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

using test::Api;
using test::Entry;
using test::GemmCall;
using test::TempFile;

namespace {

// Each test logs to its own file, given as the test state.
int set_up(void** state) {
  mock_cuda::reset();
  fake::reset();
  fake::reset_guard();
  fake::register_families({0});
  mock_cublas().reset();
  bwgemm::device_caps_reset();
  bwgemm::decision_log_reset();
  bwgemmSetThreadPolicy(BWGEMM_POLICY_AUTO);
  test::clear_bwgemm_environment();
  setenv("BWGEMM_CUBLAS_LIBRARY", mock_cublas_path(), 1);
  auto* log = new TempFile;
  setenv("BWGEMM_LOG_FILE", log->path(), 1);
  bwgemm::env_config_reload();
  *state = log;
  return 0;
}

int tear_down(void** state) {
  delete static_cast<TempFile*>(*state);
  return 0;
}

std::string log_text(void** state) { return static_cast<TempFile*>(*state)->contents(); }

void set_env(const char* name, const char* value) {
  setenv(name, value, 1);
  bwgemm::env_config_reload();
}

GemmCall candidate() { return test::candidate_call(Api::Cublas, Entry::GemmEx); }

void assert_launched(const GemmCall& c) {
  const int launches = fake::total_launches();
  assert_int_equal(test::invoke(c), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(fake::total_launches(), launches + 1);
}

// ---- BWGEMM_DISABLE -------------------------------------------------------------

void disable_sends_every_call_to_cublas(void**) {
  set_env("BWGEMM_DISABLE", "1");
  for (Api api : test::kApis)
    for (Entry entry : test::kEntries)
      test::assert_call_forwarded(test::candidate_call(api, entry), BWGEMM_REASON_DISABLED_BY_ENV);
  assert_int_equal(fake::total_launches(), 0);
}

void disable_0_leaves_bwgemm_on(void**) {
  set_env("BWGEMM_DISABLE", "0");
  assert_launched(candidate());
}

// Switch values are read without regard to case; only the documented words
// count (the defect: BWGEMM_DISABLE=false disabled bwgemm).
void disable_accepts_the_boolean_words_in_any_case(void**) {
  for (const char* off : {"false", "FALSE", "no", "Off", "0"}) {
    set_env("BWGEMM_DISABLE", off);
    assert_launched(candidate());
  }
  for (const char* on : {"true", "Yes", "ON", "1"}) {
    set_env("BWGEMM_DISABLE", on);
    test::assert_call_forwarded(candidate(), BWGEMM_REASON_DISABLED_BY_ENV);
  }
}

// Anything else is ignored, with one warning naming the variable and what it
// accepts.
void unknown_values_are_ignored_with_one_warning(void** state) {
  set_env("BWGEMM_DISABLE", "maybe");
  assert_launched(candidate());
  set_env("BWGEMM_LOG", "abc");
  assert_int_equal(bwgemm::env_config().log_level, 0);
  set_env("BWGEMM_POLICY", "fastest");
  assert_int_equal(bwgemm::env_config().policy, BWGEMM_POLICY_AUTO);
  set_env("BWGEMM_SM90", "disabled");
  assert_launched(candidate());
  const std::string text = log_text(state);
  // Each reload warns once about every bad value still set.
  assert_int_equal(test::count_lines_with(text, {"warning: ", "BWGEMM_DISABLE=maybe", "0/off"}), 4);
  assert_int_equal(test::count_lines_with(text, {"warning: ", "BWGEMM_LOG=abc", "0/off"}), 3);
  assert_int_equal(
      test::count_lines_with(text, {"warning: ", "BWGEMM_POLICY=fastest", "auto, kernel, cublas"}),
      2);
  assert_int_equal(test::count_lines_with(text, {"warning: ", "BWGEMM_SM90=disabled"}), 1);
}

void log_accepts_levels_and_boolean_words(void**) {
  const std::pair<const char*, int> cases[] = {{"0", 0},  {"1", 1},   {"2", 2},    {"on", 1},
                                               {"ON", 1}, {"off", 0}, {"True", 1}, {"no", 0}};
  for (const auto& c : cases) {
    set_env("BWGEMM_LOG", c.first);
    assert_int_equal(bwgemm::env_config().log_level, c.second);
  }
}

// ---- BWGEMM_POLICY and the precedence of dispatch/policy.h ------------------------

// The process policy: kernel asks the family for its configuration
// regardless of the measured table (forced), cublas forwards every call,
// auto asks for the measured choice.
void policy_env_forces_each_path(void**) {
  set_env("BWGEMM_POLICY", "kernel");
  assert_launched(candidate());
  assert_true(fake::record(0).last_forced);
  set_env("BWGEMM_POLICY", "cublas");
  test::assert_call_forwarded(candidate(), BWGEMM_REASON_FORCED_CUBLAS);
  set_env("BWGEMM_POLICY", "auto");
  assert_launched(candidate());
  assert_false(fake::record(0).last_forced);
}

void policy_env_ignores_case(void**) {
  set_env("BWGEMM_POLICY", "CUBLAS");
  test::assert_call_forwarded(candidate(), BWGEMM_REASON_FORCED_CUBLAS);
  set_env("BWGEMM_POLICY", "Kernel");
  assert_launched(candidate());
  assert_true(fake::record(0).last_forced);
}

// A thread's own policy wins over the environment's; BWGEMM_DISABLE over both.
void thread_policy_overrides_env_policy_and_disable_overrides_both(void**) {
  set_env("BWGEMM_POLICY", "cublas");
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
  assert_launched(candidate());
  assert_true(fake::record(0).last_forced);
  bwgemmSetThreadPolicy(BWGEMM_POLICY_AUTO);
  test::assert_call_forwarded(candidate(), BWGEMM_REASON_FORCED_CUBLAS);
  set_env("BWGEMM_POLICY", "kernel");
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_CUBLAS);
  test::assert_call_forwarded(candidate(), BWGEMM_REASON_FORCED_CUBLAS);
  set_env("BWGEMM_DISABLE", "1");
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
  test::assert_call_forwarded(candidate(), BWGEMM_REASON_DISABLED_BY_ENV);
  bwgemmSetThreadPolicy(BWGEMM_POLICY_AUTO);
}

// ---- BWGEMM_LOG and BWGEMM_LOG_FILE ------------------------------------------------

int logged_lines(void** state) {
  return test::count_lines_with(log_text(state), {"bwgemm: ", "cublasGemmEx "});
}

void log_unset_logs_nothing(void** state) {
  test::invoke(candidate());
  GemmCall fp32 = candidate();
  fp32.Atype = fp32.Btype = fp32.Ctype = CUDA_R_32F;
  test::invoke(fp32);
  assert_int_equal(logged_lines(state), 0);
}

void log_1_logs_each_decision_once(void** state) {
  set_env("BWGEMM_LOG", "1");
  GemmCall first = candidate();
  GemmCall second = candidate();
  second.m = 48;
  second.ldc = 48;
  second.lda = 48;

  test::invoke(first);
  assert_int_equal(logged_lines(state), 1);
  test::invoke(first);
  assert_int_equal(logged_lines(state), 1);
  test::invoke(second);
  assert_int_equal(logged_lines(state), 2);
  assert_int_equal(test::count_lines_with(log_text(state), {"cublasGemmEx ", " m=48 "}), 1);
  test::invoke(first);
  test::invoke(second);
  assert_int_equal(logged_lines(state), 2);

  // The same arguments with another outcome are another decision.
  fake::behavior(0).config = -1;
  test::invoke(first);
  assert_int_equal(logged_lines(state), 3);
}

void log_2_logs_every_call(void** state) {
  set_env("BWGEMM_LOG", "2");
  for (int i = 0; i < 3; ++i) test::invoke(candidate());
  assert_int_equal(logged_lines(state), 3);
}

void log_lines_name_the_entry_point_and_the_path(void** state) {
  set_env("BWGEMM_LOG", "2");
  GemmCall fp32 = test::candidate_call(Api::Bwgemm, Entry::StridedBatchedEx);
  fp32.Atype = fp32.Btype = fp32.Ctype = CUDA_R_32F;
  test::invoke(fp32);
  test::invoke(test::candidate_call(Api::Cublas, Entry::GemmEx64));
  const std::string text = log_text(state);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: ", "bwgemmGemmStridedBatchedEx ",
                                                 "-> cublas", "UNSUPPORTED_TYPES"}),
                   1);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: ", "cublasGemmEx_64 ", "sm90",
                                                 fake::config_name(0, 0), "KERNEL_SELECTED"}),
                   1);
}

// Each line names the device current for the call, so a process driving
// several GPUs shows which device ran what.
void log_lines_name_the_device(void** state) {
  set_env("BWGEMM_LOG", "2");
  test::invoke(candidate());
  mock_cuda::set_current_device(1);
  test::invoke(test::candidate_call(Api::Cublas, Entry::GemmEx));  // its handle made on device 1
  mock_cuda::set_current_device(0);
  const std::string text = log_text(state);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: ", " device=0 -> "}), 1);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: ", " device=1 -> sm90"}), 1);
}

// The defect: a call without a handle, which cuBLAS refuses before it
// touches CUDA, was logged with the current device, and asking for it
// initialised the CUDA runtime (in a process about to fork, the child could
// then not use CUDA). Such a line says device=-1, and the runtime is not
// called.
void a_call_without_a_handle_is_logged_without_the_runtime(void** state) {
  set_env("BWGEMM_LOG", "2");
  GemmCall no_handle = candidate();
  no_handle.handle = nullptr;
  const int before = mock_cuda::get_device_call_count();
  test::invoke(no_handle);
  assert_int_equal(mock_cuda::get_device_call_count(), before);
  const std::string text = log_text(state);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: ", " device=-1 -> cublas"}), 1);
}

// The defect: calls through bwgemmGemmEx & co. were logged as cublasGemmEx & co.
// Each line names the function the caller called, and the same arguments
// through the two names are two decisions at BWGEMM_LOG=1.
void log_lines_name_the_function_as_called(void** state) {
  set_env("BWGEMM_LOG", "1");
  for (Api api : test::kApis)
    for (Entry entry : test::kEntries) test::invoke(test::candidate_call(api, entry));
  const std::string text = log_text(state);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: ", " -> "}), 12);
  for (Api api : test::kApis)
    for (Entry entry : test::kEntries) {
      const std::string called = std::string("bwgemm: ") + test::function_name(api, entry) + " ";
      if (test::count_lines_with(text, {called.c_str()}) != 1)
        fail_msg("expected one line starting \"%s\" in:\n%s", called.c_str(), text.c_str());
    }
}

// ---- BWGEMM_WAIT_TIMEOUT_MS -------------------------------------------------------------

// The bounded waits' base budget: 100 ms unset, 1..600000 ms when set; any
// other value keeps the default with a warning.
void wait_timeout_default_override_and_bad_values(void** state) {
  assert_int_equal(bwgemm::env_config().wait_timeout_ms, 100);
  set_env("BWGEMM_WAIT_TIMEOUT_MS", "30000");
  assert_int_equal(bwgemm::env_config().wait_timeout_ms, 30000);
  set_env("BWGEMM_WAIT_TIMEOUT_MS", "1");
  assert_int_equal(bwgemm::env_config().wait_timeout_ms, 1);
  for (const char* bad : {"0", "-5", "600001", "10ms", "abc", "99999999999999999999"}) {
    set_env("BWGEMM_WAIT_TIMEOUT_MS", bad);
    assert_int_equal(bwgemm::env_config().wait_timeout_ms, 100);
  }
  assert_int_equal(test::count_lines_with(log_text(state),
                                          {"warning: ", "BWGEMM_WAIT_TIMEOUT_MS=", "1 to 600000"}),
                   6);
}

// ---- BWGEMM_SM90 / BWGEMM_SM100 -------------------------------------------------------

void assert_family_disabled(const GemmCall& c) {
  test::assert_call_forwarded(c, BWGEMM_REASON_FAMILY_DISABLED);
}

void sm90_off_switches_the_sm90_family_off(void**) {
  set_env("BWGEMM_SM90", "off");
  assert_family_disabled(candidate());
  fake::family(0).path = BWGEMM_PATH_SM100;
  assert_launched(candidate());
}

void sm100_off_switches_the_sm100_family_off(void**) {
  fake::family(0).path = BWGEMM_PATH_SM100;
  set_env("BWGEMM_SM100", "off");
  assert_family_disabled(candidate());
  fake::family(0).path = BWGEMM_PATH_SM90;
  assert_launched(candidate());
}

// The defect: BWGEMM_SM100=OFF and =false left the family on.
void off_switches_ignore_case_and_accept_false(void**) {
  fake::family(0).path = BWGEMM_PATH_SM100;
  for (const char* off : {"OFF", "false", "No", "0"}) {
    set_env("BWGEMM_SM100", off);
    assert_family_disabled(candidate());
  }
  fake::family(0).path = BWGEMM_PATH_SM90;
  set_env("BWGEMM_SM90", "FALSE");
  assert_family_disabled(candidate());
}

void other_values_leave_the_paths_on(void**) {
  set_env("BWGEMM_SM90", "on");
  set_env("BWGEMM_SM100", "1");
  assert_launched(candidate());
  fake::family(0).path = BWGEMM_PATH_SM100;
  assert_launched(candidate());
}

// The launcher that failed has warned (kernel_launch.cpp, test_launch_params);
// dispatch forwards the call and adds no second warning.
void failed_launch_is_forwarded_without_a_second_warning(void** state) {
  fake::behavior(0).launch_result = {bwgemm::LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
  const MockCublasControl& mock = mock_cublas();
  const cublasStatus_t status = test::distinctive_status();
  mock.set_status(status);
  const GemmCall c = candidate();
  assert_int_equal(test::invoke(c), status);
  assert_int_equal(fake::record(0).launch_calls, 1);
  test::assert_mock_call_equal(test::expected_forward(c), mock.last_call(), "cublasGemmEx");
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_LAUNCH_FAILED);
  assert_int_equal(test::count_lines_with(log_text(state), {"bwgemm: warning: "}), 0);
}

// A guarded family whose first-use self-check has not run (the stream is
// capturing) sends the call to cuBLAS quietly: no launch, no warning, and the
// reason says why (the defect: a false "kernel launch failed (CUDA error
// 600)" warning and LAUNCH_FAILED on every such call).
void pending_self_check_is_forwarded_quietly(void** state) {
  fake::family(0).guarded = true;
  fake::set_guard_decision(bwgemm::GuardDecision::kPending);
  const MockCublasControl& mock = mock_cublas();
  const cublasStatus_t status = test::distinctive_status();
  mock.set_status(status);
  const GemmCall c = candidate();
  for (int call = 0; call < 3; ++call) {
    assert_int_equal(test::invoke(c), status);
    test::assert_mock_call_equal(test::expected_forward(c), mock.last_call(), "cublasGemmEx");
    const bwgemmDispatchInfo_t info = test::last_dispatch();
    assert_int_equal(info.path, BWGEMM_PATH_CUBLAS);
    assert_int_equal(info.reason, BWGEMM_REASON_SELF_CHECK_PENDING);
  }
  assert_int_equal(fake::guard_calls(), 3);
  assert_int_equal(fake::record(0).launch_calls, 0);
  assert_int_equal(test::count_lines_with(log_text(state), {"warning"}), 0);
}

// The guard's other answers: a failed self-check forwards as a disabled
// family, an earlier protocol failure is reported once as EXECUTION_FAILED,
// and a healthy device launches with the guard's error flag.
void guard_decisions_map_to_statuses(void** state) {
  fake::family(0).guarded = true;
  const GemmCall c = candidate();
  fake::set_guard_decision(bwgemm::GuardDecision::kFailed);
  mock_cublas().set_status(CUBLAS_STATUS_SUCCESS);
  assert_int_equal(test::invoke(c), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_FAMILY_DISABLED);
  assert_int_equal(test::last_dispatch().path, BWGEMM_PATH_CUBLAS);

  fake::set_guard_decision(bwgemm::GuardDecision::kProtocolFailure);
  const int forwarded = mock_cublas().call_count();
  assert_int_equal(test::invoke(c), CUBLAS_STATUS_EXECUTION_FAILED);
  assert_int_equal(mock_cublas().call_count(), forwarded);
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_LAUNCH_FAILED);
  assert_int_equal(test::last_dispatch().path, BWGEMM_PATH_SM90);

  fake::set_guard_decision(bwgemm::GuardDecision::kLaunch);
  assert_int_equal(test::invoke(c), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(fake::record(0).launch_calls, 1);
  assert_ptr_equal(fake::record(0).last_error_flag, fake::guard_error_flag());
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_KERNEL_SELECTED);
  assert_int_equal(fake::record(0).launch_calls, 1);
  assert_int_equal(test::count_lines_with(log_text(state), {"warning"}), 0);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup_teardown(f, set_up, tear_down)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(disable_sends_every_call_to_cublas),
      TEST(disable_0_leaves_bwgemm_on),
      TEST(disable_accepts_the_boolean_words_in_any_case),
      TEST(unknown_values_are_ignored_with_one_warning),
      TEST(log_accepts_levels_and_boolean_words),
      TEST(policy_env_forces_each_path),
      TEST(policy_env_ignores_case),
      TEST(thread_policy_overrides_env_policy_and_disable_overrides_both),
      TEST(log_unset_logs_nothing),
      TEST(log_1_logs_each_decision_once),
      TEST(log_2_logs_every_call),
      TEST(log_lines_name_the_entry_point_and_the_path),
      TEST(a_call_without_a_handle_is_logged_without_the_runtime),
      TEST(log_lines_name_the_device),
      TEST(log_lines_name_the_function_as_called),
      TEST(wait_timeout_default_override_and_bad_values),
      TEST(sm90_off_switches_the_sm90_family_off),
      TEST(sm100_off_switches_the_sm100_family_off),
      TEST(off_switches_ignore_case_and_accept_false),
      TEST(other_values_leave_the_paths_on),
      TEST(failed_launch_is_forwarded_without_a_second_warning),
      TEST(pending_self_check_is_forwarded_quietly),
      TEST(guard_decisions_map_to_statuses),
  };
  return cmocka_run_group_tests_name("env_log", tests, nullptr, nullptr);
}
