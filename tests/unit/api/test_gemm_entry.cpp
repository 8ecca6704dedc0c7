// SPDX-License-Identifier: MIT
// src/api/gemm_entry.cpp and src/forward/real_cublas.cpp: through every
// exported GEMM function, calls bwgemm does not take (invalid ones included,
// one test per cuBLAS rule) reach the real cuBLAS (here the mock, opened via
// BWGEMM_CUBLAS_LIBRARY) with exactly the caller's arguments and return its
// status; calls it takes reach a kernel family's launch with the caller's
// problem, stream and scalars.
#include <cstdlib>
#include <cstring>
#include <functional>

#include "core/launch_order.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cublas_client.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

using bwgemm::GemmProblem;
using test::Api;
using test::Entry;
using test::GemmCall;

namespace {

template <class T>
T* address(uintptr_t a) {
  return reinterpret_cast<T*>(a);
}

// For every exported function: builds its candidate call, lets `edit` change
// it (returning false where the rule does not apply to that entry point), and
// checks that the call is forwarded unchanged for `reason`.
void assert_forwarded_everywhere(const std::function<bool(GemmCall&)>& edit,
                                 bwgemmReason_t reason) {
  int checked = 0;
  for (Api api : test::kApis) {
    for (Entry entry : test::kEntries) {
      GemmCall c = test::candidate_call(api, entry);
      if (!edit(c)) continue;
      test::assert_call_forwarded(c, reason);
      ++checked;
    }
  }
  assert_true(checked > 0);
}

// Checks that `c` ran on fake family 0 and not on cuBLAS; returns the problem
// the family was given.
GemmProblem assert_launched(const GemmCall& c) {
  const char* label = test::function_name(c.api, c.entry);
  const MockCublasControl& mock = mock_cublas();
  const int launches = fake::record(0).launch_calls;
  mock.set_status(test::distinctive_status());
  const int cublas_calls = mock.call_count();

  const cublasStatus_t status = test::invoke(c);

  if (status != CUBLAS_STATUS_SUCCESS) fail_msg("%s returned %d", label, static_cast<int>(status));
  if (fake::record(0).launch_calls != launches + 1) fail_msg("%s: no kernel launch", label);
  if (mock.call_count() != cublas_calls) fail_msg("%s: cuBLAS was called too", label);
  const bwgemmDispatchInfo_t info = test::last_dispatch();
  if (info.path != BWGEMM_PATH_SM90 || info.reason != BWGEMM_REASON_KERNEL_SELECTED ||
      std::strcmp(info.kernel, fake::config_name(0, 0)) != 0)
    fail_msg("%s: recorded path %d reason %s kernel '%s'", label, static_cast<int>(info.path),
             info.reason_name, info.kernel);
  return fake::record(0).last_problem;
}

void assert_launched_everywhere(const std::function<bool(GemmCall&)>& edit) {
  int checked = 0;
  for (Api api : test::kApis) {
    for (Entry entry : test::kEntries) {
      if (test::is_pointer_array(entry)) continue;
      GemmCall c = test::candidate_call(api, entry);
      if (!edit(c)) continue;
      assert_launched(c);
      ++checked;
    }
  }
  assert_true(checked > 0);
}

bool any(const GemmCall&) { return true; }
bool batched(const GemmCall& c) {
  return test::is_strided(c.entry) || test::is_pointer_array(c.entry);
}

// ---- §1.4 argument checks: every invalid call is cuBLAS's to report ------------

void null_handle_is_forwarded(void**) {
  assert_forwarded_everywhere([](GemmCall& c) { return c.handle = nullptr, true; },
                              BWGEMM_REASON_NULL_HANDLE);
  assert_forwarded_everywhere(
      [](GemmCall& c) {
        c.handle = nullptr;
        c.m = -1;
        return true;
      },
      BWGEMM_REASON_NULL_HANDLE);
}

// The 64-bit forms get a value whose low 32 bits differ from it, so that a
// narrowing on the way to cuBLAS shows.
int64_t negative_for(const GemmCall& c) {
  return test::is_narrow(c.entry) ? -1 : -(int64_t{1} << 40) - 3;
}

void negative_m_is_forwarded(void**) {
  assert_forwarded_everywhere([](GemmCall& c) { return c.m = negative_for(c), true; },
                              BWGEMM_REASON_INVALID_ARGUMENT);
}

void negative_n_is_forwarded(void**) {
  assert_forwarded_everywhere([](GemmCall& c) { return c.n = negative_for(c), true; },
                              BWGEMM_REASON_INVALID_ARGUMENT);
}

void negative_k_is_forwarded(void**) {
  assert_forwarded_everywhere([](GemmCall& c) { return c.k = negative_for(c), true; },
                              BWGEMM_REASON_INVALID_ARGUMENT);
}

constexpr cublasOperation_t kOps[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};

void lda_below_rows_of_a_is_forwarded(void**) {
  for (cublasOperation_t op : kOps)
    assert_forwarded_everywhere(
        [op](GemmCall& c) {
          c.transa = op;
          c.lda = (op == CUBLAS_OP_N ? c.m : c.k) - 1;
          return true;
        },
        BWGEMM_REASON_INVALID_ARGUMENT);
}

void ldb_below_rows_of_b_is_forwarded(void**) {
  for (cublasOperation_t op : kOps)
    assert_forwarded_everywhere(
        [op](GemmCall& c) {
          c.transb = op;
          c.ldb = (op == CUBLAS_OP_N ? c.k : c.n) - 1;
          return true;
        },
        BWGEMM_REASON_INVALID_ARGUMENT);
}

void ldc_below_m_is_forwarded(void**) {
  for (cublasOperation_t op : kOps)
    assert_forwarded_everywhere(
        [op](GemmCall& c) {
          c.transa = c.transb = op;
          c.lda = op == CUBLAS_OP_N ? c.m : c.k;
          c.ldb = op == CUBLAS_OP_N ? c.k : c.n;
          c.ldc = c.m - 1;
          return true;
        },
        BWGEMM_REASON_INVALID_ARGUMENT);
}

void empty_m_with_lda_zero_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) {
        c.m = 0;
        c.lda = 0;
        c.ldc = 1;
        return true;
      },
      BWGEMM_REASON_INVALID_ARGUMENT);
}

