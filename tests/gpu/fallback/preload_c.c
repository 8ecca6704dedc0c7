/* SPDX-License-Identifier: MIT */
/*
 * A plain cuBLAS program: linked against cuBLAS and the CUDA runtime only,
 * it knows nothing of bwgemm. check_preload_c.sh runs it with libbwgemm in
 * LD_PRELOAD and checks that bwgemm saw its cublasGemmEx call. The program
 * itself checks the product: small integers, exact in fp16 and in the fp32
 * accumulator, so any correct GEMM gives exactly the host result.
 * Exits 77 where there is no GPU.
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { M = 96, N = 80, K = 64 };

#define CHECK(cond, what)                              \
  do {                                                 \
    if (!(cond)) {                                     \
      fprintf(stderr, "preload_c: %s failed\n", what); \
      return EXIT_FAILURE;                             \
    }                                                  \
  } while (0)

/* The fp16 bits of a small integer (|v| < 2048). */
static uint16_t half_of_int(int v) {
  if (v == 0) return 0;
  const uint16_t sign = v < 0 ? 0x8000 : 0;
  unsigned magnitude = (unsigned)(v < 0 ? -v : v);
  int exponent = 0;
  while ((magnitude >> (exponent + 1)) != 0) ++exponent;
  const unsigned mantissa = (magnitude << (10 - exponent)) & 0x3ffu;
  return (uint16_t)(sign | (unsigned)(exponent + 15) << 10 | mantissa);
}

static int a_value(int i, int l) { return (i * 7 + l * 3) % 5 - 2; }
static int b_value(int l, int j) { return (l * 5 + j) % 3 - 1; }
static float c_value(int i, int j) { return (float)((i + 2 * j) % 7) - 3.0f; }

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("SKIP: no GPU\n");
    return 77;
  }
  static uint16_t a[M * K], b[K * N];
  static float c[M * N], expected[M * N];
  for (int i = 0; i < M; ++i)
    for (int l = 0; l < K; ++l) a[i + l * M] = half_of_int(a_value(i, l));
  for (int l = 0; l < K; ++l)
    for (int j = 0; j < N; ++j) b[l + j * K] = half_of_int(b_value(l, j));
  const float alpha = 2.0f, beta = -1.0f;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      int sum = 0;
      for (int l = 0; l < K; ++l) sum += a_value(i, l) * b_value(l, j);
      c[i + j * M] = c_value(i, j);
      expected[i + j * M] = alpha * (float)sum + beta * c_value(i, j);
    }
  }

  void *da, *db, *dc;
  CHECK(cudaMalloc(&da, sizeof a) == cudaSuccess, "cudaMalloc");
  CHECK(cudaMalloc(&db, sizeof b) == cudaSuccess, "cudaMalloc");
  CHECK(cudaMalloc(&dc, sizeof c) == cudaSuccess, "cudaMalloc");
  CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy");
  CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy");
  CHECK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy");
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  const cublasStatus_t status = cublasGemmEx(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, da, CUDA_R_16F, M, db, CUDA_R_16F, K,
      &beta, dc, CUDA_R_32F, M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  CHECK(status == CUBLAS_STATUS_SUCCESS, "cublasGemmEx");
  CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost) == cudaSuccess, "cudaMemcpy");

  int wrong = 0;
  for (int i = 0; i < M * N; ++i) wrong += c[i] != expected[i];
  cublasDestroy(handle);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  if (wrong != 0) {
    printf("preload_c: %d of %d results wrong\n", wrong, M * N);
    return EXIT_FAILURE;
  }
  printf("preload_c: result ok\n");
  return EXIT_SUCCESS;
}
