// SPDX-License-Identifier: MIT
// Calls bwgemm does not run itself are cuBLAS's own, bit for bit: with the
// thread's policy forcing cuBLAS, and for calls bwgemm never takes (fp32,
// unaligned leading dimensions or pointers, COMPUTE_16F), C computed through
// bwgemmGemmEx(_64) / bwgemmGemmStridedBatchedEx(_64) equals C computed by the
// real cuBLAS function called directly, over types, ops, odd sizes, alpha and
// beta, both pointer modes and batches, on gaussian inputs. Invalid calls
// return cuBLAS's own status. Exits 77 where there is no GPU.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bwgemm/bwgemm.h"

#include "../support/check.h"

namespace {

constexpr const char* kCublasSoname = REAL_CUBLAS;

// The real cuBLAS functions, taken from the library by its soname and version
// node so that the interposed cublas* names of libbwgemm are never called.
struct RealCublas {
  decltype(&bwgemmGemmEx) gemm_ex;
  decltype(&bwgemmGemmEx_64) gemm_ex_64;
  decltype(&bwgemmGemmStridedBatchedEx) gemm_strided_batched_ex;
  decltype(&bwgemmGemmStridedBatchedEx_64) gemm_strided_batched_ex_64;
  decltype(&bwgemmGemmBatchedEx) gemm_batched_ex;
};

template <class Fn>
void resolve(void* library, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(dlvsym(library, name, kCublasSoname));
  if (*out == nullptr) {
    std::fprintf(stderr, "%s has no %s@%s\n", kCublasSoname, name, kCublasSoname);
    std::exit(EXIT_FAILURE);
  }
}

RealCublas load_real_cublas() {
  void* library = dlopen(kCublasSoname, RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) {
    std::fprintf(stderr, "%s is not loaded: %s\n", kCublasSoname, dlerror());
    std::exit(EXIT_FAILURE);
  }
  RealCublas r{};
  resolve(library, "cublasGemmEx", &r.gemm_ex);
  resolve(library, "cublasGemmEx_64", &r.gemm_ex_64);
  resolve(library, "cublasGemmStridedBatchedEx", &r.gemm_strided_batched_ex);
  resolve(library, "cublasGemmStridedBatchedEx_64", &r.gemm_strided_batched_ex_64);
  resolve(library, "cublasGemmBatchedEx", &r.gemm_batched_ex);
  return r;
}

size_t element_size(cudaDataType t) {
  switch (t) {
    case CUDA_R_16F:
    case CUDA_R_16BF: return 2;
    case CUDA_R_32F: return 4;
    default: std::fprintf(stderr, "unexpected type %d\n", int(t)); std::exit(EXIT_FAILURE);
  }
}

void store(cudaDataType t, float v, unsigned char* dst) {
  if (t == CUDA_R_16F) {
    const __half h = __float2half_rn(v);
    std::memcpy(dst, &h, sizeof h);
  } else if (t == CUDA_R_16BF) {
    const __nv_bfloat16 b = __float2bfloat16_rn(v);
    std::memcpy(dst, &b, sizeof b);
  } else {
    std::memcpy(dst, &v, sizeof v);
  }
}

// A device buffer of `count` elements of `type`, filled on the host.
struct DeviceBuffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  DeviceBuffer(size_t count, cudaDataType type, const std::function<float()>& value)
      : bytes(count * element_size(type)) {
    std::vector<unsigned char> host(bytes);
    for (size_t i = 0; i < count; ++i) store(type, value(), &host[i * element_size(type)]);
    CUDA_OK(cudaMalloc(&ptr, bytes == 0 ? 1 : bytes));
    CUDA_OK(cudaMemcpy(ptr, host.data(), bytes, cudaMemcpyHostToDevice));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(ptr); }
  std::vector<unsigned char> read() const {
    std::vector<unsigned char> host(bytes);
    CUDA_OK(cudaMemcpy(host.data(), ptr, bytes, cudaMemcpyDeviceToHost));
    return host;
  }
};

