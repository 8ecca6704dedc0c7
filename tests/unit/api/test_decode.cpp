// SPDX-License-Identifier: MIT
// src/api/decode.cpp: classify_call (cuBLAS 13.1's argument rules, type
// support, quick returns), make_problem and check_layout.
#include <cstdint>
#include <initializer_list>

#include "api/decode.h"
#include "support/cmocka_cxx.h"

using bwgemm::DType;
using bwgemm::EntryPoint;
using bwgemm::GemmProblem;
using bwgemm::RawCall;

namespace {

const float kAlpha = 2.0f;
const float kBeta = -0.5f;
const cudaStream_t kStream = reinterpret_cast<cudaStream_t>(0x5100);

template <class T>
T* address(uintptr_t a) {
  return reinterpret_cast<T*>(a);
}

// fp16 NN 64x32x16 with tight, 16-byte multiple leading dimensions and
// 16-byte aligned pointers (never dereferenced), host scalars kAlpha/kBeta.
RawCall candidate(EntryPoint entry = EntryPoint::GemmEx) {
  RawCall c{};
  c.entry = entry;
  c.handle = address<cublasContext>(0x7000);
  c.transa = CUBLAS_OP_N;
  c.transb = CUBLAS_OP_N;
  c.m = 64;
  c.n = 32;
  c.k = 16;
  c.alpha = &kAlpha;
  c.beta = &kBeta;
  c.Atype = c.Btype = c.Ctype = CUDA_R_16F;
  c.lda = 64;
  c.ldb = 16;
  c.ldc = 64;
  c.compute = CUBLAS_COMPUTE_32F;
  c.algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP;
  c.batch = 1;
  if (entry == EntryPoint::GemmBatchedEx || entry == EntryPoint::GemmBatchedEx_64) {
    c.Aarray = address<const void* const>(0x41000);
    c.Barray = address<const void* const>(0x42000);
    c.Carray = address<void* const>(0x43000);
    c.batch = 3;
  } else {
    c.A = address<const void>(0x100000);
    c.B = address<const void>(0x200000);
    c.C = address<void>(0x300000);
  }
  return c;
}

RawCall strided_candidate(EntryPoint entry = EntryPoint::GemmStridedBatchedEx) {
  RawCall c = candidate(entry);
  c.batch = 3;
  c.strideA = c.lda * c.k;
  c.strideB = c.ldb * c.n;
  c.strideC = c.ldc * c.n;
  return c;
}

GemmProblem problem_of(const RawCall& c) {
  return bwgemm::make_problem(c, CUBLAS_POINTER_MODE_HOST, kStream);
}

void assert_reason(const RawCall& c, bwgemmReason_t expected) {
  assert_int_equal(bwgemm::classify_call(c), expected);
}

void assert_invalid(const RawCall& c) { assert_reason(c, BWGEMM_REASON_INVALID_ARGUMENT); }
void assert_taken(const RawCall& c) { assert_reason(c, BWGEMM_REASON_KERNEL_SELECTED); }

// ---- classify_call: the argument rules ------------------------------------

void candidates_are_taken(void**) {
  assert_taken(candidate(EntryPoint::GemmEx));
  assert_taken(candidate(EntryPoint::GemmEx_64));
  assert_taken(strided_candidate(EntryPoint::GemmStridedBatchedEx));
  assert_taken(strided_candidate(EntryPoint::GemmStridedBatchedEx_64));
}

void null_handle_is_reported_before_anything_else(void**) {
  RawCall c = candidate();
  c.handle = nullptr;
  assert_reason(c, BWGEMM_REASON_NULL_HANDLE);
  c.m = -1;
  assert_reason(c, BWGEMM_REASON_NULL_HANDLE);
  c.transa = static_cast<cublasOperation_t>(3);
  c.Btype = CUDA_R_16BF;
  assert_reason(c, BWGEMM_REASON_NULL_HANDLE);
}

void negative_m_is_invalid(void**) {
  RawCall c = candidate();
  c.m = -1;
  assert_invalid(c);
  c = candidate(EntryPoint::GemmEx_64);
  c.m = -(int64_t{1} << 40);
  assert_invalid(c);
}

void negative_n_is_invalid(void**) {
  RawCall c = candidate();
  c.n = -1;
  assert_invalid(c);
}

void negative_k_is_invalid(void**) {
  RawCall c = candidate();
  c.k = -1;
  assert_invalid(c);
}

constexpr cublasOperation_t kOps[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};

// lda >= max(1, rows of A): m for N, k for T and C (m = 64 and k = 16 differ).
void lda_below_rows_of_a_is_invalid_for_each_op(void**) {
  for (cublasOperation_t op : kOps) {
    RawCall c = candidate();
    c.transa = op;
    const int64_t rows = op == CUBLAS_OP_N ? c.m : c.k;
    c.lda = rows;
    assert_taken(c);
    c.lda = rows - 1;
    assert_invalid(c);
  }
}

// ldb >= max(1, rows of B): k for N, n for T and C (k = 16, n = 32).
void ldb_below_rows_of_b_is_invalid_for_each_op(void**) {
  for (cublasOperation_t op : kOps) {
    RawCall c = candidate();
    c.transb = op;
    const int64_t rows = op == CUBLAS_OP_N ? c.k : c.n;
    c.ldb = rows;
    assert_taken(c);
    c.ldb = rows - 1;
    assert_invalid(c);
  }
}

// ldc >= max(1, m) whatever the ops.
void ldc_below_m_is_invalid_for_each_op(void**) {
  for (cublasOperation_t op : kOps) {
    RawCall c = candidate();
    c.transa = c.transb = op;
    c.lda = op == CUBLAS_OP_N ? c.m : c.k;
    c.ldb = op == CUBLAS_OP_N ? c.k : c.n;
    c.ldc = c.m;
    assert_taken(c);
    c.ldc = c.m - 1;
    assert_invalid(c);
  }
}

void empty_m_with_lda_zero_is_invalid(void**) {
  RawCall c = candidate();
  c.m = 0;
  c.lda = 0;
  c.ldc = 1;
  assert_invalid(c);
}

void empty_m_with_ldc_zero_is_invalid(void**) {
  RawCall c = candidate();
  c.m = 0;
  c.lda = 1;
  c.ldc = 0;
  assert_invalid(c);
}

void empty_m_with_lds_of_one_is_a_quick_return(void**) {
  RawCall c = candidate();
  c.m = 0;
  c.lda = 1;
  c.ldc = 1;
  assert_reason(c, BWGEMM_REASON_QUICK_RETURN);
}

void empty_k_with_ldb_zero_is_invalid(void**) {
  RawCall c = candidate();
  c.k = 0;
  c.ldb = 0;
  assert_invalid(c);
  c.ldb = 1;
  assert_taken(c);
}

void op_conjg_is_invalid(void**) {
  RawCall c = candidate();
  c.transa = static_cast<cublasOperation_t>(3);
  assert_invalid(c);
  c = candidate();
  c.transb = static_cast<cublasOperation_t>(3);
  assert_invalid(c);
}

void op_7_is_invalid(void**) {
  RawCall c = candidate();
  c.transa = static_cast<cublasOperation_t>(7);
  assert_invalid(c);
  c = candidate();
  c.transb = static_cast<cublasOperation_t>(7);
  assert_invalid(c);
}

void op_c_is_a_transpose_on_real_types(void**) {
  RawCall c = candidate();
  c.transa = CUBLAS_OP_C;
  c.lda = c.k;
  c.transb = CUBLAS_OP_C;
  c.ldb = c.n;
  assert_taken(c);
  const GemmProblem p = problem_of(c);
  assert_true(p.trans_a);
  assert_true(p.trans_b);
}

void every_documented_algo_is_valid(void**) {
  RawCall c = candidate();
  for (int algo = -1; algo <= 23; ++algo) {
    c.algo = static_cast<cublasGemmAlgo_t>(algo);
    assert_taken(c);
  }
  for (int algo = 99; algo <= 115; ++algo) {
    c.algo = static_cast<cublasGemmAlgo_t>(algo);
    assert_taken(c);
  }
  c.algo = static_cast<cublasGemmAlgo_t>(999);
  assert_taken(c);
}

void algos_outside_the_documented_ranges_are_invalid(void**) {
  RawCall c = candidate();
  for (int algo : {24, 50, 98, 116, 1000}) {
    c.algo = static_cast<cublasGemmAlgo_t>(algo);
    assert_invalid(c);
  }
}

// ---- classify_call: types ---------------------------------------------------

RawCall typed(cudaDataType ab, cudaDataType out, cublasComputeType_t compute) {
  RawCall c = candidate();
  c.Atype = c.Btype = ab;
  c.Ctype = out;
  c.compute = compute;
  return c;
}

void assert_unsupported(const RawCall& c) { assert_reason(c, BWGEMM_REASON_UNSUPPORTED_TYPES); }

void fp16_and_bf16_with_fp32_accumulation_are_taken(void**) {
  assert_taken(typed(CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F));
  assert_taken(typed(CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F));
  assert_taken(typed(CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F));
  assert_taken(typed(CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F));
  assert_taken(typed(CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_16F));
  assert_taken(typed(CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F_FAST_16BF));
}

void mixed_a_and_b_types_are_unsupported(void**) {
  RawCall c = candidate();
  c.Btype = CUDA_R_16BF;
  assert_unsupported(c);
  c = typed(CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
  c.Btype = CUDA_R_16F;
  assert_unsupported(c);
}

void fp16_inputs_with_bf16_output_are_unsupported(void**) {
  assert_unsupported(typed(CUDA_R_16F, CUDA_R_16BF, CUBLAS_COMPUTE_32F));
  assert_unsupported(typed(CUDA_R_16BF, CUDA_R_16F, CUBLAS_COMPUTE_32F));
}

void compute_16f_is_not_taken(void**) {
  assert_unsupported(typed(CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_16F));
  assert_unsupported(typed(CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F));
}

void fp8_inputs_are_not_taken(void**) {
  assert_unsupported(typed(CUDA_R_8F_E4M3, CUDA_R_16F, CUBLAS_COMPUTE_32F));
  assert_unsupported(typed(CUDA_R_8F_E5M2, CUDA_R_32F, CUBLAS_COMPUTE_32F));
}

void legacy_compute_types_are_not_taken(void**) {
  assert_unsupported(typed(CUDA_R_16F, CUDA_R_16F, static_cast<cublasComputeType_t>(CUDA_R_32F)));
  assert_unsupported(typed(CUDA_R_16F, CUDA_R_16F, static_cast<cublasComputeType_t>(CUDA_R_16F)));
}

void pedantic_compute_is_not_taken(void**) {
  assert_unsupported(typed(CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_PEDANTIC));
}

void fast_tf32_compute_is_not_taken(void**) {
  assert_unsupported(typed(CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_TF32));
  assert_unsupported(typed(CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32));
}

void fast_variant_of_the_other_input_type_is_not_taken(void**) {
  assert_unsupported(typed(CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_16BF));
  assert_unsupported(typed(CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F_FAST_16F));
}

void fp32_and_fp64_inputs_are_not_taken(void**) {
  assert_unsupported(typed(CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F));
  assert_unsupported(typed(CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F));
  assert_unsupported(typed(CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_64F));
}

// ---- classify_call: batches and quick returns -------------------------------

void negative_batch_is_invalid(void**) {
  RawCall c = strided_candidate();
  c.batch = -1;
  assert_invalid(c);
  c = candidate(EntryPoint::GemmBatchedEx_64);
  c.batch = -1;
  assert_invalid(c);
}

void zero_batch_is_a_quick_return(void**) {
  RawCall c = strided_candidate();
  c.batch = 0;
  assert_reason(c, BWGEMM_REASON_QUICK_RETURN);
  c = candidate(EntryPoint::GemmBatchedEx);
  c.batch = 0;
  assert_reason(c, BWGEMM_REASON_QUICK_RETURN);
}

void zero_m_or_n_is_a_quick_return(void**) {
  RawCall c = candidate();
  c.m = 0;
  assert_reason(c, BWGEMM_REASON_QUICK_RETURN);
  c = candidate();
  c.n = 0;
  assert_reason(c, BWGEMM_REASON_QUICK_RETURN);
}

// k == 0 means C = beta * C: work for the kernel, not a quick return.
void zero_k_is_taken(void**) {
  RawCall c = candidate();
  c.k = 0;
  assert_taken(c);
}

// alpha == 0 means C = beta * C too.
void zero_alpha_is_taken(void**) {
  static const float zero = 0.0f;
  RawCall c = candidate();
  c.alpha = &zero;
  assert_taken(c);
  c.beta = &zero;
  assert_taken(c);
}

void pointer_array_batches_are_not_taken(void**) {
  assert_reason(candidate(EntryPoint::GemmBatchedEx), BWGEMM_REASON_UNSUPPORTED_BATCH);
  assert_reason(candidate(EntryPoint::GemmBatchedEx_64), BWGEMM_REASON_UNSUPPORTED_BATCH);
}

// Pointers that would fault if read: classification uses the arguments only.
void classification_reads_no_memory(void**) {
  RawCall c = candidate();
  c.alpha = address<const void>(0x8);
  c.beta = address<const void>(0x18);
  c.A = address<const void>(0x10);
  c.B = address<const void>(0x20);
  c.C = address<void>(0x30);
  assert_taken(c);
}

// ---- make_problem -----------------------------------------------------------

void problem_has_the_call_shape(void**) {
  RawCall c = candidate(EntryPoint::GemmEx_64);
  c.Ctype = CUDA_R_32F;
  c.transa = CUBLAS_OP_T;
  c.m = 40;
  c.n = 24;
  c.k = 56;
  c.lda = 64;
  c.ldb = 72;
  c.ldc = 48;
  const GemmProblem p = problem_of(c);
  assert_int_equal(p.ab_type, DType::F16);
  assert_int_equal(p.c_type, DType::F32);
  assert_true(p.trans_a);
  assert_false(p.trans_b);
  assert_int_equal(p.m, 40);
  assert_int_equal(p.n, 24);
  assert_int_equal(p.k, 56);
  assert_int_equal(p.lda, 64);
  assert_int_equal(p.ldb, 72);
  assert_int_equal(p.ldc, 48);
  assert_ptr_equal(p.a, c.A);
  assert_ptr_equal(p.b, c.B);
  assert_ptr_equal(p.c, c.C);
  assert_int_equal(p.batch, 1);
  assert_ptr_equal(p.stream, kStream);
}

void problem_has_bf16_types(void**) {
  GemmProblem p = problem_of(typed(CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F));
  assert_int_equal(p.ab_type, DType::BF16);
  assert_int_equal(p.c_type, DType::BF16);
  p = problem_of(typed(CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16BF));
  assert_int_equal(p.ab_type, DType::BF16);
  assert_int_equal(p.c_type, DType::F32);
}

void problem_ops_n_t_c(void**) {
  const struct {
    cublasOperation_t op;
    bool transposed;
  } cases[] = {{CUBLAS_OP_N, false}, {CUBLAS_OP_T, true}, {CUBLAS_OP_C, true}};
  for (const auto& a : cases) {
    for (const auto& b : cases) {
      RawCall c = candidate();
      c.transa = a.op;
      c.transb = b.op;
      const GemmProblem p = problem_of(c);
      assert_int_equal(p.trans_a, a.transposed);
      assert_int_equal(p.trans_b, b.transposed);
    }
  }
}

void host_mode_scalars_are_read_as_float(void**) {
  const GemmProblem p = problem_of(candidate());
  assert_false(p.alpha.on_device);
  assert_false(p.beta.on_device);
  assert_true(p.alpha.value == kAlpha);
  assert_true(p.beta.value == kBeta);
}

// Device-mode scalars are device addresses: reading them on the host would
// fault here, so the problem must carry them untouched.
void device_mode_scalars_are_kept_as_pointers(void**) {
  RawCall c = candidate();
  c.alpha = address<const void>(0x10);
  c.beta = address<const void>(0x20);
  const GemmProblem p = bwgemm::make_problem(c, CUBLAS_POINTER_MODE_DEVICE, kStream);
  assert_true(p.alpha.on_device);
  assert_true(p.beta.on_device);
  assert_ptr_equal(p.alpha.device, c.alpha);
  assert_ptr_equal(p.beta.device, c.beta);
}

void problem_has_the_batch_strides(void**) {
  RawCall c = strided_candidate(EntryPoint::GemmStridedBatchedEx_64);
  c.strideA = 4096;
  c.strideB = 0;
  c.strideC = 8192;
  c.batch = 5;
  const GemmProblem p = problem_of(c);
  assert_int_equal(p.batch, 5);
  assert_int_equal(p.stride_a, 4096);
  assert_int_equal(p.stride_b, 0);
  assert_int_equal(p.stride_c, 8192);
}

// ---- check_layout -------------------------------------------------------------

void assert_layout(const RawCall& c, bwgemmReason_t expected) {
  assert_int_equal(bwgemm::check_layout(problem_of(c)), expected);
}

void aligned_layouts_are_accepted(void**) {
  assert_layout(candidate(), BWGEMM_REASON_KERNEL_SELECTED);
  assert_layout(strided_candidate(), BWGEMM_REASON_KERNEL_SELECTED);
}

// The decoder asks for whole elements only; how an element-aligned layout is
// loaded (by TMA as it is, or after a copy into 16-byte rows) is dispatch's
// and the launcher's business.
void pointers_must_be_element_aligned(void**) {
  for (uintptr_t offset : {2u, 8u}) {
    RawCall c = candidate();
    c.A = static_cast<const char*>(c.A) + offset;
    c.B = static_cast<const char*>(c.B) + offset;
    c.C = static_cast<char*>(c.C) + offset;
    assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
  }
  RawCall c = candidate();
  c.A = static_cast<const char*>(c.A) + 1;
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_LAYOUT);
  c = candidate();
  c.B = static_cast<const char*>(c.B) + 1;
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_LAYOUT);
  c = candidate();
  c.C = static_cast<char*>(c.C) + 1;
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_LAYOUT);
  c = candidate();
  c.Ctype = CUDA_R_32F;
  c.C = static_cast<char*>(c.C) + 2;  // half a float
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_LAYOUT);
}

