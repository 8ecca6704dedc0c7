// SPDX-License-Identifier: MIT
// src/forward/real_cublas.cpp and real_cublaslt.cpp when cuBLAS and cuBLASLt
// cannot be found (BWGEMM_CUBLAS_LIBRARY and BWGEMM_CUBLASLT_LIBRARY name
// files that do not exist): every call
// returns CUBLAS_STATUS_NOT_INITIALIZED, the failure is logged once, nothing
// crashes, and no other cuBLAS is picked up instead. A process of its own,
// since resolution happens once per process.
#include <cublasLt.h>
#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "core/device_caps.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

#define BWGEMM_STR_(x) #x
#define BWGEMM_STR(x) BWGEMM_STR_(x)

using test::Api;
using test::Entry;
using test::GemmCall;

namespace {

constexpr const char* kMissing = "/nonexistent/libcublas.so." BWGEMM_STR(CUBLAS_VER_MAJOR);
constexpr const char* kMissingLt = "/nonexistent/libcublasLt.so." BWGEMM_STR(CUBLAS_VER_MAJOR);

test::TempFile* g_log;

void every_call_is_not_initialized(void**) {
  for (int round = 0; round < 3; ++round) {
    for (Api api : test::kApis) {
      for (Entry entry : test::kEntries) {
        GemmCall c = test::candidate_call(api, entry);
        assert_int_equal(test::invoke(c), CUBLAS_STATUS_NOT_INITIALIZED);
        c.m = -1;
        assert_int_equal(test::invoke(c), CUBLAS_STATUS_NOT_INITIALIZED);
        c = test::candidate_call(api, entry);
        c.Atype = c.Btype = c.Ctype = CUDA_R_32F;
        assert_int_equal(test::invoke(c), CUBLAS_STATUS_NOT_INITIALIZED);
      }
    }
  }
  // A call bwgemm would run cannot learn the handle's stream without cuBLAS.
  test::invoke(test::candidate_call(Api::Cublas, Entry::GemmEx));
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_HANDLE_QUERY_FAILED);
  assert_int_equal(fake::total_launches(), 0);
  // No handle can be made or destroyed either.
  cublasHandle_t handle = nullptr;
  assert_int_equal(cublasCreate_v2(&handle), CUBLAS_STATUS_NOT_INITIALIZED);
  assert_null(handle);
  assert_int_equal(cublasDestroy_v2(test::candidate_call(Api::Cublas, Entry::GemmEx).handle),
                   CUBLAS_STATUS_NOT_INITIALIZED);
}

// cublasLtMatmul without cuBLASLt: its descriptors cannot be read, nor the
// call forwarded (the arguments are never touched).
void every_cublaslt_call_is_not_initialized(void**) {
  const float one = 1.0f;
  const auto desc = reinterpret_cast<cublasLtMatmulDesc_t>(0x1000);
  const auto layout = reinterpret_cast<cublasLtMatrixLayout_t>(0x2000);
  for (int round = 0; round < 3; ++round)
    assert_int_equal(
        cublasLtMatmul(reinterpret_cast<cublasLtHandle_t>(0x3000), desc, &one, &one, layout, &one,
                       layout, &one, nullptr, layout, reinterpret_cast<void*>(0x4000), layout,
                       nullptr, nullptr, 0, nullptr),
        CUBLAS_STATUS_NOT_INITIALIZED);
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_HANDLE_QUERY_FAILED);
}

void the_failure_is_logged_once_naming_the_library(void**) {
  const std::string text = g_log->contents();
  assert_int_equal(test::count_lines_with(text, {"bwgemm: warning: ", kMissing}), 1);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: warning: ", kMissingLt}), 1);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: warning: "}), 2);
}

// The real cuBLAS is in the loader's cache on this machine: it must not have
// been loaded in place of the missing one.
void no_other_cublas_was_loaded(void**) {
  assert_null(dlopen("libcublas.so." BWGEMM_STR(CUBLAS_VER_MAJOR), RTLD_NOW | RTLD_NOLOAD));
  assert_null(dlopen("libcublasLt.so." BWGEMM_STR(CUBLAS_VER_MAJOR), RTLD_NOW | RTLD_NOLOAD));
}

}  // namespace

int main() {
  test::clear_bwgemm_environment();
  test::TempFile log;
  g_log = &log;
  setenv("BWGEMM_CUBLAS_LIBRARY", kMissing, 1);
  setenv("BWGEMM_CUBLASLT_LIBRARY", kMissingLt, 1);
  setenv("BWGEMM_LOG_FILE", log.path(), 1);
  mock_cuda::reset();
  fake::reset();
  fake::register_families({0});
  bwgemm::device_caps_reset();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_call_is_not_initialized),
      cmocka_unit_test(every_cublaslt_call_is_not_initialized),
      cmocka_unit_test(the_failure_is_logged_once_naming_the_library),
      cmocka_unit_test(no_other_cublas_was_loaded),
  };
  return cmocka_run_group_tests_name("resolve_absent", tests, nullptr, nullptr);
}
