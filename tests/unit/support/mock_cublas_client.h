// SPDX-License-Identifier: MIT
// The unit tests' handle on the mock cuBLAS (tests/mock): opened RTLD_LOCAL by
// its absolute path, as PyTorch opens the real one, so nothing in the process
// binds to it by name and bwgemm can only reach it the way it reaches cuBLAS.
#pragma once

#include "mock_cublas.h"

struct MockCublasControl {
  void* library;
  decltype(&mock_cublas_reset) reset;
  decltype(&mock_cublas_set_status) set_status;
  decltype(&mock_cublas_set_getter_status) set_getter_status;
  decltype(&mock_cublas_set_pointer_mode) set_pointer_mode;
  decltype(&mock_cublas_set_stream) set_stream;
  decltype(&mock_cublas_set_sm_count_target) set_sm_count_target;
  decltype(&mock_cublas_call_count) call_count;
  decltype(&mock_cublas_getter_call_count) getter_call_count;
  decltype(&mock_cublas_last_call) last_call;
  decltype(&mock_cublas_last_getter_handle) last_getter_handle;
  // The copy's own cublasCreate_v2 and cublasDestroy_v2 (not bwgemm's).
  decltype(&cublasCreate_v2) create;
  decltype(&cublasDestroy_v2) destroy;
  decltype(&mock_cublas_live_handle_count) live_handle_count;
  decltype(&mock_cublas_foreign_handle_queries) foreign_handle_queries;
  decltype(&mock_cublas_set_gemm_hook) set_gemm_hook;
};

// The absolute path of the mock library (a build-time constant).
const char* mock_cublas_path();
// The absolute path of its second copy, mock_cublas_other.
const char* other_mock_cublas_path();

// Opens the mock on first use; the process exits with a message if it cannot.
const MockCublasControl& mock_cublas();
// Opens the second copy on first use, likewise: another library, with its own
// handles and counters.
const MockCublasControl& other_mock_cublas();
