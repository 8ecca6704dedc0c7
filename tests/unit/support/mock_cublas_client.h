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
};

// The absolute path of the mock library (a build-time constant).
const char* mock_cublas_path();

// Opens the mock on first use; the process exits with a message if it cannot.
const MockCublasControl& mock_cublas();
