// SPDX-License-Identifier: MIT
// bwgemm's cublasLtMatmul on its own kernels against the real cuBLASLt, in
// one process: every epilogue bwgemm runs (DEFAULT, BIAS, RELU, RELU_BIAS,
// GELU, GELU_BIAS), fp16 and bf16, a bias of the output type and of fp32, in
// place and out of place (D apart from C, C NULL when beta == 0), host and
// device scalars, a batch, on gaussian inputs. With the thread's policy
// forcing bwgemm's kernel, each call must have run on a kernel
// (bwgemmGetLastDispatch), and D must match cuBLASLt's within a relative
// Frobenius error (1e-2 fp16, 2e-2 bf16), with D's rows past m untouched.
// An AUX epilogue must be forwarded and equal cuBLASLt's bit for bit.
// Exits 77 where there is no GPU or no bwgemm kernel family for it.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bwgemm/bwgemm.h"

#include "../support/check.h"

namespace {

constexpr const char* kLtSoname = REAL_CUBLASLT;

using MatmulFn = decltype(&cublasLtMatmul);

// Each library's own cublasLtMatmul, by handle, so neither name lookup can
// pick the other: bwgemm's from libbwgemm, the real one from libcublasLt.
MatmulFn matmul_of(void* library, const char* what) {
  auto fn = reinterpret_cast<MatmulFn>(dlvsym(library, "cublasLtMatmul", kLtSoname));
  if (fn == nullptr) {
    std::fprintf(stderr, "%s has no cublasLtMatmul@%s\n", what, kLtSoname);
    std::exit(EXIT_FAILURE);
  }
  return fn;
}

void* library_containing(const void* symbol) {
  Dl_info info{};
  if (!dladdr(symbol, &info)) return nullptr;
  return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
}

struct Case {
  cudaDataType type;  // A, B, C, D
  cublasLtEpilogue_t epilogue;
  cudaDataType bias_type;  // CUDA_R_32F or `type`
  bool out_of_place, null_c, device_scalars;
  float alpha, beta;
  int m, n, k, batch;
};

std::string describe(const Case& c) {
  char buf[256];
  std::snprintf(
      buf, sizeof buf, "%s epilogue=%d bias=%s %s%s%s alpha=%g beta=%g m=%d n=%d k=%d batch=%d",
      c.type == CUDA_R_16F ? "f16" : "bf16", int(c.epilogue),
      c.bias_type == CUDA_R_32F ? "f32" : "out", c.out_of_place ? "out-of-place" : "in-place",
      c.null_c ? " C=NULL" : "", c.device_scalars ? " device-scalars" : "", double(c.alpha),
      double(c.beta), c.m, c.n, c.k, c.batch);
  return buf;
}

float to_float(cudaDataType t, uint16_t bits) {
  if (t == CUDA_R_16F) {
    __half_raw raw;
    raw.x = bits;
    return __half2float(__half(raw));
  }
  __nv_bfloat16_raw raw;
  raw.x = bits;
  return __bfloat162float(__nv_bfloat16(raw));
}

uint16_t from_float(cudaDataType t, float v) {
  if (t == CUDA_R_16F) return __half_raw(__float2half_rn(v)).x;
  return __nv_bfloat16_raw(__float2bfloat16_rn(v)).x;
}

template <class T>
void set_desc(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr, T value) {
  CUBLAS_OK(cublasLtMatmulDescSetAttribute(d, attr, &value, sizeof value));
}

template <class T>
void set_layout(cublasLtMatrixLayout_t l, cublasLtMatrixLayoutAttribute_t attr, T value) {
  CUBLAS_OK(cublasLtMatrixLayoutSetAttribute(l, attr, &value, sizeof value));
}

struct Device {
  void* p = nullptr;
  explicit Device(size_t bytes) { CUDA_OK(cudaMalloc(&p, bytes)); }
  ~Device() { cudaFree(p); }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
};

// D of one call through `matmul` (PyTorch's layout: A transposed, k x m with
// lda = k; B k x n; C/D m x n with ld = m + 8, whose padding rows must
// survive). Returns D's bytes; `failure` set when the call itself failed.
std::vector<uint16_t> run(MatmulFn matmul, cublasLtHandle_t lt, const Case& c,
                          const std::vector<uint16_t>& a, const std::vector<uint16_t>& b,
                          const std::vector<uint16_t>& c_host, const std::vector<uint8_t>& bias,
                          cublasStatus_t* status) {
  const int64_t lda = c.k, ldb = c.k, ldc = c.m + 8;
  const int64_t sa = lda * c.m, sb = ldb * c.n, sc = ldc * c.n;
  Device da(a.size() * 2), db(b.size() * 2), dc(c_host.size() * 2), dd(c_host.size() * 2),
      dbias(bias.size()), scalars(8), workspace(size_t{1} << 22);
  CUDA_OK(cudaMemcpy(da.p, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(db.p, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dc.p, c_host.data(), c_host.size() * 2, cudaMemcpyHostToDevice));
  // An out-of-place D starts as NaN inside m x n and C's bytes in the padding.
  std::vector<uint16_t> d_host = c_host;
  if (c.out_of_place)
    for (int64_t bt = 0; bt < c.batch; ++bt)
      for (int64_t j = 0; j < c.n; ++j)
        for (int64_t i = 0; i < c.m; ++i) d_host[size_t(bt * sc + j * ldc + i)] = 0x7fff;
  CUDA_OK(cudaMemcpy(dd.p, d_host.data(), d_host.size() * 2, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dbias.p, bias.data(), bias.size(), cudaMemcpyHostToDevice));
  const float host_scalars[2] = {c.alpha, c.beta};
  CUDA_OK(cudaMemcpy(scalars.p, host_scalars, sizeof host_scalars, cudaMemcpyHostToDevice));

  cublasLtMatmulDesc_t desc;
  CUBLAS_OK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  set_desc(desc, CUBLASLT_MATMUL_DESC_TRANSA, int32_t{CUBLAS_OP_T});
  set_desc(desc, CUBLASLT_MATMUL_DESC_TRANSB, int32_t{CUBLAS_OP_N});
  set_desc(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, uint32_t(c.epilogue));
  set_desc(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<const void*>(dbias.p));
  set_desc(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, int32_t(c.bias_type));
  set_desc(desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, int64_t{c.m});
  if (c.device_scalars)
    set_desc(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, int32_t{CUBLASLT_POINTER_MODE_DEVICE});
  // Only the AUX case: where its extra output goes.
  Device aux(size_t(c.m) * c.n * c.batch * 2);
  if (c.epilogue == CUBLASLT_EPILOGUE_GELU_AUX_BIAS) {
    set_desc(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, aux.p);
    set_desc(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, int64_t{c.m});
    set_desc(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, int64_t{c.m} * c.n);
  }
  cublasLtMatrixLayout_t la, lb, lc, ld;
  CUBLAS_OK(cublasLtMatrixLayoutCreate(&la, c.type, c.k, c.m, lda));
  CUBLAS_OK(cublasLtMatrixLayoutCreate(&lb, c.type, c.k, c.n, ldb));
  CUBLAS_OK(cublasLtMatrixLayoutCreate(&lc, c.type, c.m, c.n, ldc));
  CUBLAS_OK(cublasLtMatrixLayoutCreate(&ld, c.type, c.m, c.n, ldc));
  const int64_t strides[4] = {sa, sb, sc, sc};
  const cublasLtMatrixLayout_t layouts[4] = {la, lb, lc, ld};
  for (int i = 0; i < 4; ++i) {
    set_layout(layouts[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, int32_t(c.batch));
    set_layout(layouts[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, strides[i]);
  }
  const float* alpha = c.device_scalars ? static_cast<const float*>(scalars.p) : &c.alpha;
  const float* beta = c.device_scalars ? static_cast<const float*>(scalars.p) + 1 : &c.beta;
  const void* c_ptr = c.null_c ? nullptr : c.out_of_place ? dc.p : dd.p;
  *status = matmul(lt, desc, alpha, da.p, la, db.p, lb, beta, c_ptr, lc, dd.p, ld, nullptr,
                   workspace.p, size_t{1} << 22, nullptr);
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(d_host.data(), dd.p, d_host.size() * 2, cudaMemcpyDeviceToHost));
  for (cublasLtMatrixLayout_t l : layouts) cublasLtMatrixLayoutDestroy(l);
  cublasLtMatmulDescDestroy(desc);
  return d_host;
}

bool run_case(MatmulFn ours, MatmulFn real, cublasLtHandle_t lt, const Case& c, uint64_t seed,
              bool forwarded) {
  const std::string name = describe(c);
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const int64_t ldc = c.m + 8;
  std::vector<uint16_t> a(size_t(c.k) * c.m * c.batch), b(size_t(c.k) * c.n * c.batch),
      c_host(size_t(ldc) * c.n * c.batch);
  for (uint16_t& x : a) x = from_float(c.type, normal(rng));
  for (uint16_t& x : b) x = from_float(c.type, normal(rng));
  for (int64_t i = 0; i < int64_t(c_host.size()); ++i)
    c_host[size_t(i)] = i % ldc >= c.m   ? from_float(c.type, -7777.0f)
                        : c.beta == 0.0f ? uint16_t(0x7fff)  // NaN: must not be read
                                         : from_float(c.type, normal(rng));
  const size_t bias_elem = c.bias_type == CUDA_R_32F ? 4 : 2;
  std::vector<uint8_t> bias(size_t(c.m) * c.batch * bias_elem);
  for (size_t i = 0; i < size_t(c.m) * c.batch; ++i) {
    const float v = normal(rng);
    if (bias_elem == 4) {
      std::memcpy(&bias[i * 4], &v, 4);
    } else {
      const uint16_t bits = from_float(c.type, v);
      std::memcpy(&bias[i * 2], &bits, 2);
    }
  }
  cublasStatus_t want_status, got_status;
  const std::vector<uint16_t> want = run(real, lt, c, a, b, c_host, bias, &want_status);
  const std::vector<uint16_t> got = run(ours, lt, c, a, b, c_host, bias, &got_status);
  bwgemmDispatchInfo_t info{};
  info.size = sizeof info;
  bwgemmGetLastDispatch(&info);
  // A call cuBLASLt refuses must get the same status through bwgemm (which
  // then has forwarded it).
  if (want_status != CUBLAS_STATUS_SUCCESS) {
    const bool same = got_status == want_status;
    std::printf("%s %s: cuBLASLt returned %d, bwgemm %d (%s)\n", same ? "ok  " : "FAIL",
                name.c_str(), int(want_status), int(got_status), info.reason_name);
    return same;
  }
  if (got_status != CUBLAS_STATUS_SUCCESS) {
    std::printf("FAIL %s: bwgemm returned %d\n", name.c_str(), int(got_status));
    return false;
  }
  if (forwarded) {
    const bool same = info.path == BWGEMM_PATH_CUBLAS && want == got;
    std::printf("%s %s: forwarded (%s), %s\n", same ? "ok  " : "FAIL", name.c_str(),
                info.reason_name, want == got ? "bitwise equal" : "differs");
    return same;
  }
  if (info.path == BWGEMM_PATH_CUBLAS || info.path == BWGEMM_PATH_NONE) {
    std::printf("FAIL %s: not run by a bwgemm kernel (%s)\n", name.c_str(), info.reason_name);
    return false;
  }
  double err2 = 0.0, ref2 = 0.0;
  int padding_changed = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (int64_t(i) % ldc >= c.m) {
      padding_changed += got[i] != c_host[i];
      continue;
    }
    const double w = to_float(c.type, want[i]), g = to_float(c.type, got[i]);
    err2 += (g - w) * (g - w);
    ref2 += w * w;
  }
  const double err = std::sqrt(err2 / (ref2 > 0 ? ref2 : 1e-30));
  const double limit = c.type == CUDA_R_16F ? 1e-2 : 2e-2;
  const bool ok = err < limit && padding_changed == 0;
  std::printf("%s %s: %s %s, relative Frobenius error %.2e (limit %.0e)%s\n", ok ? "ok  " : "FAIL",
              name.c_str(), bwgemmGetReasonString(info.reason), info.kernel, err, limit,
              padding_changed ? ", padding rows written" : "");
  return ok;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  cublasLtHandle_t lt;
  CUBLAS_OK(cublasLtCreate(&lt));
  void* bwgemm = library_containing(reinterpret_cast<const void*>(&bwgemmGetVersion));
  void* real_lt = dlopen(kLtSoname, RTLD_NOW | RTLD_NOLOAD);
  if (bwgemm == nullptr || real_lt == nullptr) {
    std::fprintf(stderr, "cannot find libbwgemm or %s in the process\n", kLtSoname);
    return EXIT_FAILURE;
  }
  const MatmulFn ours = matmul_of(bwgemm, "libbwgemm");
  const MatmulFn real = matmul_of(real_lt, kLtSoname);
  if (reinterpret_cast<void*>(ours) == reinterpret_cast<void*>(real)) {
    std::fprintf(stderr, "libbwgemm's and cuBLASLt's cublasLtMatmul are one function\n");
    return EXIT_FAILURE;
  }
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);

  // Whether this GPU has a bwgemm kernel family at all.
  {
    const Case probe{CUDA_R_16F, CUBLASLT_EPILOGUE_BIAS,
                     CUDA_R_16F, false,
                     false,      false,
                     1.0f,       0.0f,
                     256,        128,
                     64,         1};
    std::vector<uint16_t> a(256 * 64, 0), b(64 * 128, 0), c_host(264 * 128, 0);
    std::vector<uint8_t> bias(256 * 2, 0);
    cublasStatus_t status;
    run(ours, lt, probe, a, b, c_host, bias, &status);
    bwgemmDispatchInfo_t info{};
    info.size = sizeof info;
    bwgemmGetLastDispatch(&info);
    if (info.reason == BWGEMM_REASON_NO_KERNEL_FOR_ARCH) {
      std::printf("SKIP: no bwgemm kernel family for this GPU\n");
      return 77;
    }
  }

  std::vector<Case> cases;
  const cublasLtEpilogue_t epilogues[] = {CUBLASLT_EPILOGUE_DEFAULT, CUBLASLT_EPILOGUE_BIAS,
                                          CUBLASLT_EPILOGUE_RELU,    CUBLASLT_EPILOGUE_RELU_BIAS,
                                          CUBLASLT_EPILOGUE_GELU,    CUBLASLT_EPILOGUE_GELU_BIAS};
  for (cudaDataType type : {CUDA_R_16F, CUDA_R_16BF}) {
    for (cublasLtEpilogue_t e : epilogues) {
      // PyTorch's Linear: in place, beta 0 (an odd out-features count too).
      cases.push_back({type, e, type, false, false, false, 1.0f, 0.0f, 1000, 515, 768, 1});
      cases.push_back({type, e, CUDA_R_32F, true, false, false, 1.5f, -0.5f, 1024, 512, 1024, 1});
    }
    cases.push_back(
        {type, CUBLASLT_EPILOGUE_RELU_BIAS, type, true, true, false, 1.0f, 0.0f, 768, 300, 256, 1});
    cases.push_back({type, CUBLASLT_EPILOGUE_GELU_BIAS, CUDA_R_32F, false, false, true, 0.5f, 1.0f,
                     512, 384, 512, 3});
  }
  int failures = 0;
  uint64_t seed = 1;
  for (const Case& c : cases) failures += run_case(ours, real, lt, c, seed++, false) ? 0 : 1;
  // bwgemm does not write the AUX output: forwarded, cuBLASLt's own result.
  const Case aux{CUDA_R_16F, CUBLASLT_EPILOGUE_GELU_AUX_BIAS,
                 CUDA_R_16F, false,
                 false,      false,
                 1.0f,       0.0f,
                 512,        256,
                 256,        1};
  failures += run_case(ours, real, lt, aux, seed++, true) ? 0 : 1;
  std::printf("%zu cublasLtMatmul cases, %d failed\n", cases.size() + 1, failures);
  cublasLtDestroy(lt);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
