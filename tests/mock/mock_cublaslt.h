/* SPDX-License-Identifier: MIT */
/*
 * A stand-in for the real cuBLASLt in the CPU unit tests, built like the mock
 * cuBLAS (mock_cublas.h): soname libcublasLt.so.<major>, every export under
 * the node libcublasLt.so.<major>. Its descriptors hold cuBLASLt's attributes,
 * sizes and defaults in the bytes of cublasLt.h's opaque types, as cuBLASLt's
 * do (equal attributes, equal bytes; a getter or setter with the wrong size
 * fails, as cuBLASLt's do); cublasLtMatmul records its arguments
 * exactly as received and returns a status the test chooses, never
 * dereferencing a pointer. The mock_cublaslt_* functions control it.
 */
#ifndef BWGEMM_TESTS_MOCK_CUBLASLT_H
#define BWGEMM_TESTS_MOCK_CUBLASLT_H

#include <cublasLt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One cublasLtMatmul call as the mock received it. */
typedef struct MockLtCall {
  int called; /* 0: no call on this thread since the last reset */
  cublasLtHandle_t handle;
  cublasLtMatmulDesc_t desc;
  const void* alpha;
  const void* A;
  cublasLtMatrixLayout_t Adesc;
  const void* B;
  cublasLtMatrixLayout_t Bdesc;
  const void* beta;
  const void* C;
  cublasLtMatrixLayout_t Cdesc;
  void* D;
  cublasLtMatrixLayout_t Ddesc;
  const cublasLtMatmulAlgo_t* algo;
  void* workspace;
  size_t workspace_bytes;
  cudaStream_t stream;
} MockLtCall;

/* Back to the defaults: matmul status SUCCESS, counters zero, the calling thread's last call
 * forgotten. */
void mock_cublaslt_reset(void);
/* The status cublasLtMatmul returns from now on. */
void mock_cublaslt_set_status(cublasStatus_t status);
/* Matmul descriptor attribute `attr` is unknown to `desc` (as to an older
 * library): its getter and setter fail with CUBLAS_STATUS_INVALID_VALUE. */
void mock_cublaslt_forget_desc_attribute(cublasLtMatmulDesc_t desc, int attr);
/* cublasLtMatmul calls, descriptor getter calls and matmul descriptor setter
 * calls since the last reset, from all threads. */
int mock_cublaslt_call_count(void);
int mock_cublaslt_getter_call_count(void);
int mock_cublaslt_setter_call_count(void);
/* The calling thread's last cublasLtMatmul call. */
MockLtCall mock_cublaslt_last_call(void);

#ifdef __cplusplus
}
#endif

#endif /* BWGEMM_TESTS_MOCK_CUBLASLT_H */
