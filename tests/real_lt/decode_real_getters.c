/* SPDX-License-Identifier: MIT */
/*
 * bwgemm's cublasLtMatmul decodes descriptors made by the real cuBLASLt
 * through the real cuBLASLt's getters: every attribute read with the size the
 * library expects (a wrong size fails the getter, and every call would be
 * forwarded undecoded). Runs without a GPU: the calls carry a NULL handle,
 * which bwgemm checks after decoding (all of it, under BWGEMM_POLICY=kernel),
 * so each is forwarded to cuBLASLt (which returns
 * CUBLAS_STATUS_NOT_INITIALIZED) and logged with what was decoded.
 *   usage: decode_real_getters LOG_FILE
 *   (run with BWGEMM_LOG=2 BWGEMM_LOG_FILE=LOG_FILE BWGEMM_POLICY=kernel)
 */
#include <cublasLt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

/* One more descriptor attribute to set (size 0: none). */
typedef struct Extra {
  cublasLtMatmulDescAttributes_t attr;
  int64_t value; /* its low `size` bytes */
  size_t size;
  const char* name;
} Extra;

/* PyTorch's Linear with a bias (bf16, TN, 3072 x 8192 x 768), with `epilogue`,
 * D's order and `extra`; the bias pointer is left unset where `bias` is NULL.
 * Returns cublasLtMatmul's status. */
static cublasStatus_t linear_with(uint32_t epilogue, int32_t d_order, Extra extra,
                                  const void* bias) {
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t a, b, c, d;
  const int32_t ta = CUBLAS_OP_T;
  const float alpha = 1.0f, beta = 0.0f;
  if (cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&a, CUDA_R_16BF, 768, 3072, 768) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&b, CUDA_R_16BF, 768, 8192, 768) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, 3072, 8192, 3072) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, 3072, 8192, 3072) != CUBLAS_STATUS_SUCCESS) {
    printf("FAIL: cuBLASLt cannot make descriptors\n");
    exit(1);
  }
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue);
  if (bias != NULL)
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias);
  cublasLtMatrixLayoutSetAttribute(d, CUBLASLT_MATRIX_LAYOUT_ORDER, &d_order, sizeof d_order);
  if (extra.size != 0 && cublasLtMatmulDescSetAttribute(desc, extra.attr, &extra.value,
                                                        extra.size) != CUBLAS_STATUS_SUCCESS) {
    printf("FAIL: cuBLASLt does not take %s of %zu bytes\n", extra.name, extra.size);
    ++failures;
  }
  const cublasStatus_t status =
      cublasLtMatmul(NULL, desc, &alpha, (const void*)0x1000000, a, (const void*)0x2000000, b,
                     &beta, (const void*)0x3000000, c, (void*)0x4000000, d, NULL, NULL, 0, NULL);
  cublasLtMatrixLayoutDestroy(a);
  cublasLtMatrixLayoutDestroy(b);
  cublasLtMatrixLayoutDestroy(c);
  cublasLtMatrixLayoutDestroy(d);
  cublasLtMatmulDescDestroy(desc);
  return status;
}

static cublasStatus_t linear(uint32_t epilogue, int32_t d_order, Extra extra) {
  return linear_with(epilogue, d_order, extra, (const void*)0x7000000);
}