void empty_m_with_ldc_zero_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) {
        c.m = 0;
        c.lda = 1;
        c.ldc = 0;
        return true;
      },
      BWGEMM_REASON_INVALID_ARGUMENT);
}

void empty_m_with_lds_of_one_is_forwarded_as_a_quick_return(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) {
        c.m = 0;
        c.lda = 1;
        c.ldc = 1;
        c.A = c.C = nullptr;
        return true;
      },
      BWGEMM_REASON_QUICK_RETURN);
}

void transa_conjg_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) { return c.transa = static_cast<cublasOperation_t>(3), true; },
      BWGEMM_REASON_INVALID_ARGUMENT);
}

void transa_7_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) { return c.transa = static_cast<cublasOperation_t>(7), true; },
      BWGEMM_REASON_INVALID_ARGUMENT);
}

void transb_conjg_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) { return c.transb = static_cast<cublasOperation_t>(3), true; },
      BWGEMM_REASON_INVALID_ARGUMENT);
}

void transb_7_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) { return c.transb = static_cast<cublasOperation_t>(7), true; },
      BWGEMM_REASON_INVALID_ARGUMENT);
}

// CUBLAS_OP_C on real types is valid and means transpose.
void op_c_runs_as_a_transpose(void**) {
  assert_launched_everywhere([](GemmCall& c) {
    c.transa = CUBLAS_OP_C;
    c.lda = c.k;
    c.transb = CUBLAS_OP_C;
    c.ldb = c.n;
    return true;
  });
  const GemmProblem& p = fake::record(0).last_problem;
  assert_true(p.trans_a);
  assert_true(p.trans_b);
}

void documented_algos_are_taken(void**) {
  for (int algo = -1; algo <= 999; ++algo) {
    if (!(algo <= 23 || (algo >= 99 && algo <= 115) || algo == 999)) continue;
    GemmCall c = test::candidate_call(Api::Cublas, Entry::GemmEx);
    c.algo = static_cast<cublasGemmAlgo_t>(algo);
    assert_launched(c);
  }
}

