// SPDX-License-Identifier: MIT
// src/api/gemm_exports.cpp and raw_call_builders.cpp: each of the twelve
// exported GEMM functions builds the RawCall of exactly its arguments and
// returns what run_gemm returns, and the problem decoded from that RawCall is
// the caller's. run_gemm is replaced (ld --wrap) by a recorder.
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "api/decode.h"
#include "core/raw_call.h"
#include "support/cmocka_cxx.h"
#include "support/gemm_call.h"

using bwgemm::DType;
using bwgemm::EntryPoint;
using bwgemm::GemmProblem;
using bwgemm::RawCall;
using test::Api;
using test::Entry;
using test::GemmCall;

namespace {

RawCall g_received;
int g_run_gemm_calls = 0;
cublasStatus_t g_run_gemm_status = CUBLAS_STATUS_SUCCESS;

}  // namespace

// bwgemm::run_gemm(const RawCall&), as gemm_exports.o references it.
extern "C" cublasStatus_t __wrap__ZN6bwgemm8run_gemmERKNS_7RawCallE(const RawCall& call) {
  g_received = call;
  ++g_run_gemm_calls;
  return g_run_gemm_status;
}

namespace {

struct ExportCase {
  Api api;
  Entry entry;
};

template <class T>
T* address(uintptr_t a) {
  return reinterpret_cast<T*>(a);
}

const float kAlpha = 0.75f;
const float kBeta = -2.0f;

// Every argument distinct, so that a swapped pair shows. Sizes beyond 32 bits
// for the _64 entry points, so that a narrowing shows.
GemmCall distinctive_call(Api api, Entry entry) {
  const bool wide = !test::is_narrow(entry);
  const int64_t big = wide ? int64_t{1} << 32 : 0;
  GemmCall c{};
  c.api = api;
  c.entry = entry;
  c.handle = address<cublasContext>(0x7100);
  c.transa = CUBLAS_OP_T;
  c.transb = CUBLAS_OP_C;
  c.m = big + 11;
  c.n = big + 12;
  c.k = big + 13;
  c.alpha = &kAlpha;
  c.A = address<const void>(0x11000);
  c.Aarray = address<const void* const>(0x21000);
  c.Atype = CUDA_R_16F;
  c.lda = big + 101;
  c.strideA = (int64_t{5} << 33) + 1001;
  c.B = address<const void>(0x12000);
  c.Barray = address<const void* const>(0x22000);
  c.Btype = CUDA_R_16BF;
  c.ldb = big + 102;
  c.strideB = -((int64_t{3} << 34) + 1002);
  c.beta = &kBeta;
  c.C = address<void>(0x13000);
  c.Carray = address<void* const>(0x23000);
  c.Ctype = CUDA_R_32F;
  c.ldc = big + 103;
  c.strideC = (int64_t{7} << 35) + 1003;
  c.batch = big + 9;
  c.compute = CUBLAS_COMPUTE_32F_FAST_16BF;
  c.algo = CUBLAS_GEMM_ALGO4_TENSOR_OP;
  return c;
}

EntryPoint entry_point_of(Entry e) {
  switch (e) {
    case Entry::GemmEx: return EntryPoint::GemmEx;
    case Entry::GemmEx64: return EntryPoint::GemmEx_64;
    case Entry::StridedBatchedEx: return EntryPoint::GemmStridedBatchedEx;
    case Entry::StridedBatchedEx64: return EntryPoint::GemmStridedBatchedEx_64;
    case Entry::BatchedEx: return EntryPoint::GemmBatchedEx;
    case Entry::BatchedEx64: return EntryPoint::GemmBatchedEx_64;
  }
  fail_msg("test bug: unknown entry point");
  return EntryPoint::GemmEx;
}

RawCall capture(const GemmCall& call) {
  g_run_gemm_calls = 0;
  std::memset(&g_received, 0xa5, sizeof g_received);
  test::invoke(call);
  assert_int_equal(g_run_gemm_calls, 1);
  return g_received;
}

// The RawCall holds the caller's arguments; fields the entry point lacks are
// zero / NULL, batch is 1 for the non-batched forms.
void exports_build_the_raw_call_of_their_arguments(void** state) {
  const auto* ec = static_cast<const ExportCase*>(*state);
  const GemmCall c = distinctive_call(ec->api, ec->entry);
  const RawCall r = capture(c);
  const bool arrays = test::is_pointer_array(c.entry);
  const bool strided = test::is_strided(c.entry);
  assert_int_equal(r.entry, entry_point_of(c.entry));
  assert_int_equal(r.called_as,
                   ec->api == Api::Bwgemm ? bwgemm::CalledAs::Bwgemm : bwgemm::CalledAs::Cublas);
  assert_ptr_equal(r.handle, c.handle);
  assert_int_equal(r.transa, c.transa);
  assert_int_equal(r.transb, c.transb);
  assert_int_equal(r.m, c.m);
  assert_int_equal(r.n, c.n);
  assert_int_equal(r.k, c.k);
  assert_ptr_equal(r.alpha, c.alpha);
  assert_ptr_equal(r.beta, c.beta);
  assert_ptr_equal(r.A, arrays ? nullptr : c.A);
  assert_ptr_equal(r.B, arrays ? nullptr : c.B);
  assert_ptr_equal(r.C, arrays ? nullptr : c.C);
  assert_ptr_equal(r.Aarray, arrays ? c.Aarray : nullptr);
  assert_ptr_equal(r.Barray, arrays ? c.Barray : nullptr);
  assert_ptr_equal(r.Carray, arrays ? c.Carray : nullptr);
  assert_int_equal(r.Atype, c.Atype);
  assert_int_equal(r.Btype, c.Btype);
  assert_int_equal(r.Ctype, c.Ctype);
  assert_int_equal(r.lda, c.lda);
  assert_int_equal(r.ldb, c.ldb);
  assert_int_equal(r.ldc, c.ldc);
  assert_int_equal(r.strideA, strided ? c.strideA : 0);
  assert_int_equal(r.strideB, strided ? c.strideB : 0);
  assert_int_equal(r.strideC, strided ? c.strideC : 0);
  assert_int_equal(r.batch, strided || arrays ? c.batch : 1);
  assert_int_equal(r.compute, c.compute);
  assert_int_equal(r.algo, c.algo);
}

// Negative int arguments of the narrow forms keep their sign when widened.
void exports_widen_negative_sizes_with_their_sign(void** state) {
  const auto* ec = static_cast<const ExportCase*>(*state);
  GemmCall c = distinctive_call(ec->api, ec->entry);
  c.m = -5;
  c.n = INT_MIN;
  c.k = -7;
  c.lda = -8;
  c.ldb = 0;
  c.ldc = -10;
  c.batch = -1;
  const RawCall r = capture(c);
  assert_int_equal(r.m, -5);
  assert_int_equal(r.n, INT_MIN);
  assert_int_equal(r.k, -7);
  assert_int_equal(r.lda, -8);
  assert_int_equal(r.ldb, 0);
  assert_int_equal(r.ldc, -10);
  if (test::is_strided(c.entry) || test::is_pointer_array(c.entry)) assert_int_equal(r.batch, -1);
}

void exports_return_what_run_gemm_returns(void** state) {
  const auto* ec = static_cast<const ExportCase*>(*state);
  const GemmCall c = distinctive_call(ec->api, ec->entry);
  for (cublasStatus_t status :
       {CUBLAS_STATUS_SUCCESS, CUBLAS_STATUS_NOT_SUPPORTED, test::distinctive_status()}) {
    g_run_gemm_status = status;
    assert_int_equal(test::invoke(c), status);
  }
  g_run_gemm_status = CUBLAS_STATUS_SUCCESS;
}

// The problem make_problem decodes from an export's RawCall.
void exports_decode_to_the_callers_problem(void** state) {
  const auto* ec = static_cast<const ExportCase*>(*state);
  GemmCall c = test::candidate_call(ec->api, ec->entry);
  c.transa = CUBLAS_OP_C;
  c.lda = c.k;
  c.Atype = c.Btype = CUDA_R_16BF;
  c.Ctype = CUDA_R_32F;
  const cudaStream_t stream = address<CUstream_st>(0x5200);
  const RawCall r = capture(c);

  const GemmProblem host = bwgemm::make_problem(r, CUBLAS_POINTER_MODE_HOST, stream);
  assert_int_equal(host.ab_type, DType::BF16);
  assert_int_equal(host.c_type, DType::F32);
  assert_true(host.trans_a);
  assert_false(host.trans_b);
  assert_int_equal(host.m, c.m);
  assert_int_equal(host.n, c.n);
  assert_int_equal(host.k, c.k);
  assert_int_equal(host.lda, c.lda);
  assert_int_equal(host.ldb, c.ldb);
  assert_int_equal(host.ldc, c.ldc);
  assert_ptr_equal(host.a, c.A);
  assert_ptr_equal(host.b, c.B);
  assert_ptr_equal(host.c, c.C);
  assert_int_equal(host.batch, c.batch);
  if (test::is_strided(c.entry)) {
    assert_int_equal(host.stride_a, c.strideA);
    assert_int_equal(host.stride_b, c.strideB);
    assert_int_equal(host.stride_c, c.strideC);
  }
  assert_false(host.alpha.on_device);
  assert_true(host.alpha.value == test::kCandidateAlpha);
  assert_true(host.beta.value == test::kCandidateBeta);
  assert_ptr_equal(host.stream, stream);
  assert_int_equal(bwgemm::check_layout(host), BWGEMM_REASON_KERNEL_SELECTED);

  // Device pointer mode: the scalars are device addresses, never read here.
  c.alpha = address<const void>(0x30);
  c.beta = address<const void>(0x40);
  const GemmProblem device = bwgemm::make_problem(capture(c), CUBLAS_POINTER_MODE_DEVICE, stream);
  assert_true(device.alpha.on_device);
  assert_true(device.beta.on_device);
  assert_ptr_equal(device.alpha.device, c.alpha);
  assert_ptr_equal(device.beta.device, c.beta);
}

constexpr ExportCase kCases[] = {
    {Api::Cublas, Entry::GemmEx},
    {Api::Bwgemm, Entry::GemmEx},
    {Api::Cublas, Entry::GemmEx64},
    {Api::Bwgemm, Entry::GemmEx64},
    {Api::Cublas, Entry::StridedBatchedEx},
    {Api::Bwgemm, Entry::StridedBatchedEx},
    {Api::Cublas, Entry::StridedBatchedEx64},
    {Api::Bwgemm, Entry::StridedBatchedEx64},
    {Api::Cublas, Entry::BatchedEx},
    {Api::Bwgemm, Entry::BatchedEx},
    {Api::Cublas, Entry::BatchedEx64},
    {Api::Bwgemm, Entry::BatchedEx64},
};
constexpr int kCaseCount = sizeof kCases / sizeof kCases[0];

using TestFunction = void (*)(void**);

// One named test per (check, exported function).
struct NamedTests {
  char names[4 * kCaseCount][96];
  CMUnitTest tests[4 * kCaseCount];
  int count = 0;

  void add(const char* check, TestFunction fn, const ExportCase& ec) {
    std::snprintf(names[count], sizeof names[count], "%s: %s",
                  test::function_name(ec.api, ec.entry), check);
    tests[count] = CMUnitTest{names[count], fn, nullptr, nullptr, const_cast<ExportCase*>(&ec)};
    ++count;
  }
};

}  // namespace

int main() {
  static NamedTests t;
  for (const ExportCase& ec : kCases) {
    t.add("builds the raw call of its arguments", exports_build_the_raw_call_of_their_arguments,
          ec);
    t.add("returns run_gemm's status", exports_return_what_run_gemm_returns, ec);
    if (test::is_narrow(ec.entry))
      t.add("widens negative ints with their sign", exports_widen_negative_sizes_with_their_sign,
            ec);
    if (!test::is_pointer_array(ec.entry))
      t.add("decodes to the caller's problem", exports_decode_to_the_callers_problem, ec);
  }
  return _cmocka_run_group_tests("gemm_exports", t.tests, static_cast<size_t>(t.count), nullptr,
                                 nullptr);
}
