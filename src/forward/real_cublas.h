// SPDX-License-Identifier: MIT
// Locating and calling the real cuBLAS.
#pragma once

#include <cublas_api.h>

#include "core/raw_call.h"

namespace bwgemm {

// cublas_api.h overloads some of these names in C++ (legacy computeType), so
// the pointer types are spelled out.
struct RealCublas {
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const void*, const void*, cudaDataType, int, const void*, cudaDataType,
                            int, const void*, void*, cudaDataType, int, cublasComputeType_t,
                            cublasGemmAlgo_t);
  decltype(&cublasGemmEx_64) gemm_ex_64;
  cublasStatus_t (*gemm_strided_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                            int, int, int, const void*, const void*, cudaDataType,
                                            int, long long, const void*, cudaDataType, int,
                                            long long, const void*, void*, cudaDataType, int,
                                            long long, int, cublasComputeType_t, cublasGemmAlgo_t);
  decltype(&cublasGemmStridedBatchedEx_64) gemm_strided_batched_ex_64;
  cublasStatus_t (*gemm_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                    int, const void*, const void* const[], cudaDataType, int,
                                    const void* const[], cudaDataType, int, const void*,
                                    void* const[], cudaDataType, int, int, cublasComputeType_t,
                                    cublasGemmAlgo_t);
  decltype(&cublasGemmBatchedEx_64) gemm_batched_ex_64;
  decltype(&cublasGetPointerMode_v2) get_pointer_mode;
  decltype(&cublasGetStream_v2) get_stream;
  // Optional (NULL when absent: cublasCreate_v2 and cublasDestroy_v2 through
  // bwgemm return CUBLAS_STATUS_NOT_INITIALIZED, the self-check does not run).
  decltype(&cublasCreate_v2) create;
  decltype(&cublasDestroy_v2) destroy;
  decltype(&cublasSetStream_v2) set_stream;
  // Optional: a handle's cublasSetSmCountTarget (absent: every SM).
  decltype(&cublasGetSmCountTarget) get_sm_count_target;
  // Optional: the library's version (a tuned policy names the one it was
  // measured against).
  decltype(&cublasGetProperty) get_property;
};

// The real cuBLAS, resolved once (thread-safe, fork-safe): the library already
// loaded under the soname libcublas.so.<major> (RTLD_NOLOAD, which also finds
// a copy loaded RTLD_LOCAL), else a fresh dlopen of that soname, or of
// $BWGEMM_CUBLAS_LIBRARY when set. Never this library itself. NULL when none
// can be found; the reason is logged once.
const RealCublas* real_cublas();

// Calls the real function of `call.entry` with the caller's arguments,
// unchanged. CUBLAS_STATUS_NOT_INITIALIZED when cuBLAS cannot be found.
cublasStatus_t forward_call(const RawCall& call);

}  // namespace bwgemm