void undocumented_algos_are_forwarded(void**) {
  for (int algo : {24, 50, 98, 116, 1000})
    assert_forwarded_everywhere(
        [algo](GemmCall& c) { return c.algo = static_cast<cublasGemmAlgo_t>(algo), true; },
        BWGEMM_REASON_INVALID_ARGUMENT);
}

// ---- §1.3 type combinations bwgemm does not take ------------------------------

std::function<bool(GemmCall&)> types(cudaDataType a, cudaDataType b, cudaDataType out,
                                     cublasComputeType_t compute) {
  return [=](GemmCall& c) {
    c.Atype = a;
    c.Btype = b;
    c.Ctype = out;
    c.compute = compute;
    return true;
  };
}

void mixed_a_and_b_types_are_forwarded(void**) {
  assert_forwarded_everywhere(types(CUDA_R_16F, CUDA_R_16BF, CUDA_R_16F, CUBLAS_COMPUTE_32F),
                              BWGEMM_REASON_UNSUPPORTED_TYPES);
}

void fp16_inputs_with_bf16_output_are_forwarded(void**) {
  assert_forwarded_everywhere(types(CUDA_R_16F, CUDA_R_16F, CUDA_R_16BF, CUBLAS_COMPUTE_32F),
                              BWGEMM_REASON_UNSUPPORTED_TYPES);
}

void bf16_with_compute_16f_is_forwarded(void**) {
  assert_forwarded_everywhere(types(CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_16F),
                              BWGEMM_REASON_UNSUPPORTED_TYPES);
}

void fp16_with_compute_16f_is_forwarded(void**) {
  assert_forwarded_everywhere(types(CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F),
                              BWGEMM_REASON_UNSUPPORTED_TYPES);
}

void fp8_is_forwarded(void**) {
  assert_forwarded_everywhere(types(CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16F, CUBLAS_COMPUTE_32F),
                              BWGEMM_REASON_UNSUPPORTED_TYPES);
}

void legacy_compute_type_is_forwarded(void**) {
  assert_forwarded_everywhere(
      types(CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, static_cast<cublasComputeType_t>(0)),
      BWGEMM_REASON_UNSUPPORTED_TYPES);
}

void pedantic_compute_is_forwarded(void**) {
  assert_forwarded_everywhere(
      types(CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_PEDANTIC),
      BWGEMM_REASON_UNSUPPORTED_TYPES);
}

void fast_tf32_compute_is_forwarded(void**) {
  assert_forwarded_everywhere(
      types(CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_TF32),
      BWGEMM_REASON_UNSUPPORTED_TYPES);
}

void fp32_is_forwarded(void**) {
  assert_forwarded_everywhere(types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F),
                              BWGEMM_REASON_UNSUPPORTED_TYPES);
}

// ---- batches and quick returns ---------------------------------------------------

// cuBLAS itself answers EXECUTION_FAILED here; it must be the one answering.
void negative_batch_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) { return batched(c) && (c.batch = negative_for(c), true); },
      BWGEMM_REASON_INVALID_ARGUMENT);
}

void zero_batch_is_forwarded(void**) {
  assert_forwarded_everywhere([](GemmCall& c) { return batched(c) && (c.batch = 0, true); },
                              BWGEMM_REASON_QUICK_RETURN);
}

void zero_m_is_forwarded(void**) {
  assert_forwarded_everywhere([](GemmCall& c) { return c.m = 0, true; },
                              BWGEMM_REASON_QUICK_RETURN);
}

void zero_n_is_forwarded(void**) {
  assert_forwarded_everywhere([](GemmCall& c) { return c.n = 0, true; },
                              BWGEMM_REASON_QUICK_RETURN);
}

void pointer_array_batches_are_forwarded(void**) {
  assert_forwarded_everywhere([](GemmCall& c) { return test::is_pointer_array(c.entry); },
                              BWGEMM_REASON_UNSUPPORTED_BATCH);
}

// k == 0: the kernel computes C = beta * C.
void zero_k_runs_on_the_kernel(void**) {
  assert_launched_everywhere([](GemmCall& c) { return c.k = 0, true; });
  const GemmProblem& p = fake::record(0).last_problem;
  assert_int_equal(p.k, 0);
  assert_true(p.beta.value == test::kCandidateBeta);
}

