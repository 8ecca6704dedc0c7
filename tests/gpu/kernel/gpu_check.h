// SPDX-License-Identifier: MIT
// Helpers shared by the kernel GPU tests: error checks, skipping without a
// GPU, the real cuBLAS, and device buffers.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#define GPU_CHECK_STR_(x) #x
#define GPU_CHECK_STR(x) GPU_CHECK_STR_(x)
// The soname and version node of the real cuBLAS.
#define REAL_CUBLAS "libcublas.so." GPU_CHECK_STR(CUBLAS_VER_MAJOR)

#define CUDA_OK(call)                                                    \
  do {                                                                   \
    cudaError_t err_ = (call);                                           \
    if (err_ != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(err_));                            \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

#define CUBLAS_OK(call)                                                                    \
  do {                                                                                     \
    cublasStatus_t st_ = (call);                                                           \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s:%d: %s: status %d\n", __FILE__, __LINE__, #call, int(st_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

// Exit code CTest reads as "skipped" (SKIP_RETURN_CODE 77).
inline void skip_without_gpu() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("SKIP: no GPU (%s)\n", err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    std::exit(77);
  }
}

// The real cuBLAS entry points, never bwgemm's interposers.
struct RealCublas {
  decltype(&cublasGemmStridedBatchedEx_64) gemm_strided_batched_ex_64;

  static const RealCublas& get() {
    static const RealCublas r = [] {
      void* h = dlopen(REAL_CUBLAS, RTLD_NOW | RTLD_NOLOAD);
      if (h == nullptr) h = dlopen(REAL_CUBLAS, RTLD_NOW);
      if (h == nullptr) {
        std::fprintf(stderr, "cannot load the real cuBLAS\n");
        std::exit(1);
      }
      RealCublas out;
      out.gemm_strided_batched_ex_64 = reinterpret_cast<decltype(out.gemm_strided_batched_ex_64)>(
          dlvsym(h, "cublasGemmStridedBatchedEx_64", REAL_CUBLAS));
      if (out.gemm_strided_batched_ex_64 == nullptr) std::exit(1);
      return out;
    }();
    return r;
  }
};

// n elements at `ptr`, which lies offset_bytes past the allocation's start
// (a base that is not 16-byte aligned, for the layout tests).
template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t count = 0;
  void* allocation = nullptr;
  explicit DeviceBuffer(size_t n, size_t offset_bytes = 0) : count(n) {
    CUDA_OK(cudaMalloc(&allocation, n * sizeof(T) + 256 + offset_bytes));
    ptr = reinterpret_cast<T*>(static_cast<char*>(allocation) + offset_bytes);
  }
  ~DeviceBuffer() { cudaFree(allocation); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};
