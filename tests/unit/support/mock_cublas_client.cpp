// SPDX-License-Identifier: MIT
#include "support/mock_cublas_client.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

template <class Fn>
void resolve(void* library, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(dlsym(library, name));
  if (*out == nullptr) {
    std::fprintf(stderr, "mock cuBLAS %s lacks %s\n", mock_cublas_path(), name);
    std::exit(EXIT_FAILURE);
  }
}

MockCublasControl open_mock() {
  MockCublasControl m{};
  m.library = dlopen(mock_cublas_path(), RTLD_NOW | RTLD_LOCAL);
  if (m.library == nullptr) {
    std::fprintf(stderr, "cannot open the mock cuBLAS: %s\n", dlerror());
    std::exit(EXIT_FAILURE);
  }
  resolve(m.library, "mock_cublas_reset", &m.reset);
  resolve(m.library, "mock_cublas_set_status", &m.set_status);
  resolve(m.library, "mock_cublas_set_getter_status", &m.set_getter_status);
  resolve(m.library, "mock_cublas_set_pointer_mode", &m.set_pointer_mode);
  resolve(m.library, "mock_cublas_set_stream", &m.set_stream);
  resolve(m.library, "mock_cublas_set_sm_count_target", &m.set_sm_count_target);
  resolve(m.library, "mock_cublas_call_count", &m.call_count);
  resolve(m.library, "mock_cublas_getter_call_count", &m.getter_call_count);
  resolve(m.library, "mock_cublas_last_call", &m.last_call);
  resolve(m.library, "mock_cublas_last_getter_handle", &m.last_getter_handle);
  return m;
}

}  // namespace

const char* mock_cublas_path() { return BWGEMM_TEST_MOCK_CUBLAS; }

const MockCublasControl& mock_cublas() {
  static const MockCublasControl control = open_mock();
  return control;
}
