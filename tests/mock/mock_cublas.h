/* SPDX-License-Identifier: MIT */
/*
 * A stand-in for the real cuBLAS in the CPU unit tests. libcublas.so.<major>
 * built from mock_cublas.c has cuBLAS's soname and puts every export under
 * cuBLAS's version node, like the real library, so bwgemm's forwarding finds
 * it the way it finds cuBLAS. Its GEMM entry points record their arguments
 * exactly as received and return a status the test chooses; they never
 * dereference a pointer. The mock_cublas_* functions control it.
 */
#ifndef BWGEMM_TESTS_MOCK_CUBLAS_H
#define BWGEMM_TESTS_MOCK_CUBLAS_H

#include <stdint.h>

#include <cublas_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One GEMM call as the mock received it. The int arguments of the narrow
 * entry points are stored widened; `entry` says which function was called.
 * Arguments the entry point does not have are 0 / NULL. */
typedef struct MockCublasCall {
  const char* entry; /* "cublasGemmEx", ..., or NULL: no call on this thread */
  cublasHandle_t handle;
  cublasOperation_t transa, transb;
  int64_t m, n, k;
  const void* alpha;
  const void* A;
  const void* const* Aarray;
  cudaDataType Atype;
  int64_t lda;
  long long strideA;
  const void* B;
  const void* const* Barray;
  cudaDataType Btype;
  int64_t ldb;
  long long strideB;
  const void* beta;
  void* C;
  void* const* Carray;
  cudaDataType Ctype;
  int64_t ldc;
  long long strideC;
  int64_t batchCount;
  cublasComputeType_t computeType;
  cublasGemmAlgo_t algo;
} MockCublasCall;

/* Back to the defaults: GEMM and getter status SUCCESS, host pointer mode,
 * stream NULL, SM count target 0, counters zero, no GEMM hook, the calling
 * thread's last calls forgotten. */
void mock_cublas_reset(void);
/* The status every GEMM entry point returns from now on. */
void mock_cublas_set_status(cublasStatus_t status);
/* The status cublasGetPointerMode_v2, cublasGetStream_v2 and
 * cublasGetSmCountTarget return. */
void mock_cublas_set_getter_status(cublasStatus_t status);
/* What the getters report for any handle. */
void mock_cublas_set_pointer_mode(cublasPointerMode_t mode);
void mock_cublas_set_stream(cudaStream_t stream);
void mock_cublas_set_sm_count_target(int sm_count_target);
/* GEMM calls since the last reset, from all threads. */
int mock_cublas_call_count(void);
/* Getter calls since the last reset, from all threads. */
int mock_cublas_getter_call_count(void);
/* The calling thread's last GEMM call, and the handle its last getter call
 * was asked about. */
MockCublasCall mock_cublas_last_call(void);
cublasHandle_t mock_cublas_last_getter_handle(void);

/* A function every GEMM entry point calls before it returns (NULL: none), as
 * the real libcublas calls cublasLtMatmul from inside its own GEMMs. */
void mock_cublas_set_gemm_hook(void (*hook)(void));

/* Handles. This copy's cublasCreate_v2 hands out addresses of its own pool
 * (never dereferenced, never reused: MOCK_CUBLAS_MAX_HANDLES per process),
 * so each copy of the mock knows which handles it made; cublasDestroy_v2
 * returns CUBLAS_STATUS_NOT_INITIALIZED for any other handle. reset() leaves
 * handles alone. */
#define MOCK_CUBLAS_MAX_HANDLES 256
/* Handles this copy created and did not destroy. */
int mock_cublas_live_handle_count(void);
/* Getter calls since the last reset asked about a handle this copy did not
 * create or already destroyed: what a real cuBLAS would read as garbage. */
int mock_cublas_foreign_handle_queries(void);

#ifdef __cplusplus
}
#endif

#endif /* BWGEMM_TESTS_MOCK_CUBLAS_H */
