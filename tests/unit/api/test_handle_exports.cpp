// SPDX-License-Identifier: MIT
// src/api/handle_exports.cpp and src/forward/handle_registry.cpp, with two
// copies of "cuBLAS" in the process: the mock bwgemm forwards to
// (BWGEMM_CUBLAS_LIBRARY) and a second copy of it from another directory,
// opened RTLD_LOCAL as a library that carries its own cuBLAS would. bwgemm
// reads and runs only handles it saw created through its cublasCreate_v2;
// any other handle (the second copy's, or one the first copy made behind
// bwgemm's back) goes to cuBLAS unchanged and unread, even when the thread
// forces the kernel.
#include <cstdlib>

#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cublas_client.h"
#include "support/test_env.h"

using test::Api;
using test::Entry;
using test::GemmCall;

namespace {

// The thread forces the kernel: no policy may stand between a handle and it.
int reset_all(void**) {
  test::reset_gemm_state();
  other_mock_cublas().reset();
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
  return 0;
}

// Every entry point the kernels take, called with `handle`: each must reach
// the first copy's GEMM function exactly as made, with no kernel launched and
// no getter of either copy asked about the handle.
void assert_forwarded_unread(cublasHandle_t handle) {
  const MockCublasControl &mock = mock_cublas(), &other = other_mock_cublas();
  for (Api api : test::kApis) {
    for (Entry entry : test::kEntries) {
      if (test::is_pointer_array(entry)) continue;
      GemmCall c = test::candidate_call(api, entry);
      c.handle = handle;
      test::assert_call_forwarded(c, BWGEMM_REASON_UNKNOWN_HANDLE);
      if (mock.getter_call_count() != 0 || other.getter_call_count() != 0)
        fail_msg("%s: the handle was read", test::function_name(api, entry));
    }
  }
  assert_int_equal(other.call_count(), 0);
}

// The defect: bwgemm asked the first copy's getters about the second copy's
// handle and launched its kernel on what they returned.
void handle_of_another_cublas_is_forwarded_unread(void**) {
  const MockCublasControl& other = other_mock_cublas();
  cublasHandle_t handle = nullptr;
  assert_int_equal(other.create(&handle), CUBLAS_STATUS_SUCCESS);
  assert_forwarded_unread(handle);
  assert_int_equal(mock_cublas().foreign_handle_queries(), 0);
  assert_int_equal(other.destroy(handle), CUBLAS_STATUS_SUCCESS);
}

// A handle the first copy made without going through bwgemm (created before
// bwgemm was loaded, or through dlsym on cuBLAS itself) is not known either:
// it is forwarded, which is correct, only not accelerated.
void handle_made_behind_bwgemms_back_is_forwarded_unread(void**) {
  const MockCublasControl& mock = mock_cublas();
  cublasHandle_t handle = nullptr;
  assert_int_equal(mock.create(&handle), CUBLAS_STATUS_SUCCESS);
  assert_forwarded_unread(handle);
  assert_int_equal(mock.destroy(handle), CUBLAS_STATUS_SUCCESS);
}

// cublasCreate_v2 through bwgemm: made by the first copy (the one bwgemm
// forwards to), and its calls run on the kernel, reading that handle only.
void handle_created_through_bwgemm_reaches_the_kernel(void**) {
  const MockCublasControl &mock = mock_cublas(), &other = other_mock_cublas();
  const int live = mock.live_handle_count(), other_live = other.live_handle_count();
  cublasHandle_t handle = nullptr;
  assert_int_equal(cublasCreate_v2(&handle), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(mock.live_handle_count(), live + 1);
  assert_int_equal(other.live_handle_count(), other_live);
  for (Api api : test::kApis) {
    for (Entry entry : test::kEntries) {
      if (test::is_pointer_array(entry)) continue;
      GemmCall c = test::candidate_call(api, entry);
      c.handle = handle;
      const int launches = fake::total_launches();
      mock.set_status(test::distinctive_status());
      assert_int_equal(test::invoke(c), CUBLAS_STATUS_SUCCESS);
      assert_int_equal(fake::total_launches(), launches + 1);
      assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_KERNEL_SELECTED);
      assert_ptr_equal(mock.last_getter_handle(), handle);
    }
  }
  assert_int_equal(mock.call_count(), 0);
  assert_int_equal(mock.foreign_handle_queries(), 0);
  assert_int_equal(cublasDestroy_v2(handle), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(mock.live_handle_count(), live);
}

// cublasDestroy_v2 through bwgemm destroys the handle in cuBLAS and makes
// bwgemm forget it: its address, if used again, is no longer read.
void destroyed_handle_is_forgotten(void**) {
  const MockCublasControl& mock = mock_cublas();
  cublasHandle_t handle = nullptr;
  assert_int_equal(cublasCreate_v2(&handle), CUBLAS_STATUS_SUCCESS);
  const int live = mock.live_handle_count();
  assert_int_equal(cublasDestroy_v2(handle), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(mock.live_handle_count(), live - 1);
  assert_forwarded_unread(handle);
}

// Creating and destroying return cuBLAS's own statuses, and a failed create
// records nothing.
void create_and_destroy_return_cublas_statuses(void**) {
  assert_int_equal(cublasCreate_v2(nullptr), CUBLAS_STATUS_INVALID_VALUE);
  cublasHandle_t handle = nullptr;
  assert_int_equal(cublasCreate_v2(&handle), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(cublasDestroy_v2(handle), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(cublasDestroy_v2(handle), CUBLAS_STATUS_NOT_INITIALIZED);
  cublasHandle_t foreign = nullptr;
  assert_int_equal(other_mock_cublas().create(&foreign), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(cublasDestroy_v2(foreign), CUBLAS_STATUS_NOT_INITIALIZED);
  assert_int_equal(other_mock_cublas().destroy(foreign), CUBLAS_STATUS_SUCCESS);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup(f, reset_all)

int main() {
  test::clear_bwgemm_environment();
  setenv("BWGEMM_CUBLAS_LIBRARY", mock_cublas_path(), 1);
  // Both copies are in the process before bwgemm's first call.
  mock_cublas();
  other_mock_cublas();
  const struct CMUnitTest tests[] = {
      TEST(handle_of_another_cublas_is_forwarded_unread),
      TEST(handle_made_behind_bwgemms_back_is_forwarded_unread),
      TEST(handle_created_through_bwgemm_reaches_the_kernel),
      TEST(destroyed_handle_is_forgotten),
      TEST(create_and_destroy_return_cublas_statuses),
  };
  return cmocka_run_group_tests_name("handle_exports", tests, nullptr, nullptr);
}