void any_leading_dimension_is_taken(void**) {
  RawCall c = candidate();
  c.lda = 65;
  c.ldb = 21;
  c.ldc = 67;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
}

void negative_strides_are_not_taken(void**) {
  RawCall c = strided_candidate();
  c.strideA = -c.strideA;
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_BATCH);
  c = strided_candidate();
  c.strideB = -c.strideB;
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_BATCH);
  c = strided_candidate();
  c.strideC = -c.strideC;
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_BATCH);
}

void overlapping_outputs_are_not_taken(void**) {
  RawCall c = strided_candidate();
  c.strideC = 0;
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_BATCH);
  c.strideC = c.ldc * c.n - 8;
  assert_layout(c, BWGEMM_REASON_UNSUPPORTED_BATCH);
  c.strideC = c.ldc * c.n;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
  c.strideC = c.ldc * c.n + 8;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
}

void broadcast_a_or_b_is_accepted(void**) {
  RawCall c = strided_candidate();
  c.strideA = 0;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
  c.strideB = 0;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
}

void odd_batch_strides_are_taken(void**) {
  RawCall c = strided_candidate();
  c.strideA += 1;
  c.strideB += 3;
  c.strideC += 2;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
}

// With batch == 1 the strides are not used, whatever they are.
void strides_of_a_single_batch_are_ignored(void**) {
  RawCall c = strided_candidate();
  c.batch = 1;
  c.strideA = -3;
  c.strideB = 5;
  c.strideC = 0;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
}