/* How many lines of the log contain every one of `needles`. */
static int logged(const char* log, const char* const* needles, int count) {
  FILE* f = fopen(log, "r");
  char line[1024];
  int lines = 0;
  while (f != NULL && fgets(line, sizeof line, f) != NULL) {
    int found = 1;
    for (int i = 0; i < count; ++i) found = found && strstr(line, needles[i]) != NULL;
    lines += found;
  }
  if (f != NULL) fclose(f);
  return lines;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s LOG_FILE\n", argv[0]);
    return 2;
  }
  const Extra none = {CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, 0, 0, ""};
  /* The NULL handle is cuBLASLt's to report. */
  expect(linear(CUBLASLT_EPILOGUE_GELU_BIAS, CUBLASLT_ORDER_COL, none) ==
             CUBLAS_STATUS_NOT_INITIALIZED,
         "GELU_BIAS: not cuBLASLt's status for a NULL handle");
  expect(linear(CUBLASLT_EPILOGUE_GELU_AUX_BIAS, CUBLASLT_ORDER_COL, none) ==
             CUBLAS_STATUS_NOT_INITIALIZED,
         "GELU_AUX_BIAS: not cuBLASLt's status for a NULL handle");
  expect(linear(CUBLASLT_EPILOGUE_BIAS, CUBLASLT_ORDER_ROW, none) == CUBLAS_STATUS_NOT_INITIALIZED,
         "row-major D: not cuBLASLt's status for a NULL handle");
  /* Decoded in full, then forwarded for the NULL handle. */
  const char* decoded[] = {"bwgemm: cublasLtMatmul transa=1 transb=0 m=3072 n=8192 k=768",
                           "Atype=14 Btype=14 Ctype=14 lda=768 ldb=768 ldc=3072", "compute=68",
                           "epilogue=gelu+bias", "-> cublas (NULL_HANDLE)"};
  expect(logged(argv[1], decoded, 5) == 1,
         "the GELU_BIAS call was not decoded through cuBLASLt's getters");
  const char* refused[] = {"bwgemm: cublasLtMatmul transa=1 transb=0 m=3072 n=8192 k=768",
                           "-> cublas (LT_UNSUPPORTED)"};
  expect(logged(argv[1], refused, 2) == 2, "the AUX epilogue and the row-major D were not refused");
  /* Every attribute bwgemm requires at its default, set through cuBLASLt's
   * own setter (which checks the size) and read back by bwgemm through the
   * getter with the size bwgemm uses: each call must be refused. A size
   * bwgemm got wrong would fail the getter, which bwgemm reads as "unknown to
   * this library, so at its default", and the call would not be refused. */
  const Extra extras[] = {
      {CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, 0x100, 8, "A_SCALE_POINTER"},
      {CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, 0x100, 8, "B_SCALE_POINTER"},
      {CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, 0x100, 8, "C_SCALE_POINTER"},
      {CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, 0x100, 8, "D_SCALE_POINTER"},
      {CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, 0x100, 8, "AMAX_D_POINTER"},
      {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER, 0x100, 8, "EPILOGUE_AUX_SCALE_POINTER"},
      {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, 0x100, 8, "EPILOGUE_AUX_AMAX_POINTER"},
      {CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, 0x100, 8, "D_OUT_SCALE_POINTER"},
      {CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR, 0x100, 8, "EMULATION_DESCRIPTOR"},
      {CUBLASLT_MATMUL_DESC_A_SCALE_MODE, 1, 4, "A_SCALE_MODE"},
      {CUBLASLT_MATMUL_DESC_B_SCALE_MODE, 1, 4, "B_SCALE_MODE"},
      {CUBLASLT_MATMUL_DESC_C_SCALE_MODE, 1, 4, "C_SCALE_MODE"},
      {CUBLASLT_MATMUL_DESC_D_SCALE_MODE, 1, 4, "D_SCALE_MODE"},
      {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, 1, 4, "EPILOGUE_AUX_SCALE_MODE"},
      {CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, 1, 4, "D_OUT_SCALE_MODE"},
      {CUBLASLT_MATMUL_DESC_FAST_ACCUM, 1, 1, "FAST_ACCUM"},
      {CUBLASLT_MATMUL_DESC_TRANSC, CUBLAS_OP_T, 4, "TRANSC"},
      {CUBLASLT_MATMUL_DESC_FILL_MODE, CUBLAS_FILL_MODE_LOWER, 4, "FILL_MODE"},
  };
  for (size_t i = 0; i < sizeof extras / sizeof extras[0]; ++i) {
    const int before = logged(argv[1], refused, 2);
    linear(CUBLASLT_EPILOGUE_BIAS, CUBLASLT_ORDER_COL, extras[i]);
    if (logged(argv[1], refused, 2) != before + 1) {
      printf("FAIL: %s set, and the call was not refused\n", extras[i].name);
      ++failures;
    }
  }
  /* A bias epilogue without a bias vector (never set, or set to NULL after a
   * call with one) is refused as cuBLASLt's to report: bwgemm reads the bias
   * pointer from the descriptor's bytes where it found cuBLASLt keeps it. */
  const char* no_bias[] = {"bwgemm: cublasLtMatmul transa=1 transb=0 m=3072 n=8192 k=768",
                           "epilogue=bias", "-> cublas (INVALID_ARGUMENT)"};
  const Extra null_bias = {CUBLASLT_MATMUL_DESC_BIAS_POINTER, 0, 8, "BIAS_POINTER"};
  linear_with(CUBLASLT_EPILOGUE_BIAS, CUBLASLT_ORDER_COL, none, NULL);
  linear(CUBLASLT_EPILOGUE_BIAS, CUBLASLT_ORDER_COL, none);
  linear(CUBLASLT_EPILOGUE_BIAS, CUBLASLT_ORDER_COL, null_bias);
  expect(logged(argv[1], no_bias, 3) == 2, "a bias epilogue without a bias vector was not refused");
  const char* with_bias[] = {"bwgemm: cublasLtMatmul transa=1 transb=0 m=3072 n=8192 k=768",
                             "epilogue=bias", "-> cublas (NULL_HANDLE)"};
  expect(logged(argv[1], with_bias, 3) == 1, "the bias epilogue with a bias was not decoded");
  printf("%s\n", failures ? "decode_real_getters: FAILED" : "decode_real_getters: ok");
  return failures ? 1 : 0;
}
