// SPDX-License-Identifier: MIT
// What every GPU test shares: CUDA and cuBLAS(Lt) status checks that end the
// test on an error, the sonames of the real libraries, and skipping (exit 77,
// CTest's SKIP_RETURN_CODE) on a machine without a GPU.
#pragma once

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

#define GPU_CHECK_STR_(x) #x
#define GPU_CHECK_STR(x) GPU_CHECK_STR_(x)
// The sonames, which are also the version nodes, of the real cuBLAS and cuBLASLt.
#define REAL_CUBLAS "libcublas.so." GPU_CHECK_STR(CUBLAS_VER_MAJOR)
#define REAL_CUBLASLT "libcublasLt.so." GPU_CHECK_STR(CUBLAS_VER_MAJOR)

#define CUDA_OK(call)                                                         \
  do {                                                                        \
    const cudaError_t err_ = (call);                                          \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(err_));                                 \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

// cuBLAS and cuBLASLt share cublasStatus_t.
#define CUBLAS_OK(call)                                                                         \
  do {                                                                                          \
    const cublasStatus_t st_ = (call);                                                          \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                         \
      std::fprintf(stderr, "FAIL %s:%d: %s: status %d\n", __FILE__, __LINE__, #call, int(st_)); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

inline void skip_without_gpu() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("SKIP: no GPU (%s)\n", err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    std::exit(77);
  }
}
