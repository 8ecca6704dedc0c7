/* SPDX-License-Identifier: MIT */
#include "mock_cublas.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static atomic_int g_status = CUBLAS_STATUS_SUCCESS;
static atomic_int g_getter_status = CUBLAS_STATUS_SUCCESS;
static atomic_int g_pointer_mode = CUBLAS_POINTER_MODE_HOST;
static _Atomic(cudaStream_t) g_stream = NULL;
static atomic_int g_sm_count_target = 0;
static atomic_int g_calls = 0;
static atomic_int g_getter_calls = 0;
static _Thread_local MockCublasCall t_last_call;
static _Thread_local cublasHandle_t t_last_getter_handle;
static void (*_Atomic g_gemm_hook)(void) = NULL;

typedef struct MockHandle {
  unsigned char bytes[16];
} MockHandle;
static MockHandle g_handles[MOCK_CUBLAS_MAX_HANDLES];
static atomic_bool g_handle_live[MOCK_CUBLAS_MAX_HANDLES];
static atomic_int g_handles_made = 0;
static atomic_int g_live_handles = 0;
static atomic_int g_foreign_queries = 0;

void mock_cublas_reset(void) {
  atomic_store(&g_status, CUBLAS_STATUS_SUCCESS);
  atomic_store(&g_getter_status, CUBLAS_STATUS_SUCCESS);
  atomic_store(&g_pointer_mode, CUBLAS_POINTER_MODE_HOST);
  atomic_store(&g_stream, NULL);
  atomic_store(&g_sm_count_target, 0);
  atomic_store(&g_calls, 0);
  atomic_store(&g_getter_calls, 0);
  atomic_store(&g_foreign_queries, 0);
  memset(&t_last_call, 0, sizeof t_last_call);
  t_last_getter_handle = NULL;
  atomic_store(&g_gemm_hook, NULL);
}

void mock_cublas_set_gemm_hook(void (*hook)(void)) { atomic_store(&g_gemm_hook, hook); }

void mock_cublas_set_status(cublasStatus_t status) { atomic_store(&g_status, (int)status); }
void mock_cublas_set_getter_status(cublasStatus_t status) {
  atomic_store(&g_getter_status, (int)status);
}
void mock_cublas_set_pointer_mode(cublasPointerMode_t mode) {
  atomic_store(&g_pointer_mode, (int)mode);
}
void mock_cublas_set_stream(cudaStream_t stream) { atomic_store(&g_stream, stream); }
void mock_cublas_set_sm_count_target(int sm_count_target) {
  atomic_store(&g_sm_count_target, sm_count_target);
}
int mock_cublas_call_count(void) { return atomic_load(&g_calls); }
int mock_cublas_getter_call_count(void) { return atomic_load(&g_getter_calls); }
MockCublasCall mock_cublas_last_call(void) { return t_last_call; }
cublasHandle_t mock_cublas_last_getter_handle(void) { return t_last_getter_handle; }
int mock_cublas_live_handle_count(void) { return atomic_load(&g_live_handles); }
int mock_cublas_foreign_handle_queries(void) { return atomic_load(&g_foreign_queries); }

/* The index of `handle` in this copy's pool, or -1: compares addresses only. */
static int handle_index(cublasHandle_t handle) {
  const uintptr_t a = (uintptr_t)handle, base = (uintptr_t)g_handles;
  if (a < base || a >= base + sizeof g_handles || (a - base) % sizeof(MockHandle) != 0) return -1;
  return (int)((a - base) / sizeof(MockHandle));
}

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  if (handle == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  const int i = atomic_fetch_add(&g_handles_made, 1);
  if (i >= MOCK_CUBLAS_MAX_HANDLES) return CUBLAS_STATUS_ALLOC_FAILED;
  atomic_store(&g_handle_live[i], true);
  atomic_fetch_add(&g_live_handles, 1);
  *handle = (cublasHandle_t)(void*)&g_handles[i];
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  const int i = handle_index(handle);
  if (i < 0 || !atomic_exchange(&g_handle_live[i], false)) return CUBLAS_STATUS_NOT_INITIALIZED;
  atomic_fetch_sub(&g_live_handles, 1);
  return CUBLAS_STATUS_SUCCESS;
}

static void note_getter(cublasHandle_t handle) {
  t_last_getter_handle = handle;
  atomic_fetch_add(&g_getter_calls, 1);
  const int i = handle_index(handle);
  if (i < 0 || !atomic_load(&g_handle_live[i])) atomic_fetch_add(&g_foreign_queries, 1);
}

static cublasStatus_t record(const MockCublasCall* call) {
  t_last_call = *call;
  atomic_fetch_add(&g_calls, 1);
  void (*hook)(void) = atomic_load(&g_gemm_hook);
  if (hook != NULL) hook();
  return (cublasStatus_t)atomic_load(&g_status);
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t* mode) {
  note_getter(handle);
  *mode = (cublasPointerMode_t)atomic_load(&g_pointer_mode);
  return (cublasStatus_t)atomic_load(&g_getter_status);
}

cublasStatus_t cublasGetSmCountTarget(cublasHandle_t handle, int* sm_count_target) {
  note_getter(handle);
  *sm_count_target = atomic_load(&g_sm_count_target);
  return (cublasStatus_t)atomic_load(&g_getter_status);
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* stream) {
  note_getter(handle);
  *stream = atomic_load(&g_stream);
  return (cublasStatus_t)atomic_load(&g_getter_status);
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void* alpha,
                            const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo) {
  const MockCublasCall call = {.entry = "cublasGemmEx",
                               .handle = handle,
                               .transa = transa,
                               .transb = transb,
                               .m = m,
                               .n = n,
                               .k = k,
                               .alpha = alpha,
                               .A = A,
                               .Atype = Atype,
                               .lda = lda,
                               .B = B,
                               .Btype = Btype,
                               .ldb = ldb,
                               .beta = beta,
                               .C = C,
                               .Ctype = Ctype,
                               .ldc = ldc,
                               .computeType = computeType,
                               .algo = algo};
  return record(&call);
}