// alpha == 0: the kernel computes C = beta * C too.
void zero_alpha_runs_on_the_kernel(void**) {
  static const float zero = 0.0f;
  assert_launched_everywhere([](GemmCall& c) { return c.alpha = &zero, true; });
  assert_true(fake::record(0).last_problem.alpha.value == 0.0f);
}

// ---- NULL pointers: cuBLAS answers (INVALID_VALUE in 13.1), no kernel runs -----

// Each operand pointer of the entry (the arrays on the pointer-array forms)
// and each scalar in turn set to NULL, under the forced-kernel policy.
void assert_each_null_pointer_forwarded(int64_t k, const void* alpha, bwgemmReason_t reason) {
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
  for (int which = 0; which < 5; ++which) {
    assert_forwarded_everywhere(
        [&](GemmCall& c) {
          c.k = k;
          if (alpha != nullptr) c.alpha = alpha;
          const bool arrays = test::is_pointer_array(c.entry);
          switch (which) {
            case 0: (arrays ? c.Aarray = nullptr : c.A = nullptr); break;
            case 1: (arrays ? c.Barray = nullptr : c.B = nullptr); break;
            case 2: (arrays ? c.Carray = nullptr : c.C = nullptr); break;
            case 3: c.alpha = nullptr; break;
            case 4: c.beta = nullptr; break;
          }
          return true;
        },
        reason);
  }
  assert_int_equal(fake::total_launches(), 0);
}

void null_pointers_are_forwarded(void**) {
  assert_each_null_pointer_forwarded(16, nullptr, BWGEMM_REASON_INVALID_ARGUMENT);
}

// alpha == 0 or k == 0 means A and B are not read, yet cuBLAS rejects NULL
// ones: it decides.
void null_pointers_are_forwarded_when_a_and_b_are_not_read(void**) {
  static const float zero = 0.0f;
  assert_each_null_pointer_forwarded(16, &zero, BWGEMM_REASON_INVALID_ARGUMENT);
  assert_each_null_pointer_forwarded(0, nullptr, BWGEMM_REASON_INVALID_ARGUMENT);
}

// cuBLAS accepts NULL on an empty problem: still a quick return.
void null_pointers_on_an_empty_problem_are_a_quick_return(void**) {
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
  assert_forwarded_everywhere(
      [](GemmCall& c) {
        c.m = 0;
        c.A = c.B = nullptr;
        c.C = nullptr;
        c.Aarray = c.Barray = nullptr;
        c.Carray = nullptr;
        return true;
      },
      BWGEMM_REASON_QUICK_RETURN);
}

// ---- memory layouts the kernels do not take ---------------------------------------

void misaligned_element_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) {
        return !test::is_pointer_array(c.entry) && (c.A = static_cast<const char*>(c.A) + 1, true);
      },
      BWGEMM_REASON_UNSUPPORTED_LAYOUT);
}

// Whether the kernel can load an element-aligned layout is the family's
// launcher's decision (its plan), not the entry point's.
void odd_leading_dimensions_reach_the_kernel(void**) {
  assert_launched_everywhere([](GemmCall& c) {
    return !test::is_pointer_array(c.entry) &&
           (c.lda = 65, c.A = static_cast<const char*>(c.A) + 2, true);
  });
}

void negative_stride_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) { return test::is_strided(c.entry) && (c.strideB = -c.strideB, true); },
      BWGEMM_REASON_UNSUPPORTED_BATCH);
}

void overlapping_stride_c_is_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) { return test::is_strided(c.entry) && (c.strideC = 8, true); },
      BWGEMM_REASON_UNSUPPORTED_BATCH);
}

void broadcast_a_and_b_run_on_the_kernel(void**) {
  assert_launched_everywhere([](GemmCall& c) {
    return test::is_strided(c.entry) && (c.strideA = 0, c.strideB = 0, true);
  });
  assert_int_equal(fake::record(0).last_problem.stride_a, 0);
}

void sizes_beyond_int32_are_forwarded(void**) {
  assert_forwarded_everywhere(
      [](GemmCall& c) {
        if (test::is_narrow(c.entry) || test::is_pointer_array(c.entry)) return false;
        c.n = int64_t{1} << 31;
        return true;
      },
      BWGEMM_REASON_TOO_LARGE);
}

// ---- the rest of the decision ------------------------------------------------------