void sizes_beyond_int32_are_too_large(void**) {
  constexpr int64_t kBig = int64_t{1} << 31;
  RawCall c = candidate(EntryPoint::GemmEx_64);
  c.m = kBig;
  c.lda = c.ldc = kBig;
  assert_layout(c, BWGEMM_REASON_TOO_LARGE);
  c.m = kBig - 1;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
  c = candidate(EntryPoint::GemmEx_64);
  c.n = kBig;
  assert_layout(c, BWGEMM_REASON_TOO_LARGE);
  c = candidate(EntryPoint::GemmEx_64);
  c.k = kBig;
  c.ldb = kBig;
  assert_layout(c, BWGEMM_REASON_TOO_LARGE);
  c = strided_candidate(EntryPoint::GemmStridedBatchedEx_64);
  c.batch = kBig;
  assert_layout(c, BWGEMM_REASON_TOO_LARGE);
}

// TMA describes strides below 2^40 bytes.
void leading_dimensions_of_2_to_the_40_bytes_are_too_large(void**) {
  RawCall c = candidate(EntryPoint::GemmEx_64);
  c.lda = int64_t{1} << 39;  // fp16: 2^40 bytes
  assert_layout(c, BWGEMM_REASON_TOO_LARGE);
  c = candidate(EntryPoint::GemmEx_64);
  c.Ctype = CUDA_R_32F;
  c.ldc = int64_t{1} << 38;  // fp32: 2^40 bytes
  assert_layout(c, BWGEMM_REASON_TOO_LARGE);
  c.ldc = int64_t{1} << 36;
  assert_layout(c, BWGEMM_REASON_KERNEL_SELECTED);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(candidates_are_taken),
      cmocka_unit_test(null_handle_is_reported_before_anything_else),
      cmocka_unit_test(negative_m_is_invalid),
      cmocka_unit_test(negative_n_is_invalid),
      cmocka_unit_test(negative_k_is_invalid),
      cmocka_unit_test(lda_below_rows_of_a_is_invalid_for_each_op),
      cmocka_unit_test(ldb_below_rows_of_b_is_invalid_for_each_op),
      cmocka_unit_test(ldc_below_m_is_invalid_for_each_op),
      cmocka_unit_test(empty_m_with_lda_zero_is_invalid),
      cmocka_unit_test(empty_m_with_ldc_zero_is_invalid),
      cmocka_unit_test(empty_m_with_lds_of_one_is_a_quick_return),
      cmocka_unit_test(empty_k_with_ldb_zero_is_invalid),
      cmocka_unit_test(op_conjg_is_invalid),
      cmocka_unit_test(op_7_is_invalid),
      cmocka_unit_test(op_c_is_a_transpose_on_real_types),
      cmocka_unit_test(every_documented_algo_is_valid),
      cmocka_unit_test(algos_outside_the_documented_ranges_are_invalid),
      cmocka_unit_test(fp16_and_bf16_with_fp32_accumulation_are_taken),
      cmocka_unit_test(mixed_a_and_b_types_are_unsupported),
      cmocka_unit_test(fp16_inputs_with_bf16_output_are_unsupported),
      cmocka_unit_test(compute_16f_is_not_taken),
      cmocka_unit_test(fp8_inputs_are_not_taken),
      cmocka_unit_test(legacy_compute_types_are_not_taken),
      cmocka_unit_test(pedantic_compute_is_not_taken),
      cmocka_unit_test(fast_tf32_compute_is_not_taken),
      cmocka_unit_test(fast_variant_of_the_other_input_type_is_not_taken),
      cmocka_unit_test(fp32_and_fp64_inputs_are_not_taken),
      cmocka_unit_test(negative_batch_is_invalid),
      cmocka_unit_test(zero_batch_is_a_quick_return),
      cmocka_unit_test(zero_m_or_n_is_a_quick_return),
      cmocka_unit_test(zero_k_is_taken),
      cmocka_unit_test(zero_alpha_is_taken),
      cmocka_unit_test(pointer_array_batches_are_not_taken),
      cmocka_unit_test(classification_reads_no_memory),
      cmocka_unit_test(problem_has_the_call_shape),
      cmocka_unit_test(problem_has_bf16_types),
      cmocka_unit_test(problem_ops_n_t_c),
      cmocka_unit_test(host_mode_scalars_are_read_as_float),
      cmocka_unit_test(device_mode_scalars_are_kept_as_pointers),
      cmocka_unit_test(problem_has_the_batch_strides),
      cmocka_unit_test(aligned_layouts_are_accepted),
      cmocka_unit_test(pointers_must_be_element_aligned),
      cmocka_unit_test(any_leading_dimension_is_taken),
      cmocka_unit_test(negative_strides_are_not_taken),
      cmocka_unit_test(overlapping_outputs_are_not_taken),
      cmocka_unit_test(broadcast_a_or_b_is_accepted),
      cmocka_unit_test(odd_batch_strides_are_taken),
      cmocka_unit_test(strides_of_a_single_batch_are_ignored),
      cmocka_unit_test(sizes_beyond_int32_are_too_large),
      cmocka_unit_test(leading_dimensions_of_2_to_the_40_bytes_are_too_large),
  };
  return cmocka_run_group_tests_name("decode", tests, nullptr, nullptr);
}
