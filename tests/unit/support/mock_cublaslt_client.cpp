// SPDX-License-Identifier: MIT
#include "support/mock_cublaslt_client.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace {

MockCublasLtControl open_mock() {
  MockCublasLtControl m{};
  m.library = dlopen(mock_cublaslt_path(), RTLD_NOW | RTLD_LOCAL);
  if (m.library == nullptr) {
    std::fprintf(stderr, "cannot open the mock cuBLASLt: %s\n", dlerror());
    std::exit(EXIT_FAILURE);
  }
  const auto resolve = [&](const char* name, auto* out) {
    *out = reinterpret_cast<std::remove_pointer_t<decltype(out)>>(dlsym(m.library, name));
    if (*out == nullptr) {
      std::fprintf(stderr, "mock cuBLASLt lacks %s\n", name);
      std::exit(EXIT_FAILURE);
    }
  };
  resolve("mock_cublaslt_reset", &m.reset);
  resolve("mock_cublaslt_set_status", &m.set_status);
  resolve("mock_cublaslt_forget_desc_attribute", &m.forget_desc_attribute);
  resolve("mock_cublaslt_call_count", &m.call_count);
  resolve("mock_cublaslt_getter_call_count", &m.getter_call_count);
  resolve("mock_cublaslt_setter_call_count", &m.setter_call_count);
  resolve("mock_cublaslt_last_call", &m.last_call);
  resolve("cublasLtMatmulDescCreate", &m.desc_create);
  resolve("cublasLtMatmulDescDestroy", &m.desc_destroy);
  resolve("cublasLtMatmulDescSetAttribute", &m.desc_set);
  resolve("cublasLtMatrixLayoutCreate", &m.layout_create);
  resolve("cublasLtMatrixLayoutDestroy", &m.layout_destroy);
  resolve("cublasLtMatrixLayoutSetAttribute", &m.layout_set);
  return m;
}

}  // namespace

const char* mock_cublaslt_path() { return BWGEMM_TEST_MOCK_CUBLASLT; }

const MockCublasLtControl& mock_cublaslt() {
  static const MockCublasLtControl control = open_mock();
  return control;
}
