// SPDX-License-Identifier: MIT
// GPU tests of bwgemm on bad input, SM targets, fork and several devices,
// under the forced-kernel policy. Exit 77 (skipped) without a suitable GPU.
//   reliability_check null       NULL A, B or C on all six entries: cuBLAS's statuses
//   reliability_check smtarget   a handle with cublasSetSmCountTarget(16): kernel, right result
//   reliability_check fork       a child forked while another thread is inside bwgemm
//                                runs a GEMM on the kernel
//   reliability_check devices    handle on device 0 used with device 1 current; a handle
//                                per device from two threads (exit 77 with one GPU)
//   reliability_check reset      a GEMM whose A and B go through the workspace, before and
//                                after cudaDeviceReset
#include <bwgemm/bwgemm.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define STR_(x) #x
#define STR(x) STR_(x)
#define REAL_CUBLAS "libcublas.so." STR(CUBLAS_VER_MAJOR)

namespace {

constexpr int kSkip = 77;
int g_failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL %s\n", what);
    ++g_failures;
  }
}

void skip_unless_gpus(int needed) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < needed) {
    std::printf("SKIP: needs %d GPU(s), found %d\n", needed, count);
    std::exit(kSkip);
  }
}

// The real cuBLAS's function `name`, never bwgemm's interposer.
template <class Fn>
Fn real(const char* name) {
  void* lib = dlopen(REAL_CUBLAS, RTLD_NOW | RTLD_NOLOAD);
  if (lib == nullptr) lib = dlopen(REAL_CUBLAS, RTLD_NOW);
  void* sym = lib != nullptr ? dlvsym(lib, name, REAL_CUBLAS) : nullptr;
  if (sym == nullptr) {
    std::printf("cannot load %s from the real cuBLAS\n", name);
    std::exit(1);
  }
  return reinterpret_cast<Fn>(sym);
}

// fp16 n x n operands of ones on the current device; C = A * B holds n.
struct Operands {
  int n;
  __half *a = nullptr, *b = nullptr, *c = nullptr;
  explicit Operands(int size) : n(size) {
    std::vector<__half> ones(size_t(n) * n, __float2half(1.0f));
    for (__half** p : {&a, &b, &c}) {
      cudaMalloc(p, ones.size() * sizeof(__half));
      cudaMemcpy(*p, ones.data(), ones.size() * sizeof(__half), cudaMemcpyHostToDevice);
    }
  }
  ~Operands() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  bool c_holds(float value) const {
    std::vector<__half> host(size_t(n) * n);
    cudaMemcpy(host.data(), c, host.size() * sizeof(__half), cudaMemcpyDeviceToHost);
    for (const __half& h : host)
      if (__half2float(h) != value) return false;
    return true;
  }
};

const float kOne = 1.0f, kZero = 0.0f;

// cublas_api.h overloads the narrow entries in C++ (legacy compute types).
using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const void*, const void*, cudaDataType, int, const void*,
                                  cudaDataType, int, const void*, void*, cudaDataType, int,
                                  cublasComputeType_t, cublasGemmAlgo_t);
using GemmStridedBatchedEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t,
                                                cublasOperation_t, int, int, int, const void*,
                                                const void*, cudaDataType, int, long long,
                                                const void*, cudaDataType, int, long long,
                                                const void*, void*, cudaDataType, int, long long,
                                                int, cublasComputeType_t, cublasGemmAlgo_t);
using GemmBatchedEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                         int, int, const void*, const void* const[], cudaDataType,
                                         int, const void* const[], cudaDataType, int, const void*,
                                         void* const[], cudaDataType, int, int, cublasComputeType_t,
                                         cublasGemmAlgo_t);