void handle_query_failure_is_forwarded(void**) {
  const MockCublasControl& mock = mock_cublas();
  GemmCall c = test::candidate_call(Api::Cublas, Entry::GemmEx);
  mock.reset();
  mock.set_getter_status(CUBLAS_STATUS_NOT_INITIALIZED);
  const cublasStatus_t status = test::distinctive_status();
  mock.set_status(status);
  assert_int_equal(test::invoke(c), status);
  test::assert_mock_call_equal(test::expected_forward(c), mock.last_call(), "cublasGemmEx");
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_HANDLE_QUERY_FAILED);
  assert_int_equal(fake::total_launches(), 0);
}

void device_query_failure_is_forwarded(void**) {
  mock_cuda::set_get_device_error(cudaErrorNoDevice);
  assert_forwarded_everywhere([](GemmCall& c) { return !test::is_pointer_array(c.entry); },
                              BWGEMM_REASON_DEVICE_QUERY_FAILED);
}

void no_family_for_the_architecture_is_forwarded(void**) {
  mock_cuda::set_attributes(0, {8, 0, 108, 166912});
  assert_forwarded_everywhere([](GemmCall& c) { return !test::is_pointer_array(c.entry); },
                              BWGEMM_REASON_NO_KERNEL_FOR_ARCH);
}

void policy_preference_for_cublas_is_forwarded(void**) {
  fake::behavior(0).config = -1;
  assert_forwarded_everywhere([](GemmCall& c) { return !test::is_pointer_array(c.entry); },
                              BWGEMM_REASON_POLICY_PREFERS_CUBLAS);
}

// A forwarded call enqueues cuBLAS's kernels: the next grid of this library
// follows none of its own (core/launch_order.h). A call on a family's kernel
// leaves the record to the family.
void a_forwarded_call_ends_the_launch_order(void**) {
  static int activation;
  const bwgemm::GridInputs last{reinterpret_cast<cudaStream_t>(0x40), &activation};
  bwgemm::record_releasing_grid(last);
  assert_launched(test::candidate_call(test::kApis[0], test::kEntries[0]));
  assert_true(bwgemm::follows_releasing_grid(last));
  fake::behavior(0).config = -1;
  test::assert_call_forwarded(test::candidate_call(test::kApis[0], test::kEntries[0]),
                              BWGEMM_REASON_POLICY_PREFERS_CUBLAS);
  assert_false(bwgemm::follows_releasing_grid(last));
}

// A thread forcing cuBLAS has bwgemm touch neither the handle nor the device.
void forced_cublas_policy_is_forwarded(void**) {
  assert_int_equal(bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_CUBLAS), CUBLAS_STATUS_SUCCESS);
  assert_forwarded_everywhere([](GemmCall& c) { return !test::is_pointer_array(c.entry); },
                              BWGEMM_REASON_FORCED_CUBLAS);
  assert_int_equal(fake::record(0).launch_calls, 0);
  assert_int_equal(mock_cublas().getter_call_count(), 0);
  assert_int_equal(mock_cuda::attribute_query_count(), 0);
}

