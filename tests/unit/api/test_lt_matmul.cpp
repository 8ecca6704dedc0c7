// SPDX-License-Identifier: MIT
// src/api/lt_exports.cpp, lt_decode.cpp and the cublasLtMatmul path of
// gemm_entry.cpp, against the mock cuBLASLt (BWGEMM_CUBLASLT_LIBRARY): the
// descriptors are decoded through the mock's getters into the problem a
// kernel family gets (D apart from C, bias, activation, the caller's
// workspace); every call bwgemm does not take reaches cuBLASLt with exactly
// the caller's arguments and returns its status; and cuBLAS's own
// cublasLtMatmul calls, made while bwgemm is inside the real cuBLAS, pass
// straight through without being recorded.
#include <cublasLt.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "api/lt_decode.h"
#include "core/env_config.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/gemm_call.h"
#include "support/mock_cublas_client.h"
#include "support/mock_cublaslt_client.h"
#include "support/mock_cuda_runtime.h"
#include "support/test_env.h"

using bwgemm::Activation;
using bwgemm::DType;
using bwgemm::GemmProblem;

namespace {

template <class T>
T* address(uintptr_t a) {
  return reinterpret_cast<T*>(a);
}

const float kAlpha = 1.25f;
const float kBeta = 0.5f;
const float kZero = 0.0f;
const auto kStream = address<CUstream_st>(0x77000);

// One cublasLtMatmul call: what its descriptors hold and its arguments. The
// default is PyTorch's Linear with bias (fp16, TN, in place, 1 MiB
// workspace), scaled down: m = 64 (out features), n = 32 (tokens), k = 16.
struct LtCase {
  int32_t compute = CUBLAS_COMPUTE_32F;
  int32_t scale = CUDA_R_32F;
  int32_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
  int32_t pointer_mode = CUBLASLT_POINTER_MODE_HOST;
  uint32_t epilogue = CUBLASLT_EPILOGUE_BIAS;
  const void* bias = address<const void>(0x5000000);
  int32_t bias_type = -1;  // D's type
  int64_t bias_stride = 0;
  cudaDataType ab = CUDA_R_16F, out = CUDA_R_16F;
  int64_t m = 64, n = 32, k = 16;
  int64_t lda = 16, ldb = 16, ldc = 64, ldd = 64;
  int32_t batch = 1;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0, stride_d = 0;
  bool d_uses_c_layout = false;  // Ddesc == Cdesc, as PyTorch passes them
  cublasLtHandle_t handle = address<cublasLtContext>(0x6000);
  const void* alpha = &kAlpha;
  const void* beta = &kBeta;
  const void* A = address<const void>(0x1000000);
  const void* B = address<const void>(0x2000000);
  const void* C = address<const void>(0x3000000);
  void* D = address<void>(0x3000000);
  const cublasLtMatmulAlgo_t* algo = address<const cublasLtMatmulAlgo_t>(0x8000);
  void* workspace = address<void>(0x9000000);
  size_t workspace_bytes = size_t{1} << 20;
  cudaStream_t stream = kStream;
  // Further descriptor edits, made after the fields above are set.
  std::function<void(cublasLtMatmulDesc_t, cublasLtMatrixLayout_t[4])> edit;
};

struct Descriptors {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t layouts[4] = {};  // A, B, C, D