cublasStatus_t gemm(GemmEx fn, cublasHandle_t h, const Operands& o, const void* a, const void* b,
                    void* c, const float* alpha, const float* beta) {
  return fn(h, CUBLAS_OP_N, CUBLAS_OP_N, o.n, o.n, o.n, alpha, a, CUDA_R_16F, o.n, b, CUDA_R_16F,
            o.n, beta, c, CUDA_R_16F, o.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

bool last_ran_the_kernel() {
  bwgemmDispatchInfo_t info{};
  info.size = sizeof info;
  return bwgemmGetLastDispatch(&info) == CUBLAS_STATUS_SUCCESS && info.path != BWGEMM_PATH_CUBLAS;
}

// Each of A, B, C NULL in turn (cuBLAS 13.1: INVALID_VALUE), through all six
// entries; the pointer-array forms get NULL arrays. bwgemm's status must be
// cuBLAS's and the context must survive. (NULL alpha/beta: the unit tests.)
int run_null() {
  skip_unless_gpus(1);
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  const Operands o(256);
  const float* alpha = &kOne;
  const float* beta = &kZero;
  const void* const* aa = nullptr;
  for (int which = 0; which < 3; ++which) {
    const void* a = which == 0 ? nullptr : o.a;
    const void* b = which == 1 ? nullptr : o.b;
    void* c = which == 2 ? nullptr : o.c;
    const int n = o.n;
    const cublasStatus_t ours[6] = {
        gemm(cublasGemmEx, h, o, a, b, c, alpha, beta),
        cublasGemmEx_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, a, CUDA_R_16F, n, b,
                        CUDA_R_16F, n, beta, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT),
        static_cast<GemmStridedBatchedEx>(cublasGemmStridedBatchedEx)(
            h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, a, CUDA_R_16F, n, 0, b, CUDA_R_16F, n, 0,
            beta, c, CUDA_R_16F, n, 0, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        cublasGemmStridedBatchedEx_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, a, CUDA_R_16F, n,
                                      0, b, CUDA_R_16F, n, 0, beta, c, CUDA_R_16F, n, 0, 1,
                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        static_cast<GemmBatchedEx>(cublasGemmBatchedEx)(
            h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, aa, CUDA_R_16F, n, aa, CUDA_R_16F, n, beta,
            nullptr, CUDA_R_16F, n, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        cublasGemmBatchedEx_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, aa, CUDA_R_16F, n, aa,
                               CUDA_R_16F, n, beta, nullptr, CUDA_R_16F, n, 1, CUBLAS_COMPUTE_32F,
                               CUBLAS_GEMM_DEFAULT)};
    const cublasStatus_t theirs[6] = {
        gemm(real<GemmEx>("cublasGemmEx"), h, o, a, b, c, alpha, beta),
        real<decltype(&cublasGemmEx_64)>("cublasGemmEx_64")(
            h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, a, CUDA_R_16F, n, b, CUDA_R_16F, n, beta,
            c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        real<GemmStridedBatchedEx>("cublasGemmStridedBatchedEx")(
            h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, a, CUDA_R_16F, n, 0, b, CUDA_R_16F, n, 0,
            beta, c, CUDA_R_16F, n, 0, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        real<decltype(&cublasGemmStridedBatchedEx_64)>("cublasGemmStridedBatchedEx_64")(
            h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, a, CUDA_R_16F, n, 0, b, CUDA_R_16F, n, 0,
            beta, c, CUDA_R_16F, n, 0, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        real<GemmBatchedEx>("cublasGemmBatchedEx")(
            h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, aa, CUDA_R_16F, n, aa, CUDA_R_16F, n, beta,
            nullptr, CUDA_R_16F, n, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        real<decltype(&cublasGemmBatchedEx_64)>("cublasGemmBatchedEx_64")(
            h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, aa, CUDA_R_16F, n, aa, CUDA_R_16F, n, beta,
            nullptr, CUDA_R_16F, n, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)};
    for (int e = 0; e < 6; ++e) {
      if (ours[e] != theirs[e])
        std::printf("pointer %d entry %d: bwgemm %d, cuBLAS %d\n", which, e, int(ours[e]),
                    int(theirs[e]));
      expect(ours[e] == theirs[e], "NULL pointer status equals cuBLAS's");
    }
  }
  expect(cudaDeviceSynchronize() == cudaSuccess, "the context survives");
  cublasDestroy(h);
  std::printf("null: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}

int run_smtarget() {
  skip_unless_gpus(1);
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  expect(cublasSetSmCountTarget(h, 16) == CUBLAS_STATUS_SUCCESS, "set the SM target");
  const Operands o(2048);
  expect(gemm(cublasGemmEx, h, o, o.a, o.b, o.c, &kOne, &kZero) == CUBLAS_STATUS_SUCCESS,
         "GEMM with an SM target of 16");
  expect(last_ran_the_kernel(), "the kernel ran");
  expect(cudaDeviceSynchronize() == cudaSuccess && o.c_holds(2048.0f), "the result is right");
  cublasDestroy(h);
  std::printf("smtarget: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}

// A thread keeps calling bwgemm (NULL-handle calls: forwarded and logged
// under BWGEMM_LOG=1, so the decision log's lock is taken and released all
// the time, and CUDA is never initialized in the parent) while the main
// thread forks; the child then runs a GEMM on the kernel.
int run_fork_child();

int run_fork() {
  setenv("BWGEMM_LOG", "1", 1);
  setenv("BWGEMM_LOG_FILE", "/dev/null", 1);
  std::atomic<bool> stop{false};
  std::thread caller([&stop] {
    while (!stop.load())
      cublasGemmEx(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &kOne, nullptr, CUDA_R_16F, 8,
                   nullptr, CUDA_R_16F, 8, &kZero, nullptr, CUDA_R_16F, 8, CUBLAS_COMPUTE_32F,
                   CUBLAS_GEMM_DEFAULT);
  });
  usleep(20 * 1000);
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) _exit(run_fork_child());
  stop.store(true);
  caller.join();
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == kSkip) return kSkip;
  expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's GEMM");
  std::printf("fork: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}

int run_fork_child() {
  skip_unless_gpus(1);
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  const Operands o(512);
  const bool ok = gemm(cublasGemmEx, h, o, o.a, o.b, o.c, &kOne, &kZero) == CUBLAS_STATUS_SUCCESS &&
                  last_ran_the_kernel() && cudaDeviceSynchronize() == cudaSuccess &&
                  o.c_holds(512.0f);
  cublasDestroy(h);
  return ok ? 0 : 1;
}

// A handle made on device 0, with a stream of device 0 or the default
// stream, called with device 1 current: the status cuBLAS gives.
int run_devices() {
  skip_unless_gpus(2);
  cudaSetDevice(0);
  cublasHandle_t h;
  cudaStream_t stream;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cudaStreamCreate(&stream) != cudaSuccess)
    return 1;
  const Operands o(1024);
  for (bool user_stream : {true, false}) {
    cublasSetStream(h, user_stream ? stream : nullptr);
    cudaSetDevice(1);
    const cublasStatus_t ours = gemm(cublasGemmEx, h, o, o.a, o.b, o.c, &kOne, &kZero);
    const cublasStatus_t theirs =
        gemm(real<GemmEx>("cublasGemmEx"), h, o, o.a, o.b, o.c, &kOne, &kZero);
    std::printf("%s stream: bwgemm %d, cuBLAS %d\n", user_stream ? "user" : "default", int(ours),
                int(theirs));
    expect(ours == theirs, "cross-device status equals cuBLAS's");
    expect(cudaDeviceSynchronize() == cudaSuccess, "device 1 survives");
    cudaSetDevice(0);
    expect(cudaDeviceSynchronize() == cudaSuccess, "device 0 survives");
  }
  cublasDestroy(h);
  cudaStreamDestroy(stream);

  // One handle per device, one thread each, at once.
  bool ok[2] = {false, false};
  std::vector<std::thread> threads;
  for (int d = 0; d < 2; ++d)
    threads.emplace_back([d, &ok] {
      // The thread policy is per thread: main's does not reach these.
      bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
      cudaSetDevice(d);
      cublasHandle_t mine;
      if (cublasCreate(&mine) != CUBLAS_STATUS_SUCCESS) return;
      const Operands own(1024);
      ok[d] = true;
      for (int i = 0; i < 20 && ok[d]; ++i)
        ok[d] = gemm(cublasGemmEx, mine, own, own.a, own.b, own.c, &kOne, &kZero) ==
                    CUBLAS_STATUS_SUCCESS &&
                last_ran_the_kernel();
      ok[d] = ok[d] && cudaDeviceSynchronize() == cudaSuccess && own.c_holds(1024.0f);
      cublasDestroy(mine);
    });
  for (std::thread& t : threads) t.join();
  expect(ok[0] && ok[1], "a handle per device from two threads");
  std::printf("devices: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}

// Rows of 250 fp16 elements (500 bytes) TMA cannot address: A and B are
// packed into the legacy stream's workspace. After cudaDeviceReset (which
// frees it with everything else of the context) the same call must not touch
// the old workspace or launch state (the defect: a stale workspace pointer).
int run_reset() {
  skip_unless_gpus(1);
  for (int round = 0; round < 2; ++round) {
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
    {
      const Operands o(250);
      expect(gemm(cublasGemmEx, h, o, o.a, o.b, o.c, &kOne, &kZero) == CUBLAS_STATUS_SUCCESS,
             round == 0 ? "GEMM before the reset" : "GEMM after the reset");
      expect(last_ran_the_kernel(), "the kernel ran");
      expect(cudaDeviceSynchronize() == cudaSuccess && o.c_holds(250.0f), "the result is right");
    }
    cublasDestroy(h);
    if (round == 0) expect(cudaDeviceReset() == cudaSuccess, "cudaDeviceReset");
  }
  std::printf("reset: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "null") == 0) return run_null();
  if (std::strcmp(mode, "smtarget") == 0) return run_smtarget();
  if (std::strcmp(mode, "fork") == 0) return run_fork();
  if (std::strcmp(mode, "devices") == 0) return run_devices();
  if (std::strcmp(mode, "reset") == 0) return run_reset();
  std::printf("usage: reliability_check null|smtarget|fork|devices|reset\n");
  return 2;
}