// Nothing was enqueued, so cuBLAS computes the call instead.
void failed_launch_is_forwarded(void**) {
  fake::behavior(0).launch_result = {bwgemm::LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
  const MockCublasControl& mock = mock_cublas();
  for (Api api : test::kApis) {
    for (Entry entry : test::kEntries) {
      if (test::is_pointer_array(entry)) continue;
      const GemmCall c = test::candidate_call(api, entry);
      const char* label = test::function_name(api, entry);
      const int launches = fake::record(0).launch_calls;
      mock.reset();
      const cublasStatus_t status = test::distinctive_status();
      mock.set_status(status);
      assert_int_equal(test::invoke(c), status);
      assert_int_equal(fake::record(0).launch_calls, launches + 1);
      test::assert_mock_call_equal(test::expected_forward(c), mock.last_call(), label);
      const bwgemmDispatchInfo_t info = test::last_dispatch();
      assert_int_equal(info.path, BWGEMM_PATH_CUBLAS);
      assert_int_equal(info.reason, BWGEMM_REASON_LAUNCH_FAILED);
    }
  }
}

// The decision reads only the arguments before it is sure the call is valid:
// the handle of an invalid call is never handed to cuBLAS's getters.
void invalid_calls_do_not_query_the_handle(void**) {
  const MockCublasControl& mock = mock_cublas();
  GemmCall c = test::candidate_call(Api::Cublas, Entry::GemmEx);
  c.handle = nullptr;
  test::invoke(c);
  c = test::candidate_call(Api::Cublas, Entry::GemmEx);
  c.m = -1;
  test::invoke(c);
  assert_int_equal(mock.getter_call_count(), 0);
}

// ---- what a kernel family is given ------------------------------------------------

void candidates_reach_the_kernel_with_their_problem(void**) {
  const MockCublasControl& mock = mock_cublas();
  const cudaStream_t stream = address<CUstream_st>(0x5300);
  mock_cuda::set_stream_device(stream, 0);
  cublasHandle_t handle = nullptr;  // made by the mock through bwgemm's export
  assert_int_equal(cublasCreate_v2(&handle), CUBLAS_STATUS_SUCCESS);
  for (Api api : test::kApis) {
    for (Entry entry : test::kEntries) {
      if (test::is_pointer_array(entry)) continue;
      GemmCall c = test::candidate_call(api, entry);
      c.transa = CUBLAS_OP_T;
      c.lda = c.k;
      c.Ctype = CUDA_R_32F;
      c.handle = handle;
      mock.reset();
      mock.set_stream(stream);
      const GemmProblem p = assert_launched(c);
      assert_ptr_equal(mock.last_getter_handle(), c.handle);
      assert_int_equal(mock.foreign_handle_queries(), 0);
      assert_int_equal(p.ab_type, bwgemm::DType::F16);
      assert_int_equal(p.c_type, bwgemm::DType::F32);
      assert_true(p.trans_a);
      assert_false(p.trans_b);
      assert_int_equal(p.m, c.m);
      assert_int_equal(p.n, c.n);
      assert_int_equal(p.k, c.k);
      assert_int_equal(p.lda, c.lda);
      assert_int_equal(p.ldb, c.ldb);
      assert_int_equal(p.ldc, c.ldc);
      assert_ptr_equal(p.a, c.A);
      assert_ptr_equal(p.b, c.B);
      assert_ptr_equal(p.c, c.C);
      assert_int_equal(p.batch, c.batch);
      if (test::is_strided(entry)) {
        assert_int_equal(p.stride_a, c.strideA);
        assert_int_equal(p.stride_b, c.strideB);
        assert_int_equal(p.stride_c, c.strideC);
      }
      assert_false(p.alpha.on_device);
      assert_true(p.alpha.value == test::kCandidateAlpha);
      assert_true(p.beta.value == test::kCandidateBeta);
      assert_ptr_equal(p.stream, stream);
      assert_int_equal(fake::record(0).last_caps.cc_major, 9);
    }
  }
  assert_int_equal(cublasDestroy_v2(handle), CUBLAS_STATUS_SUCCESS);
}

// The handle's device pointer mode: alpha and beta stay device addresses (these
// would fault if read on the host).
void device_pointer_mode_scalars_reach_the_kernel_as_pointers(void**) {
  mock_cublas().set_pointer_mode(CUBLAS_POINTER_MODE_DEVICE);
  assert_launched_everywhere([](GemmCall& c) {
    c.alpha = address<const void>(0x10);
    c.beta = address<const void>(0x20);
    return true;
  });
  const GemmProblem& p = fake::record(0).last_problem;
  assert_true(p.alpha.on_device);
  assert_true(p.beta.on_device);
  assert_ptr_equal(p.alpha.device, address<const void>(0x10));
  assert_ptr_equal(p.beta.device, address<const void>(0x20));
}

// Device facts are read on a device's first call only.
// A handle whose stream belongs to device 0, called with device 1 current,
// gets cuBLAS's answer (13.1: EXECUTION_FAILED); with device 0 current the
// kernel runs (the defect: bwgemm launched into the other device's stream,
// warning on every call).
//
// (assert_call_forwarded resets the mock's stream, so this checks by hand.)
void assert_forwarded_with_the_handle_stream(const GemmCall& c) {
  const MockCublasControl& mock = mock_cublas();
  const cublasStatus_t status = test::distinctive_status();
  mock.set_status(status);
  const int launches = fake::total_launches();
  assert_int_equal(test::invoke(c), status);
  test::assert_mock_call_equal(test::expected_forward(c), mock.last_call(),
                               test::function_name(c.api, c.entry));
  assert_int_equal(fake::total_launches(), launches);
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_HANDLE_QUERY_FAILED);
}

