/* SPDX-License-Identifier: MIT */
#include "mock_cublaslt.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static atomic_int g_status = CUBLAS_STATUS_SUCCESS;
static atomic_int g_calls = 0;
static atomic_int g_getter_calls = 0;
static _Atomic(uint64_t) g_forgotten = 0; /* bit per matmul descriptor attribute */
static _Thread_local MockLtCall t_last_call;

void mock_cublaslt_reset(void) {
  atomic_store(&g_status, CUBLAS_STATUS_SUCCESS);
  atomic_store(&g_calls, 0);
  atomic_store(&g_getter_calls, 0);
  atomic_store(&g_forgotten, 0);
  memset(&t_last_call, 0, sizeof t_last_call);
}
void mock_cublaslt_set_status(cublasStatus_t status) { atomic_store(&g_status, (int)status); }
void mock_cublaslt_forget_desc_attribute(int attr) {
  atomic_fetch_or(&g_forgotten, (uint64_t)1 << attr);
}
int mock_cublaslt_call_count(void) { return atomic_load(&g_calls); }
int mock_cublaslt_getter_call_count(void) { return atomic_load(&g_getter_calls); }
MockLtCall mock_cublaslt_last_call(void) { return t_last_call; }

/* An attribute store: each attribute's size (0: no such attribute) and bytes. */
#define MOCK_MAX_ATTRS 40
typedef struct Store {
  size_t size[MOCK_MAX_ATTRS];
  unsigned char value[MOCK_MAX_ATTRS][8];
} Store;

static void define(Store* s, int attr, size_t size, int64_t initial) {
  s->size[attr] = size;
  memcpy(s->value[attr], &initial, size); /* little-endian: the low bytes */
}