struct Types {
  const char* name;
  cudaDataType ab, c;
  cublasComputeType_t compute;
};

struct Case {
  std::string name;
  Types types;
  cublasOperation_t transa, transb;
  int m, n, k;
  bool unaligned_lda;  // lda * element size not a multiple of 16 bytes
  int a_offset;        // A starts this many elements into its buffer
  float alpha, beta;   // beta == 0: C starts as NaN, which must not be read
  cublasPointerMode_t mode;
  int batch;         // 1: GemmEx(_64); more: StridedBatchedEx(_64)
  bool wide;         // the _64 entry point
  bool broadcast_a;  // strideA = 0
  bwgemmPolicy_t policy;
};

std::mt19937 g_rng(20261121);

std::function<float()> gaussian() {
  return [] { return std::normal_distribution<float>(0.0f, 1.0f)(g_rng); };
}

std::function<float()> constant(float v) {
  return [v] { return v; };
}

// Runs `c` through the real cuBLAS and through bwgemm on identical inputs and
// compares the outputs bit for bit. Returns false on a difference.
bool run_case(cublasHandle_t handle, const RealCublas& real, const Case& c) {
  const bool scalars_half = c.types.compute == CUBLAS_COMPUTE_16F;
  const int rows_a = c.transa == CUBLAS_OP_N ? c.m : c.k;
  const int cols_a = c.transa == CUBLAS_OP_N ? c.k : c.m;
  const int rows_b = c.transb == CUBLAS_OP_N ? c.k : c.n;
  const int cols_b = c.transb == CUBLAS_OP_N ? c.n : c.k;
  // Leading dimensions a multiple of 16 bytes (unless asked otherwise), with
  // rows to spare: the comparison covers them, and nothing may write there.
  const auto padded = [](int rows) { return (rows + 7) / 8 * 8 + 8; };
  const int lda = padded(rows_a) + (c.unaligned_lda ? 1 : 0), ldb = padded(rows_b),
            ldc = padded(c.m);
  const long long stride_a = c.broadcast_a ? 0 : static_cast<long long>(lda) * cols_a;
  const long long stride_b = static_cast<long long>(ldb) * cols_b;
  const long long stride_c = static_cast<long long>(ldc) * c.n;
  const size_t a_count =
      c.a_offset + static_cast<size_t>(lda) * cols_a * (c.broadcast_a ? 1 : c.batch);
  const size_t b_count = static_cast<size_t>(stride_b) * c.batch;
  const size_t c_count = static_cast<size_t>(stride_c) * c.batch;

  DeviceBuffer a(a_count, c.types.ab, gaussian());
  DeviceBuffer b(b_count, c.types.ab, gaussian());
  std::vector<float> c_init(c_count);
  for (float& v : c_init)
    v = c.beta == 0.0f ? std::numeric_limits<float>::quiet_NaN() : gaussian()();
  size_t next = 0;
  const auto initial_c = [&] { return c_init[next++ % c_count]; };
  DeviceBuffer c_ref(c_count, c.types.c, initial_c);
  next = 0;
  DeviceBuffer c_bw(c_count, c.types.c, initial_c);

  // alpha and beta in the scale type, on the host or on the device.
  unsigned char host_scalars[8];
  const size_t scalar_size = scalars_half ? 2 : 4;
  store(scalars_half ? CUDA_R_16F : CUDA_R_32F, c.alpha, host_scalars);
  store(scalars_half ? CUDA_R_16F : CUDA_R_32F, c.beta, host_scalars + scalar_size);
  void* device_scalars = nullptr;
  CUDA_OK(cudaMalloc(&device_scalars, 2 * scalar_size));
  CUDA_OK(cudaMemcpy(device_scalars, host_scalars, 2 * scalar_size, cudaMemcpyHostToDevice));
  const unsigned char* scalars = c.mode == CUBLAS_POINTER_MODE_DEVICE
                                     ? static_cast<const unsigned char*>(device_scalars)
                                     : host_scalars;
  const void* alpha = scalars;
  const void* beta = scalars + scalar_size;
  CUBLAS_OK(cublasSetPointerMode(handle, c.mode));

  const void* a_ptr =
      static_cast<const unsigned char*>(a.ptr) + c.a_offset * element_size(c.types.ab);
  const auto call = [&](bool through_bwgemm, void* out) -> cublasStatus_t {
    const cudaDataType at = c.types.ab, ct = c.types.c;
    const cublasComputeType_t ctype = c.types.compute;
    const cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP;
    if (c.batch == 1 && !c.wide)
      return (through_bwgemm ? &bwgemmGemmEx : real.gemm_ex)(handle, c.transa, c.transb, c.m, c.n,
                                                             c.k, alpha, a_ptr, at, lda, b.ptr, at,
                                                             ldb, beta, out, ct, ldc, ctype, algo);
    if (c.batch == 1)
      return (through_bwgemm ? &bwgemmGemmEx_64 : real.gemm_ex_64)(
          handle, c.transa, c.transb, c.m, c.n, c.k, alpha, a_ptr, at, lda, b.ptr, at, ldb, beta,
          out, ct, ldc, ctype, algo);
    if (!c.wide)
      return (through_bwgemm ? &bwgemmGemmStridedBatchedEx : real.gemm_strided_batched_ex)(
          handle, c.transa, c.transb, c.m, c.n, c.k, alpha, a_ptr, at, lda, stride_a, b.ptr, at,
          ldb, stride_b, beta, out, ct, ldc, stride_c, c.batch, ctype, algo);
    return (through_bwgemm ? &bwgemmGemmStridedBatchedEx_64 : real.gemm_strided_batched_ex_64)(
        handle, c.transa, c.transb, c.m, c.n, c.k, alpha, a_ptr, at, lda, stride_a, b.ptr, at, ldb,
        stride_b, beta, out, ct, ldc, stride_c, c.batch, ctype, algo);
  };

  bool ok = true;
  const cublasStatus_t ref_status = call(false, c_ref.ptr);
  CUBLAS_OK(bwgemmSetThreadPolicy(c.policy));
  const cublasStatus_t bw_status = call(true, c_bw.ptr);
  CUBLAS_OK(bwgemmSetThreadPolicy(BWGEMM_POLICY_AUTO));
  CUDA_OK(cudaDeviceSynchronize());
  if (ref_status != CUBLAS_STATUS_SUCCESS || bw_status != ref_status) {
    std::printf("FAIL %s: status cuBLAS %d, bwgemm %d\n", c.name.c_str(), int(ref_status),
                int(bw_status));
    ok = false;
  }
  bwgemmDispatchInfo_t info{};
  info.size = sizeof info;
  CUBLAS_OK(bwgemmGetLastDispatch(&info));
  if (info.path != BWGEMM_PATH_CUBLAS) {
    std::printf("FAIL %s: ran on path %d (%s), not cuBLAS\n", c.name.c_str(), int(info.path),
                info.reason_name);
    ok = false;
  }
  const std::vector<unsigned char> ref = c_ref.read(), got = c_bw.read();
  if (ok && ref != got) {
    size_t first = 0;
    while (ref[first] == got[first]) ++first;
    std::printf("FAIL %s: C differs from cuBLAS's, first at byte %zu\n", c.name.c_str(), first);
    ok = false;
  }
  CUDA_OK(cudaFree(device_scalars));
  return ok;
}