void assert_every_candidate_forwarded_with_the_handle_stream() {
  for (Api api : test::kApis)
    for (Entry entry : test::kEntries)
      if (!test::is_pointer_array(entry))
        assert_forwarded_with_the_handle_stream(test::candidate_call(api, entry));
}

void handle_stream_on_another_device_is_forwarded(void**) {
  cudaStream_t stream = address<CUstream_st>(0x5000);
  mock_cuda::set_stream_device(stream, 0);
  mock_cublas().set_stream(stream);
  mock_cuda::set_current_device(1);
  assert_every_candidate_forwarded_with_the_handle_stream();
  mock_cuda::set_current_device(0);
  assert_launched_everywhere(any);
  assert_ptr_equal(fake::record(0).last_problem.stream, stream);
}

// A stream the runtime does not know is not launched into either.
void handle_stream_of_unknown_device_is_forwarded(void**) {
  mock_cublas().set_stream(address<CUstream_st>(0x6000));
  assert_every_candidate_forwarded_with_the_handle_stream();
}

// The handle's device is read from the runtime once per stream, not per call
// (the calling thread keeps its last answer); another stream asks again.
void the_stream_device_is_queried_once_per_stream(void**) {
  const cudaStream_t first = address<CUstream_st>(0x6100), second = address<CUstream_st>(0x6200);
  mock_cuda::set_stream_device(first, 0);
  mock_cuda::set_stream_device(second, 0);
  const GemmCall c = test::candidate_call(Api::Cublas, Entry::GemmEx);
  mock_cublas().set_stream(first);
  for (int i = 0; i < 5; ++i) assert_launched(c);
  assert_int_equal(mock_cuda::stream_device_query_count(), 1);
  mock_cublas().set_stream(second);
  for (int i = 0; i < 5; ++i) assert_launched(c);
  assert_int_equal(mock_cuda::stream_device_query_count(), 2);
}

// A call captured into a CUDA graph keeps the current device: asking for the
// stream's device would end the capture (cudaStreamGetDevice is not allowed
// while a stream captures), so it is not asked.
void captured_call_does_not_query_the_stream_device(void**) {
  mock_cublas().set_stream(address<CUstream_st>(0x6000));  // a device the runtime does not know
  mock_cuda::set_capture_status(cudaStreamCaptureStatusActive);
  assert_launched_everywhere(any);
  assert_int_equal(mock_cuda::device_queries_during_capture(), 0);
}

// The handle's cublasSetSmCountTarget reaches the family with the problem; a
// handle whose target cannot be read is left to cuBLAS.
void sm_count_target_of_the_handle_reaches_the_kernel(void**) {
  const MockCublasControl& mock = mock_cublas();
  mock.set_sm_count_target(16);
  assert_launched_everywhere(any);
  assert_int_equal(fake::record(0).last_problem.sm_count_target, 16);
  mock.set_sm_count_target(0);
  assert_launched_everywhere(any);
  assert_int_equal(fake::record(0).last_problem.sm_count_target, 0);
}

// (candidate_call makes its handle on the current device.)
void device_attributes_are_read_on_the_first_call_only(void**) {
  const auto call = [] { return test::candidate_call(Api::Cublas, Entry::GemmEx); };
  assert_int_equal(mock_cuda::attribute_query_count(), 0);
  assert_launched(call());
  const int first = mock_cuda::attribute_query_count();
  assert_true(first > 0);
  for (int i = 0; i < 5; ++i) assert_launched(call());
  assert_int_equal(mock_cuda::attribute_query_count(), first);
  mock_cuda::set_current_device(1);
  assert_launched(call());
  assert_int_equal(mock_cuda::attribute_query_count(), 2 * first);
  mock_cuda::set_current_device(0);
  assert_launched(call());
  assert_int_equal(mock_cuda::attribute_query_count(), 2 * first);
}

