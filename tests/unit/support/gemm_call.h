// SPDX-License-Identifier: MIT
// One GEMM call as a test makes it through an exported entry point (cublas* or
// bwgemm*), what the real cuBLAS must receive when bwgemm forwards it, and the
// CMocka checks that it did so unchanged.
#pragma once

#include <cstdint>

#include "bwgemm/bwgemm.h"
#include "mock_cublas.h"

namespace test {

enum class Api { Cublas, Bwgemm };
enum class Entry { GemmEx, GemmEx64, StridedBatchedEx, StridedBatchedEx64, BatchedEx, BatchedEx64 };

constexpr Api kApis[] = {Api::Cublas, Api::Bwgemm};
constexpr Entry kEntries[] = {Entry::GemmEx,           Entry::GemmEx64,
                              Entry::StridedBatchedEx, Entry::StridedBatchedEx64,
                              Entry::BatchedEx,        Entry::BatchedEx64};

// Every argument of every entry point. Arguments `entry` does not have are
// ignored: A/B/C for the pointer-array forms, Aarray/Barray/Carray for the
// others, strides and batch for the non-batched ones.
struct GemmCall {
  Api api;
  Entry entry;
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
  int64_t batch;
  cublasComputeType_t compute;
  cublasGemmAlgo_t algo;
};

bool is_narrow(Entry e);
bool is_strided(Entry e);
bool is_pointer_array(Entry e);

// "cublasGemmEx", "bwgemmGemmStridedBatchedEx_64", ...: the function called.
const char* function_name(Api api, Entry entry);
// The cuBLAS function the call is forwarded to.
const char* cublas_function_name(Entry entry);

// The host-memory scalars of candidate_call().
constexpr float kCandidateAlpha = 1.5f;
constexpr float kCandidateBeta = 0.5f;

// A call bwgemm's kernels take (apart from the pointer-array forms, which
// bwgemm always forwards): a handle bwgemm knows (a fake address, recorded as
// if its cublasCreate_v2 had made it), fp16 A, B and C, COMPUTE_32F, algo
// DEFAULT_TENSOR_OP, NN, m=64 n=32 k=16 with lds 64/16/64, 16-byte aligned
// pointers that nothing may dereference, alpha/beta in host memory, and for
// the batched forms batch 3 with whole-matrix strides.
GemmCall candidate_call(Api api, Entry entry);

// Calls the exported function `call` names, with its arguments.
cublasStatus_t invoke(const GemmCall& call);

// What the real cuBLAS receives when bwgemm forwards `call` unchanged.
MockCublasCall expected_forward(const GemmCall& call);

// Fails the current test, naming `label` and the first differing argument,
// unless `actual` (a call the mock received) is exactly `expected`.
void assert_mock_call_equal(const MockCublasCall& expected, const MockCublasCall& actual,
                            const char* label);

// Fails the current test unless `call`, made through its exported function,
// reached the mock cuBLAS exactly as made, returned the mock's status (a
// distinctive one set for the occasion), launched no fake kernel and was
// recorded as forwarded for `reason`.
void assert_call_forwarded(const GemmCall& call, bwgemmReason_t reason);

// A status cuBLAS does not define and bwgemm never returns, different from the
// previous one, within the range of cublasStatus_t's values: a call that
// returns it got it from the mock.
cublasStatus_t distinctive_status();

// The calling thread's last dispatch decision.
bwgemmDispatchInfo_t last_dispatch();

// What a test of GEMM calls starts from: the mocked runtime and the mock
// cuBLAS reset, fake family 0 alone registered, no device facts cached, the
// calling thread's policy AUTO. Returns 0, as a CMocka setup does.
int reset_gemm_state(void** state = nullptr);

}  // namespace test
