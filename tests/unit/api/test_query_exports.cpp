// SPDX-License-Identifier: MIT
// src/api/query_exports.cpp: bwgemmGetVersion, the per-thread policy,
// bwgemmGetLastDispatch and the status and reason strings.
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>

#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cublas_client.h"
#include "support/test_env.h"

using test::Api;
using test::Entry;
using test::GemmCall;

namespace {

template <class Fn>
void on_new_thread(Fn fn) {
  std::thread t(fn);
  t.join();
}

void version_is_the_project_version(void**) {
  const int expected = BWGEMM_TEST_VERSION_MAJOR * 10000 + BWGEMM_TEST_VERSION_MINOR * 100 +
                       BWGEMM_TEST_VERSION_PATCH;
  assert_int_equal(bwgemmGetVersion(), expected);
  assert_int_equal(BWGEMM_VERSION, expected);
}

void policy_is_auto_by_default(void**) {
  bwgemmPolicy_t fresh = BWGEMM_POLICY_FORCE_CUBLAS;
  on_new_thread([&] { fresh = bwgemmGetThreadPolicy(); });
  assert_int_equal(fresh, BWGEMM_POLICY_AUTO);
}

void every_policy_can_be_set_and_read_back(void**) {
  for (bwgemmPolicy_t policy :
       {BWGEMM_POLICY_FORCE_KERNEL, BWGEMM_POLICY_FORCE_CUBLAS, BWGEMM_POLICY_AUTO}) {
    assert_int_equal(bwgemmSetThreadPolicy(policy), CUBLAS_STATUS_SUCCESS);
    assert_int_equal(bwgemmGetThreadPolicy(), policy);
  }
}

void unknown_policies_are_rejected(void**) {
  assert_int_equal(bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_CUBLAS), CUBLAS_STATUS_SUCCESS);
  for (int bad : {3, -1, 100}) {
    assert_int_equal(bwgemmSetThreadPolicy(static_cast<bwgemmPolicy_t>(bad)),
                     CUBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(bwgemmGetThreadPolicy(), BWGEMM_POLICY_FORCE_CUBLAS);
  }
}

void policy_is_per_thread(void**) {
  assert_int_equal(bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_CUBLAS), CUBLAS_STATUS_SUCCESS);
  bwgemmPolicy_t other = BWGEMM_POLICY_FORCE_CUBLAS;
  on_new_thread([&] {
    bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
    other = bwgemmGetThreadPolicy();
  });
  assert_int_equal(other, BWGEMM_POLICY_FORCE_KERNEL);
  assert_int_equal(bwgemmGetThreadPolicy(), BWGEMM_POLICY_FORCE_CUBLAS);
  // The policy steers this thread's calls.
  test::assert_call_forwarded(test::candidate_call(Api::Cublas, Entry::GemmEx),
                              BWGEMM_REASON_FORCED_CUBLAS);
}

void last_dispatch_rejects_null_and_short_structs(void**) {
  assert_int_equal(bwgemmGetLastDispatch(nullptr), CUBLAS_STATUS_INVALID_VALUE);
  bwgemmDispatchInfo_t info{};
  for (size_t size : {size_t{0}, sizeof info - 1, offsetof(bwgemmDispatchInfo_t, kernel)}) {
    info.size = size;
    assert_int_equal(bwgemmGetLastDispatch(&info), CUBLAS_STATUS_INVALID_VALUE);
  }
}

