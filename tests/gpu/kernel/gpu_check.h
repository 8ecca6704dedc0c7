// SPDX-License-Identifier: MIT
// Helpers shared by the kernel GPU tests: the real cuBLAS and device buffers
// (the checks and skipping are every GPU test's: ../support/check.h).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#include "../support/check.h"

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
