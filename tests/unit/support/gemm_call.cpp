// SPDX-License-Identifier: MIT
#include "support/gemm_call.h"

#include <climits>
#include <cstring>

#include "core/device_caps.h"
#include "forward/handle_registry.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/mock_cublas_client.h"
#include "support/mock_cuda_runtime.h"

namespace test {
namespace {

const float g_alpha = kCandidateAlpha;
const float g_beta = kCandidateBeta;

template <class T>
T* fake_pointer(uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

bool fits_int(int64_t v) { return v >= INT_MIN && v <= INT_MAX; }

int narrow(int64_t v, const GemmCall& call) {
  if (!fits_int(v))
    fail_msg("test bug: %lld passed to the int-sized %s", static_cast<long long>(v),
             function_name(call.api, call.entry));
  return static_cast<int>(v);
}

constexpr int kUnusedStatuses[] = {2,  4,  5,  6,  9,  10, 12, 17, 18, 19, 20,
                                   21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
int g_next_status = 0;

long long as_integer(long long v) { return v; }
long long as_address(const volatile void* p) {
  return static_cast<long long>(reinterpret_cast<uintptr_t>(p));
}

}  // namespace

bool is_narrow(Entry e) {
  return e == Entry::GemmEx || e == Entry::StridedBatchedEx || e == Entry::BatchedEx;
}
bool is_strided(Entry e) { return e == Entry::StridedBatchedEx || e == Entry::StridedBatchedEx64; }
bool is_pointer_array(Entry e) { return e == Entry::BatchedEx || e == Entry::BatchedEx64; }

const char* cublas_function_name(Entry entry) {
  switch (entry) {
    case Entry::GemmEx: return "cublasGemmEx";
    case Entry::GemmEx64: return "cublasGemmEx_64";
    case Entry::StridedBatchedEx: return "cublasGemmStridedBatchedEx";
    case Entry::StridedBatchedEx64: return "cublasGemmStridedBatchedEx_64";
    case Entry::BatchedEx: return "cublasGemmBatchedEx";
    case Entry::BatchedEx64: return "cublasGemmBatchedEx_64";
  }
  return "?";
}

const char* function_name(Api api, Entry entry) {
  if (api == Api::Cublas) return cublas_function_name(entry);
  switch (entry) {
    case Entry::GemmEx: return "bwgemmGemmEx";
    case Entry::GemmEx64: return "bwgemmGemmEx_64";
    case Entry::StridedBatchedEx: return "bwgemmGemmStridedBatchedEx";
    case Entry::StridedBatchedEx64: return "bwgemmGemmStridedBatchedEx_64";
    case Entry::BatchedEx: return "bwgemmGemmBatchedEx";
    case Entry::BatchedEx64: return "bwgemmGemmBatchedEx_64";
  }
  return "?";
}

GemmCall candidate_call(Api api, Entry entry) {
  GemmCall c{};
  c.api = api;
  c.entry = entry;
  c.handle = fake_pointer<cublasContext>(0x7000);
  // As if made through bwgemm's cublasCreate_v2 on the current device.
  int device = 0;
  cudaGetDevice(&device);
  bwgemm::remember_handle(c.handle, device);
  c.transa = CUBLAS_OP_N;
  c.transb = CUBLAS_OP_N;
  c.m = 64;
  c.n = 32;
  c.k = 16;
  c.alpha = &g_alpha;
  c.beta = &g_beta;
  c.Atype = c.Btype = c.Ctype = CUDA_R_16F;
  c.lda = 64;
  c.ldb = 16;
  c.ldc = 64;
  c.compute = CUBLAS_COMPUTE_32F;
  c.algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP;
  c.batch = 1;
  if (is_pointer_array(entry)) {
    c.Aarray = fake_pointer<const void* const>(0x41000);
    c.Barray = fake_pointer<const void* const>(0x42000);
    c.Carray = fake_pointer<void* const>(0x43000);
    c.batch = 3;
  } else {
    c.A = fake_pointer<const void>(0x100000);
    c.B = fake_pointer<const void>(0x200000);
    c.C = fake_pointer<void>(0x300000);
  }
  if (is_strided(entry)) {
    c.strideA = c.lda * c.k;
    c.strideB = c.ldb * c.n;
    c.strideC = c.ldc * c.n;
    c.batch = 3;
  }
  return c;
}

cublasStatus_t invoke(const GemmCall& c) {
  const bool bw = c.api == Api::Bwgemm;
  switch (c.entry) {
    case Entry::GemmEx: {
      const int m = narrow(c.m, c), n = narrow(c.n, c), k = narrow(c.k, c);
      const int lda = narrow(c.lda, c), ldb = narrow(c.ldb, c), ldc = narrow(c.ldc, c);
      return bw ? bwgemmGemmEx(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.A, c.Atype, lda,
                               c.B, c.Btype, ldb, c.beta, c.C, c.Ctype, ldc, c.compute, c.algo)
                : cublasGemmEx(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.A, c.Atype, lda,
                               c.B, c.Btype, ldb, c.beta, c.C, c.Ctype, ldc, c.compute, c.algo);
    }
    case Entry::GemmEx64:
      return bw ? bwgemmGemmEx_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A,
                                  c.Atype, c.lda, c.B, c.Btype, c.ldb, c.beta, c.C, c.Ctype, c.ldc,
                                  c.compute, c.algo)
                : cublasGemmEx_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A,
                                  c.Atype, c.lda, c.B, c.Btype, c.ldb, c.beta, c.C, c.Ctype, c.ldc,
                                  c.compute, c.algo);
    case Entry::StridedBatchedEx: {
      const int m = narrow(c.m, c), n = narrow(c.n, c), k = narrow(c.k, c);
      const int lda = narrow(c.lda, c), ldb = narrow(c.ldb, c), ldc = narrow(c.ldc, c);
      const int batch = narrow(c.batch, c);
      return bw ? bwgemmGemmStridedBatchedEx(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.A,
                                             c.Atype, lda, c.strideA, c.B, c.Btype, ldb, c.strideB,
                                             c.beta, c.C, c.Ctype, ldc, c.strideC, batch, c.compute,
                                             c.algo)
                : cublasGemmStridedBatchedEx(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.A,
                                             c.Atype, lda, c.strideA, c.B, c.Btype, ldb, c.strideB,
                                             c.beta, c.C, c.Ctype, ldc, c.strideC, batch, c.compute,
                                             c.algo);
    }
    case Entry::StridedBatchedEx64:
      return bw ? bwgemmGemmStridedBatchedEx_64(c.handle, c.transa, c.transb, c.m, c.n, c.k,
                                                c.alpha, c.A, c.Atype, c.lda, c.strideA, c.B,
                                                c.Btype, c.ldb, c.strideB, c.beta, c.C, c.Ctype,
                                                c.ldc, c.strideC, c.batch, c.compute, c.algo)
                : cublasGemmStridedBatchedEx_64(c.handle, c.transa, c.transb, c.m, c.n, c.k,
                                                c.alpha, c.A, c.Atype, c.lda, c.strideA, c.B,
                                                c.Btype, c.ldb, c.strideB, c.beta, c.C, c.Ctype,
                                                c.ldc, c.strideC, c.batch, c.compute, c.algo);
    case Entry::BatchedEx: {
      const int m = narrow(c.m, c), n = narrow(c.n, c), k = narrow(c.k, c);
      const int lda = narrow(c.lda, c), ldb = narrow(c.ldb, c), ldc = narrow(c.ldc, c);
      const int batch = narrow(c.batch, c);
      return bw ? bwgemmGemmBatchedEx(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.Aarray,
                                      c.Atype, lda, c.Barray, c.Btype, ldb, c.beta, c.Carray,
                                      c.Ctype, ldc, batch, c.compute, c.algo)
                : cublasGemmBatchedEx(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.Aarray,
                                      c.Atype, lda, c.Barray, c.Btype, ldb, c.beta, c.Carray,
                                      c.Ctype, ldc, batch, c.compute, c.algo);
    }
    case Entry::BatchedEx64:
      return bw ? bwgemmGemmBatchedEx_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha,
                                         c.Aarray, c.Atype, c.lda, c.Barray, c.Btype, c.ldb, c.beta,
                                         c.Carray, c.Ctype, c.ldc, c.batch, c.compute, c.algo)
                : cublasGemmBatchedEx_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha,
                                         c.Aarray, c.Atype, c.lda, c.Barray, c.Btype, c.ldb, c.beta,
                                         c.Carray, c.Ctype, c.ldc, c.batch, c.compute, c.algo);
  }
  fail_msg("test bug: unknown entry point");
  return CUBLAS_STATUS_INTERNAL_ERROR;
}