cublasStatus_t cublasGemmEx_64(cublasHandle_t handle, cublasOperation_t transa,
                               cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                               const void* alpha, const void* A, cudaDataType Atype, int64_t lda,
                               const void* B, cudaDataType Btype, int64_t ldb, const void* beta,
                               void* C, cudaDataType Ctype, int64_t ldc,
                               cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  const MockCublasCall call = {.entry = "cublasGemmEx_64",
                               .handle = handle,
                               .transa = transa,
                               .transb = transb,
                               .m = m,
                               .n = n,
                               .k = k,
                               .alpha = alpha,
                               .A = A,
                               .Atype = Atype,
                               .lda = lda,
                               .B = B,
                               .Btype = Btype,
                               .ldb = ldb,
                               .beta = beta,
                               .C = C,
                               .Ctype = Ctype,
                               .ldc = ldc,
                               .computeType = computeType,
                               .algo = algo};
  return record(&call);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void* alpha, const void* A, cudaDataType Atype,
                                          int lda, long long int strideA, const void* B,
                                          cudaDataType Btype, int ldb, long long int strideB,
                                          const void* beta, void* C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  const MockCublasCall call = {.entry = "cublasGemmStridedBatchedEx",
                               .handle = handle,
                               .transa = transa,
                               .transb = transb,
                               .m = m,
                               .n = n,
                               .k = k,
                               .alpha = alpha,
                               .A = A,
                               .Atype = Atype,
                               .lda = lda,
                               .strideA = strideA,
                               .B = B,
                               .Btype = Btype,
                               .ldb = ldb,
                               .strideB = strideB,
                               .beta = beta,
                               .C = C,
                               .Ctype = Ctype,
                               .ldc = ldc,
                               .strideC = strideC,
                               .batchCount = batchCount,
                               .computeType = computeType,
                               .algo = algo};
  return record(&call);
}

cublasStatus_t cublasGemmStridedBatchedEx_64(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void* alpha, const void* A, cudaDataType Atype, int64_t lda,
    long long int strideA, const void* B, cudaDataType Btype, int64_t ldb, long long int strideB,
    const void* beta, void* C, cudaDataType Ctype, int64_t ldc, long long int strideC,
    int64_t batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  const MockCublasCall call = {.entry = "cublasGemmStridedBatchedEx_64",
                               .handle = handle,
                               .transa = transa,
                               .transb = transb,
                               .m = m,
                               .n = n,
                               .k = k,
                               .alpha = alpha,
                               .A = A,
                               .Atype = Atype,
                               .lda = lda,
                               .strideA = strideA,
                               .B = B,
                               .Btype = Btype,
                               .ldb = ldb,
                               .strideB = strideB,
                               .beta = beta,
                               .C = C,
                               .Ctype = Ctype,
                               .ldc = ldc,
                               .strideC = strideC,
                               .batchCount = batchCount,
                               .computeType = computeType,
                               .algo = algo};
  return record(&call);
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                   cublasOperation_t transb, int m, int n, int k, const void* alpha,
                                   const void* const Aarray[], cudaDataType Atype, int lda,
                                   const void* const Barray[], cudaDataType Btype, int ldb,
                                   const void* beta, void* const Carray[], cudaDataType Ctype,
                                   int ldc, int batchCount, cublasComputeType_t computeType,
                                   cublasGemmAlgo_t algo) {
  const MockCublasCall call = {.entry = "cublasGemmBatchedEx",
                               .handle = handle,
                               .transa = transa,
                               .transb = transb,
                               .m = m,
                               .n = n,
                               .k = k,
                               .alpha = alpha,
                               .Aarray = Aarray,
                               .Atype = Atype,
                               .lda = lda,
                               .Barray = Barray,
                               .Btype = Btype,
                               .ldb = ldb,
                               .beta = beta,
                               .Carray = Carray,
                               .Ctype = Ctype,
                               .ldc = ldc,
                               .batchCount = batchCount,
                               .computeType = computeType,
                               .algo = algo};
  return record(&call);
}

cublasStatus_t cublasGemmBatchedEx_64(cublasHandle_t handle, cublasOperation_t transa,
                                      cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                      const void* alpha, const void* const Aarray[],
                                      cudaDataType Atype, int64_t lda, const void* const Barray[],
                                      cudaDataType Btype, int64_t ldb, const void* beta,
                                      void* const Carray[], cudaDataType Ctype, int64_t ldc,
                                      int64_t batchCount, cublasComputeType_t computeType,
                                      cublasGemmAlgo_t algo) {
  const MockCublasCall call = {.entry = "cublasGemmBatchedEx_64",
                               .handle = handle,
                               .transa = transa,
                               .transb = transb,
                               .m = m,
                               .n = n,
                               .k = k,
                               .alpha = alpha,
                               .Aarray = Aarray,
                               .Atype = Atype,
                               .lda = lda,
                               .Barray = Barray,
                               .Btype = Btype,
                               .ldb = ldb,
                               .beta = beta,
                               .Carray = Carray,
                               .Ctype = Ctype,
                               .ldc = ldc,
                               .batchCount = batchCount,
                               .computeType = computeType,
                               .algo = algo};
  return record(&call);
}