// A caller built against a later header passes a larger struct.
void last_dispatch_accepts_larger_structs(void**) {
  struct Larger {
    bwgemmDispatchInfo_t info;
    int later_field;
  } larger{};
  larger.info.size = sizeof larger;
  larger.later_field = 77;
  assert_int_equal(bwgemmGetLastDispatch(&larger.info), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(larger.later_field, 77);
}

void last_dispatch_is_none_before_any_call(void**) {
  bwgemmDispatchInfo_t info{};
  cublasStatus_t status = CUBLAS_STATUS_INTERNAL_ERROR;
  on_new_thread([&] {
    info.size = sizeof info;
    status = bwgemmGetLastDispatch(&info);
  });
  assert_int_equal(status, CUBLAS_STATUS_SUCCESS);
  assert_int_equal(info.path, BWGEMM_PATH_NONE);
}

void last_dispatch_after_forwarding(void**) {
  GemmCall c = test::candidate_call(Api::Bwgemm, Entry::GemmEx);
  c.Atype = c.Btype = c.Ctype = CUDA_R_32F;
  test::invoke(c);
  const bwgemmDispatchInfo_t info = test::last_dispatch();
  assert_int_equal(info.path, BWGEMM_PATH_CUBLAS);
  assert_int_equal(info.reason, BWGEMM_REASON_UNSUPPORTED_TYPES);
  assert_string_equal(info.reason_name, "UNSUPPORTED_TYPES");
  assert_string_equal(info.reason_message, bwgemmGetReasonString(BWGEMM_REASON_UNSUPPORTED_TYPES));
  assert_non_null(info.kernel);
  assert_string_equal(info.kernel, "");
}

void last_dispatch_after_a_kernel_launch(void**) {
  fake::behavior(0).config = 3;
  assert_int_equal(test::invoke(test::candidate_call(Api::Cublas, Entry::StridedBatchedEx)),
                   CUBLAS_STATUS_SUCCESS);
  const bwgemmDispatchInfo_t info = test::last_dispatch();
  assert_int_equal(info.path, BWGEMM_PATH_SM90);
  assert_int_equal(info.reason, BWGEMM_REASON_KERNEL_SELECTED);
  assert_string_equal(info.reason_name, "KERNEL_SELECTED");
  assert_string_equal(info.kernel, fake::config_name(0, 3));
  // The family's selection rule says why this configuration.
  assert_string_equal(info.reason_message, "fake rule: kernel");
}

// Where the family's table prefers cuBLAS, its rule says so.
void last_dispatch_names_the_rule_that_preferred_cublas(void**) {
  fake::behavior(0).config = -1;
  assert_int_equal(test::invoke(test::candidate_call(Api::Cublas, Entry::GemmEx)),
                   CUBLAS_STATUS_SUCCESS);
  const bwgemmDispatchInfo_t info = test::last_dispatch();
  assert_int_equal(info.path, BWGEMM_PATH_CUBLAS);
  assert_int_equal(info.reason, BWGEMM_REASON_POLICY_PREFERS_CUBLAS);
  assert_string_equal(info.reason_message, "fake rule: cuBLAS");
}

void last_dispatch_is_per_thread(void**) {
  GemmCall fp32 = test::candidate_call(Api::Cublas, Entry::GemmEx);
  fp32.Atype = fp32.Btype = fp32.Ctype = CUDA_R_32F;
  test::invoke(fp32);
  on_new_thread([] { test::invoke(test::candidate_call(Api::Cublas, Entry::GemmEx)); });
  assert_int_equal(fake::total_launches(), 1);
  assert_int_equal(test::last_dispatch().path, BWGEMM_PATH_CUBLAS);
}

void status_strings_are_never_null(void**) {
  const cublasStatus_t known[] = {CUBLAS_STATUS_SUCCESS,          CUBLAS_STATUS_NOT_INITIALIZED,
                                  CUBLAS_STATUS_ALLOC_FAILED,     CUBLAS_STATUS_INVALID_VALUE,
                                  CUBLAS_STATUS_ARCH_MISMATCH,    CUBLAS_STATUS_MAPPING_ERROR,
                                  CUBLAS_STATUS_EXECUTION_FAILED, CUBLAS_STATUS_INTERNAL_ERROR,
                                  CUBLAS_STATUS_NOT_SUPPORTED,    CUBLAS_STATUS_LICENSE_ERROR};
  std::set<std::string> distinct;
  for (cublasStatus_t s : known) {
    const char* text = bwgemmGetStatusString(s);
    assert_non_null(text);
    assert_true(text[0] != '\0');
    distinct.insert(text);
  }
  assert_int_equal(distinct.size(), sizeof known / sizeof known[0]);
  for (int unknown : {2, 12345, -1}) {
    const char* text = bwgemmGetStatusString(static_cast<cublasStatus_t>(unknown));
    assert_non_null(text);
    assert_true(distinct.count(text) == 0);
  }
}

void reason_strings_are_never_null(void**) {
  std::set<std::string> distinct;
  int reasons = 0;
#define BWGEMM_CHECK_REASON_(name, value, message)                  \
  do {                                                              \
    const char* text = bwgemmGetReasonString(BWGEMM_REASON_##name); \
    assert_non_null(text);                                          \
    assert_true(text[0] != '\0');                                   \
    distinct.insert(text);                                          \
    ++reasons;                                                      \
  } while (0);
  BWGEMM_REASON_MAP(BWGEMM_CHECK_REASON_)
#undef BWGEMM_CHECK_REASON_
  assert_int_equal(distinct.size(), reasons);
  for (int unknown : {-1, 999}) {
    const char* text = bwgemmGetReasonString(static_cast<bwgemmReason_t>(unknown));
    assert_non_null(text);
    assert_true(distinct.count(text) == 0);
  }
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup(f, test::reset_gemm_state)

int main() {
  test::clear_bwgemm_environment();
  setenv("BWGEMM_CUBLAS_LIBRARY", mock_cublas_path(), 1);
  const struct CMUnitTest tests[] = {
      TEST(version_is_the_project_version),
      TEST(policy_is_auto_by_default),
      TEST(every_policy_can_be_set_and_read_back),
      TEST(unknown_policies_are_rejected),
      TEST(policy_is_per_thread),
      TEST(last_dispatch_rejects_null_and_short_structs),
      TEST(last_dispatch_accepts_larger_structs),
      TEST(last_dispatch_is_none_before_any_call),
      TEST(last_dispatch_after_forwarding),
      TEST(last_dispatch_after_a_kernel_launch),
      TEST(last_dispatch_names_the_rule_that_preferred_cublas),
      TEST(last_dispatch_is_per_thread),
      TEST(status_strings_are_never_null),
      TEST(reason_strings_are_never_null),
  };
  return cmocka_run_group_tests_name("query_exports", tests, nullptr, nullptr);
}