MockCublasCall expected_forward(const GemmCall& c) {
  MockCublasCall e{};
  e.entry = cublas_function_name(c.entry);
  e.handle = c.handle;
  e.transa = c.transa;
  e.transb = c.transb;
  e.m = c.m;
  e.n = c.n;
  e.k = c.k;
  e.alpha = c.alpha;
  e.beta = c.beta;
  e.Atype = c.Atype;
  e.Btype = c.Btype;
  e.Ctype = c.Ctype;
  e.lda = c.lda;
  e.ldb = c.ldb;
  e.ldc = c.ldc;
  e.computeType = c.compute;
  e.algo = c.algo;
  if (is_pointer_array(c.entry)) {
    e.Aarray = c.Aarray;
    e.Barray = c.Barray;
    e.Carray = c.Carray;
  } else {
    e.A = c.A;
    e.B = c.B;
    e.C = c.C;
  }
  if (is_strided(c.entry)) {
    e.strideA = c.strideA;
    e.strideB = c.strideB;
    e.strideC = c.strideC;
  }
  if (c.entry != Entry::GemmEx && c.entry != Entry::GemmEx64) e.batchCount = c.batch;
  return e;
}

#define BWGEMM_EXPECT_FIELD(field, as)                                                 \
  do {                                                                                 \
    if ((as)(expected.field) != (as)(actual.field))                                    \
      fail_msg("%s: cuBLAS received " #field " = %lld, the caller passed %lld", label, \
               static_cast<long long>((as)(actual.field)),                             \
               static_cast<long long>((as)(expected.field)));                          \
  } while (0)

