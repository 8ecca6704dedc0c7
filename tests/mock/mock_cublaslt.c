/* SPDX-License-Identifier: MIT */
#include "mock_cublaslt.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static atomic_int g_status = CUBLAS_STATUS_SUCCESS;
static atomic_int g_calls = 0;
static atomic_int g_getter_calls = 0;
static atomic_int g_setter_calls = 0;
static _Thread_local MockLtCall t_last_call;

void mock_cublaslt_reset(void) {
  atomic_store(&g_status, CUBLAS_STATUS_SUCCESS);
  atomic_store(&g_calls, 0);
  atomic_store(&g_getter_calls, 0);
  atomic_store(&g_setter_calls, 0);
  memset(&t_last_call, 0, sizeof t_last_call);
}
void mock_cublaslt_set_status(cublasStatus_t status) { atomic_store(&g_status, (int)status); }
int mock_cublaslt_call_count(void) { return atomic_load(&g_calls); }
int mock_cublaslt_getter_call_count(void) { return atomic_load(&g_getter_calls); }
int mock_cublaslt_setter_call_count(void) { return atomic_load(&g_setter_calls); }
MockLtCall mock_cublaslt_last_call(void) { return t_last_call; }

/* A descriptor is its bytes, as cuBLASLt's are (cublasLt.h's opaque types,
 * which cublasLtMatmulDescInit fills in the caller's storage): every
 * attribute's value lies in the sizeof(opaque) bytes the handle points to, so
 * equal attributes give equal bytes and a setter changes them. A matmul
 * descriptor also keeps a bit per attribute the library knows. */
typedef struct Attr {
  int attr;
  size_t size;
} Attr;

