// SPDX-License-Identifier: MIT
// The unit tests' handle on the mock cuBLASLt (tests/mock), opened RTLD_LOCAL
// by its absolute path like the mock cuBLAS (mock_cublas_client.h): the
// controls, and the mock's own descriptor functions, with which a test builds
// the descriptors bwgemm then decodes through the mock's getters.
#pragma once

#include "mock_cublaslt.h"

struct MockCublasLtControl {
  void* library;
  decltype(&mock_cublaslt_reset) reset;
  decltype(&mock_cublaslt_set_status) set_status;
  decltype(&mock_cublaslt_forget_desc_attribute) forget_desc_attribute;
  decltype(&mock_cublaslt_call_count) call_count;
  decltype(&mock_cublaslt_getter_call_count) getter_call_count;
  decltype(&mock_cublaslt_setter_call_count) setter_call_count;
  decltype(&mock_cublaslt_last_call) last_call;
  decltype(&cublasLtMatmulDescCreate) desc_create;
  decltype(&cublasLtMatmulDescDestroy) desc_destroy;
  decltype(&cublasLtMatmulDescSetAttribute) desc_set;
  decltype(&cublasLtMatrixLayoutCreate) layout_create;
  decltype(&cublasLtMatrixLayoutDestroy) layout_destroy;
  decltype(&cublasLtMatrixLayoutSetAttribute) layout_set;
};

// The absolute path of the mock library (a build-time constant).
const char* mock_cublaslt_path();

// Opens the mock on first use; the process exits with a message if it cannot.
const MockCublasLtControl& mock_cublaslt();