  explicit Descriptors(const LtCase& c) {
    const MockCublasLtControl& lt = mock_cublaslt();
    assert_int_equal(lt.desc_create(&desc, static_cast<cublasComputeType_t>(c.compute), CUDA_R_32F),
                     0);
    const auto set = [&](cublasLtMatmulDescAttributes_t attr, const auto& value) {
      assert_int_equal(lt.desc_set(desc, attr, &value, sizeof value), 0);
    };
    set(CUBLASLT_MATMUL_DESC_SCALE_TYPE, c.scale);
    set(CUBLASLT_MATMUL_DESC_TRANSA, c.transa);
    set(CUBLASLT_MATMUL_DESC_TRANSB, c.transb);
    set(CUBLASLT_MATMUL_DESC_POINTER_MODE, c.pointer_mode);
    set(CUBLASLT_MATMUL_DESC_EPILOGUE, c.epilogue);
    set(CUBLASLT_MATMUL_DESC_BIAS_POINTER, c.bias);
    set(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, c.bias_type);
    set(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, c.bias_stride);
    const bool ta = c.transa != CUBLAS_OP_N, tb = c.transb != CUBLAS_OP_N;
    const struct {
      cudaDataType type;
      int64_t rows, cols, ld, stride;
    } shapes[4] = {{c.ab, ta ? c.k : c.m, ta ? c.m : c.k, c.lda, c.stride_a},
                   {c.ab, tb ? c.n : c.k, tb ? c.k : c.n, c.ldb, c.stride_b},
                   {c.out, c.m, c.n, c.ldc, c.stride_c},
                   {c.out, c.m, c.n, c.ldd, c.stride_d}};
    for (int i = 0; i < 4; ++i) {
      assert_int_equal(lt.layout_create(&layouts[i], shapes[i].type, uint64_t(shapes[i].rows),
                                        uint64_t(shapes[i].cols), shapes[i].ld),
                       0);
      assert_int_equal(
          lt.layout_set(layouts[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &c.batch, sizeof c.batch),
          0);
      assert_int_equal(lt.layout_set(layouts[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                     &shapes[i].stride, sizeof shapes[i].stride),
                       0);
    }
    if (c.edit) c.edit(desc, layouts);
  }
  ~Descriptors() {
    const MockCublasLtControl& lt = mock_cublaslt();
    lt.desc_destroy(desc);
    for (cublasLtMatrixLayout_t l : layouts) lt.layout_destroy(l);
  }
  Descriptors(const Descriptors&) = delete;
  Descriptors& operator=(const Descriptors&) = delete;
};

// The arguments `c` is called with, as MockLtCall records them.
MockLtCall arguments(const LtCase& c, const Descriptors& d) {
  return {1,
          c.handle,
          d.desc,
          c.alpha,
          c.A,
          d.layouts[0],
          c.B,
          d.layouts[1],
          c.beta,
          c.C,
          d.layouts[2],
          c.D,
          c.d_uses_c_layout ? d.layouts[2] : d.layouts[3],
          c.algo,
          c.workspace,
          c.workspace_bytes,
          c.stream};
}

cublasStatus_t invoke(const MockLtCall& a) {
  return cublasLtMatmul(a.handle, a.desc, a.alpha, a.A, a.Adesc, a.B, a.Bdesc, a.beta, a.C, a.Cdesc,
                        a.D, a.Ddesc, a.algo, a.workspace, a.workspace_bytes, a.stream);
}

void assert_lt_call_equal(const MockLtCall& e, const MockLtCall& a, const char* label) {
#define CHECK_FIELD(f) \
  if (std::memcmp(&e.f, &a.f, sizeof e.f) != 0) fail_msg("%s: cuBLASLt got another " #f, label);
  CHECK_FIELD(called)
  CHECK_FIELD(handle)
  CHECK_FIELD(desc)
  CHECK_FIELD(alpha)
  CHECK_FIELD(A)
  CHECK_FIELD(Adesc)
  CHECK_FIELD(B)
  CHECK_FIELD(Bdesc)
  CHECK_FIELD(beta)
  CHECK_FIELD(C)
  CHECK_FIELD(Cdesc)
  CHECK_FIELD(D)
  CHECK_FIELD(Ddesc)
  CHECK_FIELD(algo)
  CHECK_FIELD(workspace)
  CHECK_FIELD(workspace_bytes)
  CHECK_FIELD(stream)
#undef CHECK_FIELD
}

// `c` reaches the mock cuBLASLt once, exactly as made, returns its status,
// launches nothing (`launch_tried`: one launch was tried, and enqueued
// nothing), and is recorded as forwarded for `reason`.
void assert_forwarded(const LtCase& c, bwgemmReason_t reason, const char* label,
                      bool launch_tried = false) {
  const MockCublasLtControl& lt = mock_cublaslt();
  const Descriptors d(c);
  const MockLtCall expected = arguments(c, d);
  const cublasStatus_t status = test::distinctive_status();
  lt.set_status(status);
  const int calls = lt.call_count();
  const int launches = fake::total_launches();

  const cublasStatus_t returned = invoke(expected);

  if (returned != status)
    fail_msg("%s returned %d, cuBLASLt returned %d", label, int(returned), int(status));
  if (lt.call_count() != calls + 1) fail_msg("%s: cuBLASLt was not called once", label);
  assert_lt_call_equal(expected, lt.last_call(), label);
  if (fake::total_launches() != launches + (launch_tried ? 1 : 0))
    fail_msg("%s: %d kernel launches", label, fake::total_launches() - launches);
  const bwgemmDispatchInfo_t info = test::last_dispatch();
  if (info.path != BWGEMM_PATH_CUBLAS || info.reason != reason)
    fail_msg("%s: recorded path %d reason %s, expected cuBLAS for %s", label, int(info.path),
             info.reason_name, bwgemmGetReasonString(reason));
}

// `c` runs on fake family 0 and not on cuBLASLt; returns the problem.
GemmProblem assert_launched(const LtCase& c, const char* label) {
  const MockCublasLtControl& lt = mock_cublaslt();
  const Descriptors d(c);
  const int calls = lt.call_count();
  const int launches = fake::record(0).launch_calls;

  const cublasStatus_t status = invoke(arguments(c, d));

  if (status != CUBLAS_STATUS_SUCCESS) fail_msg("%s returned %d", label, int(status));
  if (fake::record(0).launch_calls != launches + 1)
    fail_msg("%s: no kernel launch (%s)", label, test::last_dispatch().reason_name);
  if (lt.call_count() != calls) fail_msg("%s: cuBLASLt was called too", label);
  const bwgemmDispatchInfo_t info = test::last_dispatch();
  if (info.path != BWGEMM_PATH_SM90 || info.reason != BWGEMM_REASON_KERNEL_SELECTED)
    fail_msg("%s: recorded path %d reason %s", label, int(info.path), info.reason_name);
  return fake::record(0).last_problem;
}

int reset(void** state) {
  test::reset_gemm_state(state);
  mock_cublaslt().reset();
  mock_cuda::set_stream_device(kStream, 0);
  bwgemm::forget_lt_readings();
  return 0;
}

template <class T>
void set_desc(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr, T value) {
  assert_int_equal(mock_cublaslt().desc_set(desc, attr, &value, sizeof value), 0);
}

template <class T>
void set_layout(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr, T value) {
  assert_int_equal(mock_cublaslt().layout_set(layout, attr, &value, sizeof value), 0);
}

// ---- decoding: what reaches the kernel family ----

void linear_with_bias_reaches_the_kernel_decoded(void**) {
  const LtCase c;
  const GemmProblem p = assert_launched(c, "Linear with bias");
  assert_int_equal(int(p.ab_type), int(DType::F16));
  assert_int_equal(int(p.c_type), int(DType::F16));
  assert_true(p.trans_a);
  assert_false(p.trans_b);
  assert_int_equal(p.m, 64);
  assert_int_equal(p.n, 32);
  assert_int_equal(p.k, 16);
  assert_ptr_equal(p.a, c.A);
  assert_ptr_equal(p.b, c.B);
  assert_ptr_equal(p.c, c.C);
  assert_ptr_equal(p.d, c.D);
  assert_int_equal(p.lda, 16);
  assert_int_equal(p.ldb, 16);
  assert_int_equal(p.ldc, 64);
  assert_int_equal(p.ldd, 64);
  assert_int_equal(p.batch, 1);
  assert_false(p.alpha.on_device);
  assert_true(p.alpha.value == kAlpha);
  assert_true(p.beta.value == kBeta);
  assert_ptr_equal(p.stream, kStream);
  assert_ptr_equal(p.epilogue.bias, c.bias);
  assert_int_equal(int(p.epilogue.bias_type), int(DType::F16));
  assert_int_equal(int(p.epilogue.activation), int(Activation::None));
  assert_ptr_equal(p.workspace, c.workspace);
  assert_int_equal(p.workspace_bytes, c.workspace_bytes);
}

void every_supported_epilogue_is_decoded(void**) {
  const struct {
    uint32_t epilogue;
    Activation activation;
    bool bias;
  } cases[] = {{CUBLASLT_EPILOGUE_DEFAULT, Activation::None, false},
               {CUBLASLT_EPILOGUE_RELU, Activation::Relu, false},
               {CUBLASLT_EPILOGUE_GELU, Activation::Gelu, false},
               {CUBLASLT_EPILOGUE_BIAS, Activation::None, true},
               {CUBLASLT_EPILOGUE_RELU_BIAS, Activation::Relu, true},
               {CUBLASLT_EPILOGUE_GELU_BIAS, Activation::Gelu, true}};
  for (const auto& e : cases) {
    LtCase c;
    c.epilogue = e.epilogue;
    // A bias attribute set beside an epilogue without a bias: cuBLASLt
    // refused those (INVALID_VALUE on an H200), so they are its to answer.
    if (!e.bias) c.bias = nullptr;
    const GemmProblem p = assert_launched(c, "epilogue");
    assert_int_equal(int(p.epilogue.activation), int(e.activation));
    assert_ptr_equal(p.epilogue.bias, e.bias ? c.bias : nullptr);
  }
}

void bf16_and_fp32_outputs_with_their_bias_are_decoded(void**) {
  LtCase c;
  c.ab = c.out = CUDA_R_16BF;
  c.bias_type = CUDA_R_16BF;
  GemmProblem p = assert_launched(c, "bf16 with a bf16 bias");
  assert_int_equal(int(p.ab_type), int(DType::BF16));
  assert_int_equal(int(p.epilogue.bias_type), int(DType::BF16));
  c.out = CUDA_R_32F;
  c.bias_type = -1;
  p = assert_launched(c, "fp32 output, bias of its type");
  assert_int_equal(int(p.c_type), int(DType::F32));
  assert_int_equal(int(p.epilogue.bias_type), int(DType::F32));
}

void out_of_place_d_is_kept_apart_from_c(void**) {
  LtCase c;
  c.D = address<void>(0x4000000);
  c.ldd = 72;
  const GemmProblem p = assert_launched(c, "out of place");
  assert_ptr_equal(p.c, c.C);
  assert_int_equal(p.ldc, 64);
  assert_ptr_equal(p.d, c.D);
  assert_int_equal(p.ldd, 72);
}

void null_c_with_zero_beta_runs_on_the_kernel(void**) {
  LtCase c;
  c.C = nullptr;
  c.D = address<void>(0x4000000);
  c.beta = &kZero;
  const GemmProblem p = assert_launched(c, "C NULL, beta 0");
  assert_null(p.c);
  assert_ptr_equal(p.d, c.D);
}

void device_pointer_mode_and_batches_are_decoded(void**) {
  LtCase c;
  c.pointer_mode = CUBLASLT_POINTER_MODE_DEVICE;
  c.alpha = address<const void>(0xa000);
  c.beta = address<const void>(0xb000);
  c.batch = 3;
  c.stride_a = 16 * 64;
  c.stride_b = 16 * 32 + 8;
  c.stride_c = c.stride_d = 64 * 32;
  c.bias_stride = 64;
  const GemmProblem p = assert_launched(c, "device scalars, batched");
  assert_true(p.alpha.on_device);
  assert_ptr_equal(p.alpha.device, c.alpha);
  assert_ptr_equal(p.beta.device, c.beta);
  assert_int_equal(p.batch, 3);
  assert_int_equal(p.stride_a, c.stride_a);
  assert_int_equal(p.stride_b, c.stride_b);
  assert_int_equal(p.stride_c, c.stride_c);
  assert_int_equal(p.stride_d, c.stride_d);
  assert_int_equal(p.epilogue.bias_stride, 64);
}

void sm_count_target_of_the_descriptor_reaches_the_kernel(void**) {
  LtCase c;
  c.edit = [](cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t*) {
    set_desc(desc, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, int32_t{66});
  };
  assert_int_equal(assert_launched(c, "SM count target").sm_count_target, 66);
}

void attribute_unknown_to_the_library_counts_as_default(void**) {
  // An older cuBLASLt without the emulation descriptor: nobody can have set it.
  LtCase c;
  c.edit = [](cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t*) {
    mock_cublaslt().forget_desc_attribute(desc, CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR);
  };
  assert_launched(c, "older library");
}

// ---- forwarding: every case bwgemm does not take, bit for bit ----

struct ForwardCase {
  const char* label;
  std::function<void(LtCase&)> edit;
  bwgemmReason_t reason;
};

std::function<void(LtCase&)> desc_edit(std::function<void(cublasLtMatmulDesc_t)> f) {
  return
      [f](LtCase& c) { c.edit = [f](cublasLtMatmulDesc_t d, cublasLtMatrixLayout_t*) { f(d); }; };
}

std::function<void(LtCase&)> layout_edit(int which, std::function<void(cublasLtMatrixLayout_t)> f) {
  return [which, f](LtCase& c) {
    c.edit = [which, f](cublasLtMatmulDesc_t, cublasLtMatrixLayout_t* l) { f(l[which]); };
  };
}

void unsupported_calls_are_forwarded_bit_for_bit(void**) {
  const void* const some = address<const void>(0xc000);
  const ForwardCase cases[] = {
      {"AUX epilogue", [](LtCase& c) { c.epilogue = CUBLASLT_EPILOGUE_GELU_AUX_BIAS; },
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"RELU_AUX", [](LtCase& c) { c.epilogue = CUBLASLT_EPILOGUE_RELU_AUX; },
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"DRELU_BGRAD", [](LtCase& c) { c.epilogue = CUBLASLT_EPILOGUE_DRELU_BGRAD; },
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"DGELU", [](LtCase& c) { c.epilogue = CUBLASLT_EPILOGUE_DGELU; },
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"BGRADB", [](LtCase& c) { c.epilogue = CUBLASLT_EPILOGUE_BGRADB; },
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"row-major A",
       layout_edit(0,
                   [](cublasLtMatrixLayout_t l) {
                     set_layout(l, CUBLASLT_MATRIX_LAYOUT_ORDER, int32_t{CUBLASLT_ORDER_ROW});
                   }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"row-major D",
       layout_edit(3,
                   [](cublasLtMatrixLayout_t l) {
                     set_layout(l, CUBLASLT_MATRIX_LAYOUT_ORDER, int32_t{CUBLASLT_ORDER_ROW});
                   }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"planar complex",
       layout_edit(1,
                   [](cublasLtMatrixLayout_t l) {
                     set_layout(l, CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, int64_t{4096});
                   }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"pointer-array batch",
       layout_edit(2,
                   [](cublasLtMatrixLayout_t l) {
                     set_layout(l, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, uint32_t{1});
                   }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"batch counts differ",
       layout_edit(0,
                   [](cublasLtMatrixLayout_t l) {
                     set_layout(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, int32_t{2});
                   }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"fp8", [](LtCase& c) { c.ab = CUDA_R_8F_E4M3; }, BWGEMM_REASON_UNSUPPORTED_TYPES},
      {"fp32 inputs", [](LtCase& c) { c.ab = c.out = CUDA_R_32F; },
       BWGEMM_REASON_UNSUPPORTED_TYPES},
      {"compute 16F", [](LtCase& c) { c.compute = CUBLAS_COMPUTE_16F; },
       BWGEMM_REASON_UNSUPPORTED_TYPES},
      {"compute fast TF32", [](LtCase& c) { c.compute = CUBLAS_COMPUTE_32F_FAST_TF32; },
       BWGEMM_REASON_UNSUPPORTED_TYPES},
      {"scale type 16F", [](LtCase& c) { c.scale = CUDA_R_16F; }, BWGEMM_REASON_UNSUPPORTED_TYPES},
      {"bias of another 16-bit type", [](LtCase& c) { c.bias_type = CUDA_R_16BF; },
       BWGEMM_REASON_UNSUPPORTED_TYPES},
      {"fp32 bias with a 16-bit D", [](LtCase& c) { c.bias_type = CUDA_R_32F; },
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"bias pointer beside an epilogue without a bias",
       [](LtCase& c) { c.epilogue = CUBLASLT_EPILOGUE_RELU; }, BWGEMM_REASON_LT_UNSUPPORTED},
      {"bias type beside the default epilogue",
       [](LtCase& c) {
         c.epilogue = CUBLASLT_EPILOGUE_DEFAULT;
         c.bias = nullptr;
         c.bias_type = CUDA_R_16F;
       },
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"C type differs from D",
       [](LtCase& c) {
         c.edit = [](cublasLtMatmulDesc_t, cublasLtMatrixLayout_t* l) {
           set_layout(l[2], CUBLASLT_MATRIX_LAYOUT_TYPE, uint32_t{CUDA_R_32F});
         };
       },
       BWGEMM_REASON_INVALID_ARGUMENT},
      {"device vector pointer mode",
       [](LtCase& c) { c.pointer_mode = CUBLASLT_POINTER_MODE_DEVICE_VECTOR; },
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"transposed C", desc_edit([](cublasLtMatmulDesc_t d) {
         set_desc(d, CUBLASLT_MATMUL_DESC_TRANSC, int32_t{CUBLAS_OP_T});
       }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"fill mode", desc_edit([](cublasLtMatmulDesc_t d) {
         set_desc(d, CUBLASLT_MATMUL_DESC_FILL_MODE, int32_t{CUBLAS_FILL_MODE_LOWER});
       }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"fast accumulation", desc_edit([](cublasLtMatmulDesc_t d) {
         set_desc(d, CUBLASLT_MATMUL_DESC_FAST_ACCUM, int8_t{1});
       }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"A scale mode", desc_edit([](cublasLtMatmulDesc_t d) {
         set_desc(d, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, int32_t{1});
       }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"D out scale mode", desc_edit([](cublasLtMatmulDesc_t d) {
         set_desc(d, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, int32_t{1});
       }),
       BWGEMM_REASON_LT_UNSUPPORTED},
      {"NULL A", [](LtCase& c) { c.A = nullptr; }, BWGEMM_REASON_INVALID_ARGUMENT},
      {"NULL B", [](LtCase& c) { c.B = nullptr; }, BWGEMM_REASON_INVALID_ARGUMENT},
      {"NULL D", [](LtCase& c) { c.D = nullptr; }, BWGEMM_REASON_INVALID_ARGUMENT},
      {"NULL C with beta != 0", [](LtCase& c) { c.C = nullptr; }, BWGEMM_REASON_INVALID_ARGUMENT},
      {"NULL C with device beta",
       [](LtCase& c) {
         c.C = nullptr;
         c.pointer_mode = CUBLASLT_POINTER_MODE_DEVICE;
         c.beta = address<const void>(0xb000);
       },
       BWGEMM_REASON_INVALID_ARGUMENT},
      {"NULL alpha", [](LtCase& c) { c.alpha = nullptr; }, BWGEMM_REASON_INVALID_ARGUMENT},
      {"NULL bias with a bias epilogue", [](LtCase& c) { c.bias = nullptr; },
       BWGEMM_REASON_INVALID_ARGUMENT},
      {"NULL handle", [](LtCase& c) { c.handle = nullptr; }, BWGEMM_REASON_NULL_HANDLE},
      {"op(A) rows differ from D's",
       [](LtCase& c) {
         c.edit = [](cublasLtMatmulDesc_t, cublasLtMatrixLayout_t* l) {
           set_layout(l[0], CUBLASLT_MATRIX_LAYOUT_COLS, uint64_t{63});
         };
       },
       BWGEMM_REASON_INVALID_ARGUMENT},
      {"k differs between A and B",
       [](LtCase& c) {
         c.edit = [](cublasLtMatmulDesc_t, cublasLtMatrixLayout_t* l) {
           set_layout(l[1], CUBLASLT_MATRIX_LAYOUT_ROWS, uint64_t{15});
         };
       },
       BWGEMM_REASON_INVALID_ARGUMENT},
      {"ldd below m",
       [](LtCase& c) {
         c.D = address<void>(0x4000000);
         c.ldd = 63;
       },
       BWGEMM_REASON_INVALID_ARGUMENT},
      {"in place with another ld", [](LtCase& c) { c.ldd = 72; }, BWGEMM_REASON_INVALID_ARGUMENT},
      {"D overlapping C out of place",
       [](LtCase& c) { c.D = address<void>(0x3000000 + 64 * 2 * 4); },
       BWGEMM_REASON_UNSUPPORTED_LAYOUT},
      {"misaligned D", [](LtCase& c) { c.D = address<void>(0x4000001); },
       BWGEMM_REASON_UNSUPPORTED_LAYOUT},
      {"misaligned bias", [](LtCase& c) { c.bias = address<const void>(0x5000001); },
       BWGEMM_REASON_UNSUPPORTED_LAYOUT},
      {"empty problem", [](LtCase& c) { c.n = 0; }, BWGEMM_REASON_QUICK_RETURN},
  };
  for (const ForwardCase& f : cases) {
    LtCase c;
    f.edit(c);
    assert_forwarded(c, f.reason, f.label);
  }
  // Each unimplemented pointer attribute set to anything.
  for (cublasLtMatmulDescAttributes_t attr :
       {CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR}) {
    LtCase c;
    desc_edit([attr, some](cublasLtMatmulDesc_t d) { set_desc(d, attr, some); })(c);
    assert_forwarded(c, BWGEMM_REASON_LT_UNSUPPORTED, "a scale, amax or emulation pointer");
  }
}

void unreadable_descriptor_is_forwarded(void**) {
  // A required attribute the library cannot report.
  LtCase c;
  c.edit = [](cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t*) {
    mock_cublaslt().forget_desc_attribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE);
  };
  assert_forwarded(c, BWGEMM_REASON_INVALID_ARGUMENT, "unreadable epilogue");
}

void forced_cublas_policy_forwards_without_decoding(void**) {
  assert_int_equal(bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_CUBLAS), CUBLAS_STATUS_SUCCESS);
  const int getters = mock_cublaslt().getter_call_count();
  assert_forwarded(LtCase{}, BWGEMM_REASON_FORCED_CUBLAS, "forced cuBLAS");
  assert_int_equal(mock_cublaslt().getter_call_count(), getters);
}

void policy_preference_for_cublas_is_forwarded(void**) {
  fake::behavior(0).config = -1;
  assert_forwarded(LtCase{}, BWGEMM_REASON_POLICY_PREFERS_CUBLAS, "policy prefers cuBLAS");
}

// A call the plan leaves to cuBLAS is forwarded before the attributes only
// a kernel run needs are read: each getter call is forwarding cost.
void policy_preference_skips_the_kernel_attributes(void**) {
  const MockCublasLtControl& lt = mock_cublaslt();
  int before = lt.getter_call_count();
  assert_launched(LtCase{}, "kernel path");
  const int kernel_getters = lt.getter_call_count() - before;
  fake::behavior(0).config = -1;
  bwgemm::forget_lt_readings();
  before = lt.getter_call_count();
  assert_forwarded(LtCase{}, BWGEMM_REASON_POLICY_PREFERS_CUBLAS, "policy prefers cuBLAS");
  const int forwarded_getters = lt.getter_call_count() - before;
  // Not read: plane offset and batch mode of 4 layouts, the 18 attributes
  // that must hold their defaults, the SM target, the bias's type and batch
  // stride (its pointer is read from the descriptor's bytes).
  assert_int_equal(kernel_getters - forwarded_getters, 4 * 2 + 18 + 1 + 2);
}

// D described by C's layout object (PyTorch's Linear) is read once: its
// 9 getters (7 decoded, plane offset and batch mode) are forwarding and
// launch cost; the problem is the same.
void a_layout_shared_by_c_and_d_is_read_once(void**) {
  const MockCublasLtControl& lt = mock_cublaslt();
  int before = lt.getter_call_count();
  const GemmProblem separate = assert_launched(LtCase{}, "C and D layouts apart");
  const int separate_getters = lt.getter_call_count() - before;
  LtCase shared;
  shared.d_uses_c_layout = true;
  before = lt.getter_call_count();
  const GemmProblem one = assert_launched(shared, "one layout for C and D");
  assert_int_equal(separate_getters - (lt.getter_call_count() - before), 9);
  assert_int_equal(one.m, separate.m);
  assert_int_equal(one.n, separate.n);
  assert_int_equal(one.ldc, separate.ldc);
  assert_int_equal(one.ldd, separate.ldd);
  assert_int_equal(one.stride_d, separate.stride_d);
  fake::behavior(0).config = -1;
  bwgemm::forget_lt_readings();
  before = lt.getter_call_count();
  assert_forwarded(LtCase{}, BWGEMM_REASON_POLICY_PREFERS_CUBLAS, "forwarded, layouts apart");
  const int forwarded_separate = lt.getter_call_count() - before;
  bwgemm::forget_lt_readings();
  before = lt.getter_call_count();
  assert_forwarded(shared, BWGEMM_REASON_POLICY_PREFERS_CUBLAS, "forwarded, one layout");
  assert_int_equal(forwarded_separate - (lt.getter_call_count() - before), 7);
}

// ---- each thread reads a repeated set of descriptors once ----

// The first step's getters for a cold call of `c` forwarded by the policy.
int forwarding_getters(const LtCase& c, const char* label) {
  const int before = mock_cublaslt().getter_call_count();
  assert_forwarded(c, BWGEMM_REASON_POLICY_PREFERS_CUBLAS, label);
  return mock_cublaslt().getter_call_count() - before;
}

void repeated_descriptors_are_read_once(void**) {
  fake::behavior(0).config = -1;
  // New descriptor objects with the same attributes each time, as PyTorch
  // makes them per call: read the first time only, forwarded bit for bit
  // every time.
  assert_true(forwarding_getters(LtCase{}, "first call") > 0);
  assert_int_equal(forwarding_getters(LtCase{}, "second call"), 0);
  assert_int_equal(forwarding_getters(LtCase{}, "third call"), 0);
}

void layers_with_their_own_bias_share_a_reading(void**) {
  LtCase layer1, layer2;
  layer2.bias = address<const void>(0x5100000);
  assert_launched(layer1, "layer 1");
  const int before = mock_cublaslt().getter_call_count();
  const GemmProblem p = assert_launched(layer2, "layer 2");
  // No getter: both steps' readings are layer 1's, and the bias pointer is
  // read from its place in the descriptor's bytes.
  assert_int_equal(mock_cublaslt().getter_call_count() - before, 0);
  assert_ptr_equal(p.epilogue.bias, layer2.bias);
}

// The kernel step is read once per set of descriptors too: a repeated
// kernel call makes no getter call (host time per call, docs/perf.md).
void a_repeated_kernel_call_makes_no_getter_call(void**) {
  const MockCublasLtControl& lt = mock_cublaslt();
  LtCase c;
  c.edit = [](cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t*) {
    set_desc(desc, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, int32_t{8});
  };
  int before = lt.getter_call_count();
  assert_launched(c, "first call");
  assert_true(lt.getter_call_count() > before);
  before = lt.getter_call_count();
  const GemmProblem p = assert_launched(c, "second call");
  assert_int_equal(lt.getter_call_count(), before);
  assert_int_equal(p.sm_count_target, 8);
  assert_ptr_equal(p.epilogue.bias, c.bias);
}

// The bias pointer is cleared in a key's bytes, where it was found once: a
// call makes no setter call into cuBLASLt (the defect: one per call, host
// time), and each call's own bias still reaches the kernel.
void a_reading_key_makes_no_setter_call(void**) {
  assert_launched(LtCase{}, "first call");
  for (uintptr_t bias : {uintptr_t{0x5200000}, uintptr_t{0x5300000}}) {
    LtCase c;
    c.bias = address<const void>(bias);
    const Descriptors d(c);
    const MockLtCall call = arguments(c, d);
    const int setters = mock_cublaslt().setter_call_count();
    assert_int_equal(invoke(call), CUBLAS_STATUS_SUCCESS);
    assert_int_equal(mock_cublaslt().setter_call_count(), setters);
    assert_ptr_equal(fake::record(0).last_problem.epilogue.bias, c.bias);
  }
}

// Whatever a setter changes between two calls with the same descriptor
// objects is read again.
void a_changed_attribute_is_read_again(void**) {
  const LtCase c;
  const Descriptors d(c);
  const MockLtCall call = arguments(c, d);
  assert_int_equal(invoke(call), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(fake::record(0).last_problem.lda, 16);
  // A's leading dimension, then the epilogue, then the transposes.
  set_layout(d.layouts[0], CUBLASLT_MATRIX_LAYOUT_LD, int64_t{24});
  assert_int_equal(invoke(call), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(fake::record(0).last_problem.lda, 24);
  set_desc(d.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, uint32_t{CUBLASLT_EPILOGUE_RELU_BIAS});
  assert_int_equal(invoke(call), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(int(fake::record(0).last_problem.epilogue.activation), int(Activation::Relu));
  // An attribute only the kernel step reads: one bwgemm does not implement,
  // then set back to its default.
  set_desc(d.desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, int8_t{1});
  assert_int_equal(invoke(call), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_LT_UNSUPPORTED);
  set_desc(d.desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, int8_t{0});
  assert_int_equal(invoke(call), CUBLAS_STATUS_SUCCESS);
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_KERNEL_SELECTED);
  // TN -> NN: A (16 x 64 rows x cols) is now m = 16 by k = 64, which B's 16
  // rows contradict: cuBLASLt's to report.
  set_desc(d.desc, CUBLASLT_MATMUL_DESC_TRANSA, int32_t{CUBLAS_OP_N});
  mock_cublaslt().set_status(CUBLAS_STATUS_INVALID_VALUE);
  assert_int_equal(invoke(call), CUBLAS_STATUS_INVALID_VALUE);
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_INVALID_ARGUMENT);
}

// More shapes than a thread keeps, twice round: every call decoded right.
void more_shapes_than_kept_are_decoded_right(void**) {
  for (int round = 0; round < 2; ++round) {
    for (int64_t i = 1; i <= 12; ++i) {
      LtCase c;
      c.m = 64 * i;
      c.ldc = c.ldd = c.m;
      const GemmProblem p = assert_launched(c, "shape");
      assert_int_equal(p.m, c.m);
      assert_int_equal(p.ldc, c.m);
    }
  }
}

void failed_launch_is_forwarded(void**) {
  fake::behavior(0).launch_result = {bwgemm::LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
  assert_forwarded(LtCase{}, BWGEMM_REASON_LAUNCH_FAILED, "failed launch", true);
}

// ---- cuBLAS's own calls pass straight through ----

// The call the mock cuBLAS's GEMM makes into "cuBLASLt", as libcublas does.
MockLtCall g_nested;
void call_lt_from_inside_cublas() { invoke(g_nested); }

void calls_made_inside_cublas_pass_straight_through(void**) {
  const test::TempFile log;
  setenv("BWGEMM_LOG", "2", 1);
  setenv("BWGEMM_LOG_FILE", log.path(), 1);
  bwgemm::env_config_reload();
  const LtCase c;  // one bwgemm would run, were it the user's call
  const Descriptors d(c);
  g_nested = arguments(c, d);
  mock_cublas().set_gemm_hook(call_lt_from_inside_cublas);
  const int lt_calls = mock_cublaslt().call_count();
  const int getters = mock_cublaslt().getter_call_count();
  const int launches = fake::total_launches();

  // A cublasGemmEx bwgemm forwards (fp32): cuBLAS calls cublasLtMatmul inside.
  test::GemmCall g = test::candidate_call(test::Api::Cublas, test::Entry::GemmEx);
  g.Atype = g.Btype = g.Ctype = CUDA_R_32F;
  assert_int_equal(test::invoke(g), CUBLAS_STATUS_SUCCESS);

  mock_cublas().set_gemm_hook(nullptr);
  unsetenv("BWGEMM_LOG");
  unsetenv("BWGEMM_LOG_FILE");
  bwgemm::env_config_reload();
  // cuBLASLt got cuBLAS's call untouched, undecoded, and nothing ran.
  assert_int_equal(mock_cublaslt().call_count(), lt_calls + 1);
  assert_lt_call_equal(g_nested, mock_cublaslt().last_call(), "nested call");
  assert_int_equal(mock_cublaslt().getter_call_count(), getters);
  assert_int_equal(fake::total_launches(), launches);
  // The thread's last decision is still the user's cublasGemmEx, and the log
  // has it alone.
  assert_int_equal(test::last_dispatch().reason, BWGEMM_REASON_UNSUPPORTED_TYPES);
  const std::string text = log.contents();
  assert_int_equal(test::count_lines_with(text, {"cublasGemmEx "}), 1);
  assert_int_equal(test::count_lines_with(text, {"cublasLtMatmul"}), 0);
}

void user_calls_are_logged_with_their_entry_and_epilogue(void**) {
  const test::TempFile log;
  setenv("BWGEMM_LOG", "2", 1);
  setenv("BWGEMM_LOG_FILE", log.path(), 1);
  bwgemm::env_config_reload();
  LtCase c;
  c.epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
  assert_launched(c, "logged");
  c.epilogue = CUBLASLT_EPILOGUE_DGELU;
  assert_forwarded(c, BWGEMM_REASON_LT_UNSUPPORTED, "logged");
  unsetenv("BWGEMM_LOG");
  unsetenv("BWGEMM_LOG_FILE");
  bwgemm::env_config_reload();
  const std::string text = log.contents();
  assert_int_equal(
      test::count_lines_with(text, {"cublasLtMatmul ", "m=64 n=32 k=16", "epilogue=gelu+bias",
                                    "-> sm90", "KERNEL_SELECTED"}),
      1);
  // A forwarded call is logged with what its descriptors said, too.
  assert_int_equal(test::count_lines_with(text, {"cublasLtMatmul ", "m=64 n=32 k=16", "Atype=2",
                                                 "-> cublas", "LT_UNSUPPORTED"}),
                   1);
}

}  // namespace

int main() {
  test::clear_bwgemm_environment();
  setenv("BWGEMM_CUBLAS_LIBRARY", mock_cublas_path(), 1);
  setenv("BWGEMM_CUBLASLT_LIBRARY", mock_cublaslt_path(), 1);
#define TEST(name) cmocka_unit_test_setup(name, reset)
  const struct CMUnitTest tests[] = {
      TEST(linear_with_bias_reaches_the_kernel_decoded),
      TEST(every_supported_epilogue_is_decoded),
      TEST(bf16_and_fp32_outputs_with_their_bias_are_decoded),
      TEST(out_of_place_d_is_kept_apart_from_c),
      TEST(null_c_with_zero_beta_runs_on_the_kernel),
      TEST(device_pointer_mode_and_batches_are_decoded),
      TEST(sm_count_target_of_the_descriptor_reaches_the_kernel),
      TEST(attribute_unknown_to_the_library_counts_as_default),
      TEST(unsupported_calls_are_forwarded_bit_for_bit),
      TEST(a_layout_shared_by_c_and_d_is_read_once),
      TEST(unreadable_descriptor_is_forwarded),
      TEST(forced_cublas_policy_forwards_without_decoding),
      TEST(policy_preference_for_cublas_is_forwarded),
      TEST(policy_preference_skips_the_kernel_attributes),
      TEST(repeated_descriptors_are_read_once),
      TEST(layers_with_their_own_bias_share_a_reading),
      TEST(a_reading_key_makes_no_setter_call),
      TEST(a_repeated_kernel_call_makes_no_getter_call),
      TEST(a_changed_attribute_is_read_again),
      TEST(more_shapes_than_kept_are_decoded_right),
      TEST(failed_launch_is_forwarded),
      TEST(calls_made_inside_cublas_pass_straight_through),
      TEST(user_calls_are_logged_with_their_entry_and_epilogue),
  };
#undef TEST
  return cmocka_run_group_tests_name("lt_matmul", tests, nullptr, nullptr);
}
