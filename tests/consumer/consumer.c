// SPDX-License-Identifier: MIT
// A C program built against the installed libbwgemm, through pkg-config or
// find_package(bwgemm). It needs no GPU: every GEMM gets a NULL handle, which
// the real cuBLAS answers with CUBLAS_STATUS_NOT_INITIALIZED, and so does
// bwgemm when cuBLAS cannot be loaded.
//   usage: consumer loaded|absent   (whether the real cuBLAS must be loaded
//                                    after the forwarded calls)
#include <bwgemm/bwgemm.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static int failures = 0;

static void check(int ok, const char* what) {
  printf("%s %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

static void check_last_dispatch(const char* what) {
  bwgemmDispatchInfo_t info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  check(bwgemmGetLastDispatch(&info) == CUBLAS_STATUS_SUCCESS, "bwgemmGetLastDispatch");
  check(info.path == BWGEMM_PATH_CUBLAS && info.reason == BWGEMM_REASON_NULL_HANDLE &&
            info.reason_name != NULL && strcmp(info.reason_name, "NULL_HANDLE") == 0,
        what);
}

int main(int argc, char** argv) {
  if (argc != 2 || (strcmp(argv[1], "loaded") != 0 && strcmp(argv[1], "absent") != 0)) {
    fprintf(stderr, "usage: %s loaded|absent\n", argv[0]);
    return 2;
  }
  const int expect_loaded = strcmp(argv[1], "loaded") == 0;

  check(bwgemmGetVersion() == BWGEMM_VERSION, "bwgemmGetVersion() == BWGEMM_VERSION");
  const char* s = bwgemmGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED);
  check(s != NULL && s[0] != '\0', "bwgemmGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED)");
  s = bwgemmGetStatusString((cublasStatus_t)12345);
  check(s != NULL && strcmp(s, "unknown status") == 0, "unknown status code");

  const float alpha = 1.0f, beta = 0.0f;
  check(bwgemmGemmEx(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &alpha, NULL, CUDA_R_16F, 8, NULL,
                     CUDA_R_16F, 8, &beta, NULL, CUDA_R_16F, 8, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_INITIALIZED,
        "bwgemmGemmEx(NULL handle) == CUBLAS_STATUS_NOT_INITIALIZED");
  check_last_dispatch("bwgemmGemmEx: forwarded to cuBLAS for NULL_HANDLE");

  // Linked with -lbwgemm only, cublasGemmEx binds to libbwgemm's export.
  check(cublasGemmEx(NULL, CUBLAS_OP_T, CUBLAS_OP_N, 8, 8, 8, &alpha, NULL, CUDA_R_16F, 8, NULL,
                     CUDA_R_16F, 8, &beta, NULL, CUDA_R_32F, 8, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_INITIALIZED,
        "cublasGemmEx(NULL handle) == CUBLAS_STATUS_NOT_INITIALIZED");
  check_last_dispatch("cublasGemmEx went through bwgemm");

  void* real = dlopen("libcublas.so." STR(CUBLAS_VER_MAJOR), RTLD_NOW | RTLD_NOLOAD);
  check((real != NULL) == expect_loaded,
        expect_loaded ? "the real cuBLAS was loaded" : "the real cuBLAS was not loaded");

  printf("%s\n", failures ? "consumer: FAILED" : "consumer: all checks passed");
  return failures ? 1 : 0;
}