static cublasStatus_t get(const Store* s, int attr, void* buf, size_t bytes, size_t* written) {
  if (s == NULL || attr < 0 || attr >= MOCK_MAX_ATTRS || s->size[attr] == 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (bytes == 0) {
    if (written == NULL) return CUBLAS_STATUS_INVALID_VALUE;
    *written = s->size[attr];
    return CUBLAS_STATUS_SUCCESS;
  }
  if (buf == NULL || bytes != s->size[attr]) return CUBLAS_STATUS_INVALID_VALUE;
  memcpy(buf, s->value[attr], bytes);
  if (written != NULL) *written = bytes;
  return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t set(Store* s, int attr, const void* buf, size_t bytes) {
  if (s == NULL || attr < 0 || attr >= MOCK_MAX_ATTRS || s->size[attr] == 0 || buf == NULL ||
      bytes != s->size[attr])
    return CUBLAS_STATUS_INVALID_VALUE;
  memcpy(s->value[attr], buf, bytes);
  return CUBLAS_STATUS_SUCCESS;
}

static bool forgotten(int attr) {
  return attr >= 0 && attr < 64 && (atomic_load(&g_forgotten) >> attr & 1) != 0;
}

cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) {
  static unsigned char handles[64];
  static atomic_int next = 0;
  if (handle == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = (cublasLtHandle_t)(void*)&handles[atomic_fetch_add(&next, 1) % 64];
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  return handle == NULL ? CUBLAS_STATUS_NOT_INITIALIZED : CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* desc, cublasComputeType_t compute,
                                        cudaDataType_t scale) {
  if (desc == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  Store* s = calloc(1, sizeof(Store));
  if (s == NULL) return CUBLAS_STATUS_ALLOC_FAILED;
  /* cuBLASLt's attributes, sizes and defaults (cublasLt.h). */
  define(s, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, 4, compute);
  define(s, CUBLASLT_MATMUL_DESC_SCALE_TYPE, 4, scale);
  define(s, CUBLASLT_MATMUL_DESC_POINTER_MODE, 4, CUBLASLT_POINTER_MODE_HOST);
  define(s, CUBLASLT_MATMUL_DESC_TRANSA, 4, CUBLAS_OP_N);
  define(s, CUBLASLT_MATMUL_DESC_TRANSB, 4, CUBLAS_OP_N);
  define(s, CUBLASLT_MATMUL_DESC_TRANSC, 4, CUBLAS_OP_N);
  define(s, CUBLASLT_MATMUL_DESC_FILL_MODE, 4, CUBLAS_FILL_MODE_FULL);
  define(s, CUBLASLT_MATMUL_DESC_EPILOGUE, 4, CUBLASLT_EPILOGUE_DEFAULT);
  define(s, CUBLASLT_MATMUL_DESC_BIAS_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, 4, 0);
  define(s, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, 4, -1);
  define(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_FAST_ACCUM, 1, 0);
  define(s, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, 4, -1);
  define(s, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, 4, 0);
  define(s, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, 4, 0);
  define(s, CUBLASLT_MATMUL_DESC_C_SCALE_MODE, 4, 0);
  define(s, CUBLASLT_MATMUL_DESC_D_SCALE_MODE, 4, 0);
  define(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, 4, 0);
  define(s, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, 8, 0);
  define(s, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, 4, 0);
  define(s, CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR, 8, 0);
  *desc = (cublasLtMatmulDesc_t)(void*)s;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  free(desc);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc,
                                              cublasLtMatmulDescAttributes_t attr, const void* buf,
                                              size_t bytes) {
  if (forgotten((int)attr)) return CUBLAS_STATUS_INVALID_VALUE;
  return set((Store*)(void*)desc, (int)attr, buf, bytes);
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t desc,
                                              cublasLtMatmulDescAttributes_t attr, void* buf,
                                              size_t bytes, size_t* written) {
  atomic_fetch_add(&g_getter_calls, 1);
  if (forgotten((int)attr)) return CUBLAS_STATUS_INVALID_VALUE;
  return get((const Store*)(void*)desc, (int)attr, buf, bytes, written);
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout, cudaDataType type,
                                          uint64_t rows, uint64_t cols, int64_t ld) {
  if (layout == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  Store* s = calloc(1, sizeof(Store));
  if (s == NULL) return CUBLAS_STATUS_ALLOC_FAILED;
  define(s, CUBLASLT_MATRIX_LAYOUT_TYPE, 4, type);
  define(s, CUBLASLT_MATRIX_LAYOUT_ORDER, 4, CUBLASLT_ORDER_COL);
  define(s, CUBLASLT_MATRIX_LAYOUT_ROWS, 8, (int64_t)rows);
  define(s, CUBLASLT_MATRIX_LAYOUT_COLS, 8, (int64_t)cols);
  define(s, CUBLASLT_MATRIX_LAYOUT_LD, 8, ld);
  define(s, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, 4, 1);
  define(s, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, 8, 0);
  define(s, CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, 8, 0);
  define(s, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, 4, 0);
  *layout = (cublasLtMatrixLayout_t)(void*)s;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  free(layout);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout,
                                                cublasLtMatrixLayoutAttribute_t attr,
                                                const void* buf, size_t bytes) {
  return set((Store*)(void*)layout, (int)attr, buf, bytes);
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t layout,
                                                cublasLtMatrixLayoutAttribute_t attr, void* buf,
                                                size_t bytes, size_t* written) {
  atomic_fetch_add(&g_getter_calls, 1);
  return get((const Store*)(void*)layout, (int)attr, buf, bytes, written);
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha,
                              const void* A, cublasLtMatrixLayout_t Adesc, const void* B,
                              cublasLtMatrixLayout_t Bdesc, const void* beta, const void* C,
                              cublasLtMatrixLayout_t Cdesc, void* D, cublasLtMatrixLayout_t Ddesc,
                              const cublasLtMatmulAlgo_t* algo, void* workspace,
                              size_t workspace_bytes, cudaStream_t stream) {
  const MockLtCall call = {1,     handle, desc,  alpha, A,     Adesc, B,         Bdesc,
                           beta,  C,      Cdesc, D,     Ddesc, algo,  workspace, workspace_bytes,
                           stream};
  t_last_call = call;
  atomic_fetch_add(&g_calls, 1);
  return (cublasStatus_t)atomic_load(&g_status);
}