/* cuBLASLt's attributes and sizes (cublasLt.h), in the order they are stored. */
static const Attr kDescAttrs[] = {
    {CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, 4},
    {CUBLASLT_MATMUL_DESC_SCALE_TYPE, 4},
    {CUBLASLT_MATMUL_DESC_POINTER_MODE, 4},
    {CUBLASLT_MATMUL_DESC_TRANSA, 4},
    {CUBLASLT_MATMUL_DESC_TRANSB, 4},
    {CUBLASLT_MATMUL_DESC_TRANSC, 4},
    {CUBLASLT_MATMUL_DESC_FILL_MODE, 4},
    {CUBLASLT_MATMUL_DESC_EPILOGUE, 4},
    {CUBLASLT_MATMUL_DESC_BIAS_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, 8},
    {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, 8},
    {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, 8},
    {CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, 8},
    {CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, 4},
    {CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, 4},
    {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_FAST_ACCUM, 1},
    {CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, 4},
    {CUBLASLT_MATMUL_DESC_A_SCALE_MODE, 4},
    {CUBLASLT_MATMUL_DESC_B_SCALE_MODE, 4},
    {CUBLASLT_MATMUL_DESC_C_SCALE_MODE, 4},
    {CUBLASLT_MATMUL_DESC_D_SCALE_MODE, 4},
    {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, 4},
    {CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, 8},
    {CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, 4},
    {CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR, 8},
};
static const Attr kLayoutAttrs[] = {
    {CUBLASLT_MATRIX_LAYOUT_TYPE, 4},
    {CUBLASLT_MATRIX_LAYOUT_ORDER, 4},
    {CUBLASLT_MATRIX_LAYOUT_ROWS, 8},
    {CUBLASLT_MATRIX_LAYOUT_COLS, 8},
    {CUBLASLT_MATRIX_LAYOUT_LD, 8},
    {CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, 4},
    {CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, 8},
    {CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, 8},
    {CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, 4},
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A matmul descriptor's bytes: the known-attribute bits, then the values. */
typedef uint64_t Known;

/* Where attribute `attr` of a table lies after `base` bytes; -1: none. */
static long offset_of(const Attr* table, size_t count, size_t base, int attr, size_t* size) {
  size_t offset = base;
  for (size_t i = 0; i < count; ++i) {
    if (table[i].attr == attr) {
      *size = table[i].size;
      return (long)offset;
    }
    offset += table[i].size;
  }
  return -1;
}

static size_t desc_index(int attr) {
  size_t i = 0;
  while (i < COUNT(kDescAttrs) && kDescAttrs[i].attr != attr) ++i;
  return i;
}

static bool desc_knows(const unsigned char* bytes, int attr) {
  Known known;
  memcpy(&known, bytes, sizeof known);
  const size_t i = desc_index(attr);
  return i < COUNT(kDescAttrs) && (known >> i & 1) != 0;
}

static cublasStatus_t get(const unsigned char* bytes, long offset, size_t size, void* buf,
                          size_t bytes_wanted, size_t* written) {
  if (bytes == NULL || offset < 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (bytes_wanted == 0) {
    if (written == NULL) return CUBLAS_STATUS_INVALID_VALUE;
    *written = size;
    return CUBLAS_STATUS_SUCCESS;
  }
  if (buf == NULL || bytes_wanted != size) return CUBLAS_STATUS_INVALID_VALUE;
  memcpy(buf, bytes + offset, size);
  if (written != NULL) *written = size;
  return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t set(unsigned char* bytes, long offset, size_t size, const void* buf,
                          size_t bytes_given) {
  if (bytes == NULL || offset < 0 || buf == NULL || bytes_given != size)
    return CUBLAS_STATUS_INVALID_VALUE;
  memcpy(bytes + offset, buf, size);
  return CUBLAS_STATUS_SUCCESS;
}

static long desc_offset(const unsigned char* bytes, int attr, size_t* size) {
  if (bytes == NULL || !desc_knows(bytes, attr)) return -1;
  return offset_of(kDescAttrs, COUNT(kDescAttrs), sizeof(Known), attr, size);
}

static long layout_offset(int attr, size_t* size) {
  return offset_of(kLayoutAttrs, COUNT(kLayoutAttrs), 0, attr, size);
}

static size_t table_bytes(const Attr* table, size_t count) {
  size_t bytes = 0;
  for (size_t i = 0; i < count; ++i) bytes += table[i].size;
  return bytes;
}

/* The initial value of each attribute (little-endian: the low bytes). */
static void init(unsigned char* bytes, long offset, size_t size, int64_t value) {
  memcpy(bytes + offset, &value, size);
}

void mock_cublaslt_forget_desc_attribute(cublasLtMatmulDesc_t desc, int attr) {
  unsigned char* bytes = (unsigned char*)desc;
  Known known;
  memcpy(&known, bytes, sizeof known);
  known &= ~((Known)1 << desc_index(attr));
  memcpy(bytes, &known, sizeof known);
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
  assert(sizeof(Known) + table_bytes(kDescAttrs, COUNT(kDescAttrs)) <=
         sizeof(cublasLtMatmulDescOpaque_t));
  assert(COUNT(kDescAttrs) < 8 * sizeof(Known));
  /* Exactly the opaque type's bytes: a reader past them is caught by ASan. */
  unsigned char* bytes = calloc(1, sizeof(cublasLtMatmulDescOpaque_t));
  if (bytes == NULL) return CUBLAS_STATUS_ALLOC_FAILED;
  const Known all = ((Known)1 << COUNT(kDescAttrs)) - 1;
  memcpy(bytes, &all, sizeof all);
  /* cuBLASLt's defaults (cublasLt.h); those not set here are 0. */
  const struct {
    int attr;
    int64_t value;
  } initial[] = {{CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, compute},
                 {CUBLASLT_MATMUL_DESC_SCALE_TYPE, scale},
                 {CUBLASLT_MATMUL_DESC_POINTER_MODE, CUBLASLT_POINTER_MODE_HOST},
                 {CUBLASLT_MATMUL_DESC_TRANSA, CUBLAS_OP_N},
                 {CUBLASLT_MATMUL_DESC_TRANSB, CUBLAS_OP_N},
                 {CUBLASLT_MATMUL_DESC_TRANSC, CUBLAS_OP_N},
                 {CUBLASLT_MATMUL_DESC_FILL_MODE, CUBLAS_FILL_MODE_FULL},
                 {CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_DEFAULT},
                 {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, -1},
                 {CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, -1}};
  for (size_t i = 0; i < COUNT(initial); ++i) {
    size_t size = 0;
    const long offset = desc_offset(bytes, initial[i].attr, &size);
    init(bytes, offset, size, initial[i].value);
  }
  *desc = (cublasLtMatmulDesc_t)(void*)bytes;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  free(desc);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc,
                                              cublasLtMatmulDescAttributes_t attr, const void* buf,
                                              size_t bytes) {
  atomic_fetch_add(&g_setter_calls, 1);
  size_t size = 0;
  const long offset = desc_offset((const unsigned char*)desc, (int)attr, &size);
  return set((unsigned char*)desc, offset, size, buf, bytes);
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t desc,
                                              cublasLtMatmulDescAttributes_t attr, void* buf,
                                              size_t bytes, size_t* written) {
  atomic_fetch_add(&g_getter_calls, 1);
  size_t size = 0;
  const long offset = desc_offset((const unsigned char*)desc, (int)attr, &size);
  return get((const unsigned char*)desc, offset, size, buf, bytes, written);
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout, cudaDataType type,
                                          uint64_t rows, uint64_t cols, int64_t ld) {
  if (layout == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  assert(table_bytes(kLayoutAttrs, COUNT(kLayoutAttrs)) <= sizeof(cublasLtMatrixLayoutOpaque_t));
  unsigned char* bytes = calloc(1, sizeof(cublasLtMatrixLayoutOpaque_t));
  if (bytes == NULL) return CUBLAS_STATUS_ALLOC_FAILED;
  const struct {
    int attr;
    int64_t value;
  } initial[] = {{CUBLASLT_MATRIX_LAYOUT_TYPE, type},
                 {CUBLASLT_MATRIX_LAYOUT_ORDER, CUBLASLT_ORDER_COL},
                 {CUBLASLT_MATRIX_LAYOUT_ROWS, (int64_t)rows},
                 {CUBLASLT_MATRIX_LAYOUT_COLS, (int64_t)cols},
                 {CUBLASLT_MATRIX_LAYOUT_LD, ld},
                 {CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, 1}};
  for (size_t i = 0; i < COUNT(initial); ++i) {
    size_t size = 0;
    const long offset = layout_offset(initial[i].attr, &size);
    init(bytes, offset, size, initial[i].value);
  }
  *layout = (cublasLtMatrixLayout_t)(void*)bytes;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  free(layout);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout,
                                                cublasLtMatrixLayoutAttribute_t attr,
                                                const void* buf, size_t bytes) {
  size_t size = 0;
  const long offset = layout_offset((int)attr, &size);
  return set((unsigned char*)layout, offset, size, buf, bytes);
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t layout,
                                                cublasLtMatrixLayoutAttribute_t attr, void* buf,
                                                size_t bytes, size_t* written) {
  atomic_fetch_add(&g_getter_calls, 1);
  size_t size = 0;
  const long offset = layout_offset((int)attr, &size);
  return get((const unsigned char*)layout, offset, size, buf, bytes, written);
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
