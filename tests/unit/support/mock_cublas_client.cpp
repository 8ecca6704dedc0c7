// SPDX-License-Identifier: MIT
#include "support/mock_cublas_client.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

template <class Fn>
void resolve_in(void* library, const char* path, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(dlsym(library, name));
  if (*out == nullptr) {
    std::fprintf(stderr, "mock cuBLAS %s lacks %s\n", path, name);
    std::exit(EXIT_FAILURE);
  }
}

MockCublasControl open_mock(const char* path) {
  MockCublasControl m{};
  m.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (m.library == nullptr) {
    std::fprintf(stderr, "cannot open the mock cuBLAS: %s\n", dlerror());
    std::exit(EXIT_FAILURE);
  }
  const auto resolve = [&](const char* name, auto* out) { resolve_in(m.library, path, name, out); };
  resolve("mock_cublas_reset", &m.reset);
  resolve("mock_cublas_set_status", &m.set_status);
  resolve("mock_cublas_set_getter_status", &m.set_getter_status);
  resolve("mock_cublas_set_pointer_mode", &m.set_pointer_mode);
  resolve("mock_cublas_set_stream", &m.set_stream);
  resolve("mock_cublas_set_sm_count_target", &m.set_sm_count_target);
  resolve("mock_cublas_call_count", &m.call_count);
  resolve("mock_cublas_getter_call_count", &m.getter_call_count);
  resolve("mock_cublas_last_call", &m.last_call);
  resolve("mock_cublas_last_getter_handle", &m.last_getter_handle);
  resolve("cublasCreate_v2", &m.create);
  resolve("cublasDestroy_v2", &m.destroy);
  resolve("mock_cublas_live_handle_count", &m.live_handle_count);
  resolve("mock_cublas_foreign_handle_queries", &m.foreign_handle_queries);
  resolve("mock_cublas_set_gemm_hook", &m.set_gemm_hook);
  return m;
}

}  // namespace

const char* mock_cublas_path() { return BWGEMM_TEST_MOCK_CUBLAS; }
const char* other_mock_cublas_path() { return BWGEMM_TEST_MOCK_CUBLAS_OTHER; }

const MockCublasControl& mock_cublas() {
  static const MockCublasControl control = open_mock(mock_cublas_path());
  return control;
}

const MockCublasControl& other_mock_cublas() {
  static const MockCublasControl control = open_mock(other_mock_cublas_path());
  return control;
}