void assert_mock_call_equal(const MockCublasCall& expected, const MockCublasCall& actual,
                            const char* label) {
  if (actual.entry == nullptr) fail_msg("%s: cuBLAS was not called", label);
  if (std::strcmp(expected.entry, actual.entry) != 0)
    fail_msg("%s: %s was called instead of %s", label, actual.entry, expected.entry);
  BWGEMM_EXPECT_FIELD(handle, as_address);
  BWGEMM_EXPECT_FIELD(transa, as_integer);
  BWGEMM_EXPECT_FIELD(transb, as_integer);
  BWGEMM_EXPECT_FIELD(m, as_integer);
  BWGEMM_EXPECT_FIELD(n, as_integer);
  BWGEMM_EXPECT_FIELD(k, as_integer);
  BWGEMM_EXPECT_FIELD(alpha, as_address);
  BWGEMM_EXPECT_FIELD(A, as_address);
  BWGEMM_EXPECT_FIELD(Aarray, as_address);
  BWGEMM_EXPECT_FIELD(Atype, as_integer);
  BWGEMM_EXPECT_FIELD(lda, as_integer);
  BWGEMM_EXPECT_FIELD(strideA, as_integer);
  BWGEMM_EXPECT_FIELD(B, as_address);
  BWGEMM_EXPECT_FIELD(Barray, as_address);
  BWGEMM_EXPECT_FIELD(Btype, as_integer);
  BWGEMM_EXPECT_FIELD(ldb, as_integer);
  BWGEMM_EXPECT_FIELD(strideB, as_integer);
  BWGEMM_EXPECT_FIELD(beta, as_address);
  BWGEMM_EXPECT_FIELD(C, as_address);
  BWGEMM_EXPECT_FIELD(Carray, as_address);
  BWGEMM_EXPECT_FIELD(Ctype, as_integer);
  BWGEMM_EXPECT_FIELD(ldc, as_integer);
  BWGEMM_EXPECT_FIELD(strideC, as_integer);
  BWGEMM_EXPECT_FIELD(batchCount, as_integer);
  BWGEMM_EXPECT_FIELD(computeType, as_integer);
  BWGEMM_EXPECT_FIELD(algo, as_integer);
}

#undef BWGEMM_EXPECT_FIELD

void assert_call_forwarded(const GemmCall& call, bwgemmReason_t reason) {
  const char* label = function_name(call.api, call.entry);
  const MockCublasControl& mock = mock_cublas();
  const cublasStatus_t status = distinctive_status();
  mock.reset();
  mock.set_status(status);
  const int launches = fake::total_launches();

  const cublasStatus_t returned = invoke(call);

  if (returned != status)
    fail_msg("%s returned %d, cuBLAS returned %d", label, static_cast<int>(returned),
             static_cast<int>(status));
  if (mock.call_count() != 1) fail_msg("%s: cuBLAS was called %d times", label, mock.call_count());
  assert_mock_call_equal(expected_forward(call), mock.last_call(), label);
  if (fake::total_launches() != launches) fail_msg("%s: a kernel was launched too", label);
  const bwgemmDispatchInfo_t info = last_dispatch();
  if (info.path != BWGEMM_PATH_CUBLAS || info.reason != reason)
    fail_msg("%s: recorded path %d reason %s, expected cuBLAS for %s", label,
             static_cast<int>(info.path), info.reason_name, bwgemmGetReasonString(reason));
}

cublasStatus_t distinctive_status() {
  const int count = sizeof kUnusedStatuses / sizeof kUnusedStatuses[0];
  return static_cast<cublasStatus_t>(kUnusedStatuses[g_next_status++ % count]);
}

int reset_gemm_state(void**) {
  mock_cuda::reset();
  fake::reset();
  fake::register_families({0});
  mock_cublas().reset();
  bwgemm::device_caps_reset();
  bwgemmSetThreadPolicy(BWGEMM_POLICY_AUTO);
  return 0;
}

bwgemmDispatchInfo_t last_dispatch() {
  bwgemmDispatchInfo_t info{};
  info.size = sizeof info;
  assert_int_equal(bwgemmGetLastDispatch(&info), CUBLAS_STATUS_SUCCESS);
  return info;
}

}  // namespace test