const char* op_name(cublasOperation_t op) {
  return op == CUBLAS_OP_N ? "N" : op == CUBLAS_OP_T ? "T" : "C";
}

std::vector<Case> make_cases() {
  const Types taken[] = {
      {"f16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F},
      {"f16->f32", CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F},
      {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F},
      {"bf16->f32", CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F},
      {"f16 fast16f", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_16F},
      {"bf16 fast16bf", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F_FAST_16BF},
  };
  const Types f32{"f32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F};
  const Types f16_compute16{"f16 compute16f", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F};
  const cublasOperation_t ops[][2] = {{CUBLAS_OP_N, CUBLAS_OP_N},
                                      {CUBLAS_OP_N, CUBLAS_OP_T},
                                      {CUBLAS_OP_T, CUBLAS_OP_N},
                                      {CUBLAS_OP_T, CUBLAS_OP_T},
                                      {CUBLAS_OP_C, CUBLAS_OP_N}};
  const int shapes[][3] = {{37, 53, 29}, {64, 128, 40}, {1, 17, 5}};
  const float scalars[][2] = {{1.0f, 0.0f}, {0.5f, 2.0f}, {-1.25f, 1.0f}, {0.0f, 0.75f}};

  std::vector<Case> cases;
  int index = 0;
  const auto add = [&](const Types& t, bwgemmPolicy_t policy, bool unaligned_lda, int a_offset,
                       const char* why) {
    for (const auto& op : ops)
      for (const auto& s : shapes)
        for (int batch : {1, 3})
          for (cublasPointerMode_t mode : {CUBLAS_POINTER_MODE_HOST, CUBLAS_POINTER_MODE_DEVICE}) {
            Case c{};
            c.types = t;
            c.transa = op[0];
            c.transb = op[1];
            c.m = s[0];
            c.n = s[1];
            c.k = s[2];
            c.unaligned_lda = unaligned_lda;
            c.a_offset = a_offset;
            c.alpha = scalars[index % 4][0];
            c.beta = scalars[index % 4][1];
            c.mode = mode;
            c.batch = batch;
            c.wide = index % 2 == 1;
            c.broadcast_a = batch > 1 && index % 3 == 0;
            c.policy = policy;
            char name[160];
            std::snprintf(name, sizeof name,
                          "%s %s%s m=%d n=%d k=%d%s A+%d alpha=%g beta=%g %s batch=%d%s%s "
                          "(%s)",
                          t.name, op_name(c.transa), op_name(c.transb), c.m, c.n, c.k,
                          unaligned_lda ? " lda+1" : "", a_offset, c.alpha, c.beta,
                          mode == CUBLAS_POINTER_MODE_HOST ? "host" : "device", batch,
                          c.wide ? " _64" : "", c.broadcast_a ? " strideA=0" : "", why);
            c.name = name;
            cases.push_back(c);
            ++index;
          }
  };
  for (const Types& t : taken) add(t, BWGEMM_POLICY_FORCE_CUBLAS, false, 0, "policy forces cuBLAS");
  add(f32, BWGEMM_POLICY_AUTO, false, 0, "fp32");
  add(taken[0], BWGEMM_POLICY_AUTO, true, 0, "unaligned lda");
  add(taken[2], BWGEMM_POLICY_AUTO, false, 1, "unaligned A");
  add(f16_compute16, BWGEMM_POLICY_AUTO, false, 0, "COMPUTE_16F");
  return cases;
}

// Invalid (and empty) calls: bwgemm must return whatever cuBLAS returns.
int check_invalid_calls(cublasHandle_t handle, const RealCublas& real) {
  DeviceBuffer a(64 * 64, CUDA_R_16F, constant(1.0f));
  DeviceBuffer b(64 * 64, CUDA_R_16F, constant(1.0f));
  DeviceBuffer c(64 * 64, CUDA_R_16F, constant(0.0f));
  const float one = 1.0f, zero = 0.0f;
  CUBLAS_OK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
  struct Args {
    const char* name;
    cublasHandle_t handle;
    int transa, m, n, k, lda;
    cudaDataType atype, btype;
    int compute, algo;
    int batch;  // < 2 and != 1: StridedBatchedEx with this batch; 1: GemmEx
  };
  const cudaDataType h = CUDA_R_16F;
  const int c32 = CUBLAS_COMPUTE_32F, dflt = CUBLAS_GEMM_DEFAULT;
  const Args cases[] = {
      {"NULL handle", nullptr, 0, 16, 16, 16, 16, h, h, c32, dflt, 1},
      {"m < 0", handle, 0, -1, 16, 16, 16, h, h, c32, dflt, 1},
      {"lda < m", handle, 0, 16, 16, 16, 15, h, h, c32, dflt, 1},
      {"m = 0, lda = 0", handle, 0, 0, 16, 16, 0, h, h, c32, dflt, 1},
      {"m = 0", handle, 0, 0, 16, 16, 1, h, h, c32, dflt, 1},
      {"transa = 3", handle, 3, 16, 16, 16, 16, h, h, c32, dflt, 1},
      {"algo = 24", handle, 0, 16, 16, 16, 16, h, h, c32, 24, 1},
      {"f16 x bf16", handle, 0, 16, 16, 16, 16, h, CUDA_R_16BF, c32, dflt, 1},
      {"fp8", handle, 0, 16, 16, 16, 16, CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, c32, dflt, 1},
      {"computeType 12345", handle, 0, 16, 16, 16, 16, h, h, 12345, dflt, 1},
      {"COMPUTE_32I with f16", handle, 0, 16, 16, 16, 16, h, h, CUBLAS_COMPUTE_32I, dflt, 1},
      {"batch = -1", handle, 0, 16, 16, 16, 16, h, h, c32, dflt, -1},
      {"batch = 0", handle, 0, 16, 16, 16, 16, h, h, c32, dflt, 0},
  };
  int failures = 0;
  for (const Args& x : cases) {
    const auto call = [&](bool through_bwgemm) -> cublasStatus_t {
      const auto ta = static_cast<cublasOperation_t>(x.transa);
      const auto ct = static_cast<cublasComputeType_t>(x.compute);
      const auto algo = static_cast<cublasGemmAlgo_t>(x.algo);
      if (x.batch == 1)
        return (through_bwgemm ? &bwgemmGemmEx : real.gemm_ex)(
            x.handle, ta, CUBLAS_OP_N, x.m, x.n, x.k, &one, a.ptr, x.atype, x.lda, b.ptr, x.btype,
            16, &zero, c.ptr, h, 16, ct, algo);
      return (through_bwgemm ? &bwgemmGemmStridedBatchedEx : real.gemm_strided_batched_ex)(
          x.handle, ta, CUBLAS_OP_N, x.m, x.n, x.k, &one, a.ptr, x.atype, x.lda, 256, b.ptr,
          x.btype, 16, 256, &zero, c.ptr, h, 16, 256, x.batch, ct, algo);
    };
    const cublasStatus_t expected = call(false);
    const cublasStatus_t got = call(true);
    if (got != expected) {
      std::printf("FAIL invalid call %s: cuBLAS %d, bwgemm %d\n", x.name, int(expected), int(got));
      ++failures;
    }
  }
  // Pointer-array batch of 0: nothing is read.
  const cublasStatus_t expected = real.gemm_batched_ex(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, nullptr, h, 16, nullptr, h, 16, &zero,
      nullptr, h, 16, 0, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  const cublasStatus_t got = bwgemmGemmBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one,
                                                 nullptr, h, 16, nullptr, h, 16, &zero, nullptr, h,
                                                 16, 0, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (got != expected) {
    std::printf("FAIL batched batch = 0: cuBLAS %d, bwgemm %d\n", int(expected), int(got));
    ++failures;
  }
  CUDA_OK(cudaDeviceSynchronize());
  return failures;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  const RealCublas real = load_real_cublas();
  cublasHandle_t handle;
  CUBLAS_OK(cublasCreate(&handle));

  int failures = 0;
  const std::vector<Case> cases = make_cases();
  for (const Case& c : cases) failures += run_case(handle, real, c) ? 0 : 1;
  std::printf("%zu GEMM cases, %d differ from cuBLAS\n", cases.size(), failures);
  const int invalid_failures = check_invalid_calls(handle, real);
  std::printf("invalid calls: %d differ from cuBLAS\n", invalid_failures);

  CUBLAS_OK(cublasDestroy(handle));
  return failures + invalid_failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
