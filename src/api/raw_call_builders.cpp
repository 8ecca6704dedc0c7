// SPDX-License-Identifier: MIT
#include "api/raw_call_builders.h"

namespace bwgemm {

RawCall raw_gemm_ex(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                    int64_t m, int64_t n, int64_t k, const void* alpha, const void* A,
                    cudaDataType Atype, int64_t lda, const void* B, cudaDataType Btype, int64_t ldb,
                    const void* beta, void* C, cudaDataType Ctype, int64_t ldc,
                    cublasComputeType_t compute, cublasGemmAlgo_t algo, EntryPoint entry,
                    CalledAs called_as) {
  RawCall c{};
  c.entry = entry;
  c.called_as = called_as;
  c.handle = handle;
  c.transa = transa;
  c.transb = transb;
  c.m = m;
  c.n = n;
  c.k = k;
  c.alpha = alpha;
  c.A = A;
  c.Atype = Atype;
  c.lda = lda;
  c.B = B;
  c.Btype = Btype;
  c.ldb = ldb;
  c.beta = beta;
  c.C = C;
  c.Ctype = Ctype;
  c.ldc = ldc;
  c.batch = 1;
  c.compute = compute;
  c.algo = algo;
  return c;
}

RawCall raw_gemm_strided_batched_ex(cublasHandle_t handle, cublasOperation_t transa,
                                    cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                    const void* alpha, const void* A, cudaDataType Atype,
                                    int64_t lda, long long strideA, const void* B,
                                    cudaDataType Btype, int64_t ldb, long long strideB,
                                    const void* beta, void* C, cudaDataType Ctype, int64_t ldc,
                                    long long strideC, int64_t batch, cublasComputeType_t compute,
                                    cublasGemmAlgo_t algo, EntryPoint entry, CalledAs called_as) {
  RawCall c = raw_gemm_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb,
                          beta, C, Ctype, ldc, compute, algo, entry, called_as);
  c.strideA = strideA;
  c.strideB = strideB;
  c.strideC = strideC;
  c.batch = batch;
  return c;
}

RawCall raw_gemm_batched_ex(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                            const void* alpha, const void* const* Aarray, cudaDataType Atype,
                            int64_t lda, const void* const* Barray, cudaDataType Btype, int64_t ldb,
                            const void* beta, void* const* Carray, cudaDataType Ctype, int64_t ldc,
                            int64_t batch, cublasComputeType_t compute, cublasGemmAlgo_t algo,
                            EntryPoint entry, CalledAs called_as) {
  RawCall c = raw_gemm_ex(handle, transa, transb, m, n, k, alpha, nullptr, Atype, lda, nullptr,
                          Btype, ldb, beta, nullptr, Ctype, ldc, compute, algo, entry, called_as);
  c.Aarray = Aarray;
  c.Barray = Barray;
  c.Carray = Carray;
  c.batch = batch;
  return c;
}

}  // namespace bwgemm
