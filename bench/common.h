// SPDX-License-Identifier: MIT
// What every part of bwgemm-bench shares: the element types it benchmarks and
// the checks that turn any failing CUDA or cuBLAS call into an abort that names
// the call, where it was made and why it failed.
#ifndef BWGEMM_BENCH_COMMON_H
#define BWGEMM_BENCH_COMMON_H

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

#include "bwgemm/bwgemm.h"

namespace bench {

// Exit codes, documented in --help.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;   // a CUDA or cuBLAS call failed
constexpr int kExitUsage = 2;     // bad command line
constexpr int kExitMismatch = 3;  // some path disagreed with cuBLAS

enum class DType { kF16, kBF16 };

inline const char* dtype_name(DType t) { return t == DType::kF16 ? "fp16" : "bf16"; }
inline cudaDataType cuda_type(DType t) { return t == DType::kF16 ? CUDA_R_16F : CUDA_R_16BF; }
constexpr size_t kElementBytes = 2;  // both benchmarked types are 16-bit

inline void check_cuda(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "bwgemm-bench: %s failed at %s:%d: %s (%s)\n", call, file, line,
               cudaGetErrorString(err), cudaGetErrorName(err));
  std::exit(kExitFailure);
}

inline void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "bwgemm-bench: %s failed at %s:%d: %s (status %d)\n", call, file, line,
               bwgemmGetStatusString(status), static_cast<int>(status));
  std::exit(kExitFailure);
}

}  // namespace bench

#define BENCH_CUDA(call) ::bench::check_cuda((call), #call, __FILE__, __LINE__)
#define BENCH_CUBLAS(call) ::bench::check_cublas((call), #call, __FILE__, __LINE__)

#endif  // BWGEMM_BENCH_COMMON_H