// A handle made on device 0 on the default stream, called with device 1
// current: the stream says nothing (it is the current device's), the handle's
// device does; cuBLAS answers. Back on device 0 the kernel runs.
void default_stream_handle_on_another_device_is_forwarded(void**) {
  const GemmCall made_on_0 = test::candidate_call(Api::Cublas, Entry::GemmEx);
  mock_cuda::set_current_device(1);
  assert_forwarded_with_the_handle_stream(made_on_0);
  mock_cuda::set_current_device(0);
  assert_launched(made_on_0);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup(f, test::reset_gemm_state)

int main() {
  test::clear_bwgemm_environment();
  setenv("BWGEMM_CUBLAS_LIBRARY", mock_cublas_path(), 1);
  const struct CMUnitTest tests[] = {
      TEST(null_handle_is_forwarded),
      TEST(negative_m_is_forwarded),
      TEST(negative_n_is_forwarded),
      TEST(negative_k_is_forwarded),
      TEST(lda_below_rows_of_a_is_forwarded),
      TEST(ldb_below_rows_of_b_is_forwarded),
      TEST(ldc_below_m_is_forwarded),
      TEST(empty_m_with_lda_zero_is_forwarded),
      TEST(empty_m_with_ldc_zero_is_forwarded),
      TEST(empty_m_with_lds_of_one_is_forwarded_as_a_quick_return),
      TEST(transa_conjg_is_forwarded),
      TEST(transa_7_is_forwarded),
      TEST(transb_conjg_is_forwarded),
      TEST(transb_7_is_forwarded),
      TEST(op_c_runs_as_a_transpose),
      TEST(documented_algos_are_taken),
      TEST(undocumented_algos_are_forwarded),
      TEST(mixed_a_and_b_types_are_forwarded),
      TEST(fp16_inputs_with_bf16_output_are_forwarded),
      TEST(bf16_with_compute_16f_is_forwarded),
      TEST(fp16_with_compute_16f_is_forwarded),
      TEST(fp8_is_forwarded),
      TEST(legacy_compute_type_is_forwarded),
      TEST(pedantic_compute_is_forwarded),
      TEST(fast_tf32_compute_is_forwarded),
      TEST(fp32_is_forwarded),
      TEST(negative_batch_is_forwarded),
      TEST(zero_batch_is_forwarded),
      TEST(zero_m_is_forwarded),
      TEST(zero_n_is_forwarded),
      TEST(pointer_array_batches_are_forwarded),
      TEST(zero_k_runs_on_the_kernel),
      TEST(zero_alpha_runs_on_the_kernel),
      TEST(null_pointers_are_forwarded),
      TEST(null_pointers_are_forwarded_when_a_and_b_are_not_read),
      TEST(null_pointers_on_an_empty_problem_are_a_quick_return),
      TEST(misaligned_element_is_forwarded),
      TEST(odd_leading_dimensions_reach_the_kernel),
      TEST(negative_stride_is_forwarded),
      TEST(overlapping_stride_c_is_forwarded),
      TEST(broadcast_a_and_b_run_on_the_kernel),
      TEST(sizes_beyond_int32_are_forwarded),
      TEST(handle_query_failure_is_forwarded),
      TEST(device_query_failure_is_forwarded),
      TEST(no_family_for_the_architecture_is_forwarded),
      TEST(policy_preference_for_cublas_is_forwarded),
      TEST(a_forwarded_call_ends_the_launch_order),
      TEST(forced_cublas_policy_is_forwarded),
      TEST(failed_launch_is_forwarded),
      TEST(invalid_calls_do_not_query_the_handle),
      TEST(candidates_reach_the_kernel_with_their_problem),
      TEST(device_pointer_mode_scalars_reach_the_kernel_as_pointers),
      TEST(device_attributes_are_read_on_the_first_call_only),
      TEST(sm_count_target_of_the_handle_reaches_the_kernel),
      TEST(handle_stream_on_another_device_is_forwarded),
      TEST(handle_stream_of_unknown_device_is_forwarded),
      TEST(default_stream_handle_on_another_device_is_forwarded),
      TEST(captured_call_does_not_query_the_stream_device),
      TEST(the_stream_device_is_queried_once_per_stream),
  };
  return cmocka_run_group_tests_name("entry_forwarding", tests, nullptr, nullptr);
}
