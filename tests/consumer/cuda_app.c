// SPDX-License-Identifier: MIT
// What a typical C program using bwgemm links against: bwgemm and the CUDA
// runtime it calls itself. c-consumer.sh builds it with nothing but
// `pkg-config --cflags --libs bwgemm` and -lcudart, so bwgemm.pc must give the
// CUDA include and library directories. It needs no GPU: without one it only
// checks that the runtime answers and that bwgemm forwards a NULL handle.
#include <bwgemm/bwgemm.h>
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(void) {
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  printf("cuda_app: cudaGetDeviceCount: %s, %d device(s)\n", cudaGetErrorName(err), devices);
  const float alpha = 1.0f, beta = 0.0f;
  const cublasStatus_t status = bwgemmGemmEx(
      NULL, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &alpha, NULL, CUDA_R_16F, 8, NULL, CUDA_R_16F, 8,
      &beta, NULL, CUDA_R_16F, 8, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  printf("cuda_app: bwgemmGemmEx(NULL handle): %s\n", bwgemmGetStatusString(status));
  return status == CUBLAS_STATUS_NOT_INITIALIZED ? 0 : 1;
}
