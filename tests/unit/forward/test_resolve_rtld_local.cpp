// SPDX-License-Identifier: MIT
// src/forward/real_cublas.cpp, as inside PyTorch: cuBLAS was loaded RTLD_LOCAL
// by absolute path before bwgemm's first call, BWGEMM_CUBLAS_LIBRARY is unset,
// and dlsym(RTLD_NEXT / RTLD_DEFAULT) cannot see it. Calls must still reach it
// (here the mock, which has cuBLAS's soname). Resolution happens once per
// process, so this is a process of its own.
#include <dlfcn.h>

#include "core/device_caps.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cublas_client.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

#define BWGEMM_STR_(x) #x
#define BWGEMM_STR(x) BWGEMM_STR_(x)

using test::Api;
using test::Entry;
using test::GemmCall;

namespace {

constexpr const char* kCublasNode = "libcublas.so." BWGEMM_STR(CUBLAS_VER_MAJOR);

// The premise: the mock is loaded, privately, under cuBLAS's name and node.
void the_mock_is_loaded_locally_under_cublas_name(void**) {
  void* library = mock_cublas().library;
  assert_non_null(dlvsym(library, "cublasGemmEx", kCublasNode));
  assert_null(dlsym(RTLD_DEFAULT, "mock_cublas_reset"));
  void* by_soname = dlopen(kCublasNode, RTLD_NOW | RTLD_NOLOAD);
  assert_ptr_equal(by_soname, library);
  dlclose(by_soname);
}

void forwarded_calls_reach_the_loaded_library(void**) {
  for (Api api : test::kApis) {
    for (Entry entry : test::kEntries) {
      GemmCall c = test::candidate_call(api, entry);
      c.m = -1;
      test::assert_call_forwarded(c, BWGEMM_REASON_INVALID_ARGUMENT);
    }
  }
}

// The handle's stream comes from the same library's getter.
void kernel_calls_query_the_loaded_library(void**) {
  const MockCublasControl& mock = mock_cublas();
  const cudaStream_t stream = reinterpret_cast<cudaStream_t>(0x5400);
  fake::register_families({0});
  mock.reset();
  mock.set_stream(stream);
  mock_cuda::set_stream_device(stream, 0);
  assert_int_equal(test::invoke(test::candidate_call(Api::Cublas, Entry::GemmEx)),
                   CUBLAS_STATUS_SUCCESS);
  assert_int_equal(fake::record(0).launch_calls, 1);
  assert_true(mock.getter_call_count() > 0);
  assert_ptr_equal(fake::record(0).last_problem.stream, stream);
}

}  // namespace

int main() {
  test::clear_bwgemm_environment();
  mock_cuda::reset();
  fake::reset();
  bwgemm::device_caps_reset();
  mock_cublas();  // dlopen(absolute path, RTLD_LOCAL) before bwgemm's first call
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_mock_is_loaded_locally_under_cublas_name),
      cmocka_unit_test(forwarded_calls_reach_the_loaded_library),
      cmocka_unit_test(kernel_calls_query_the_loaded_library),
  };
  return cmocka_run_group_tests_name("resolve_rtld_local", tests, nullptr, nullptr);
}
