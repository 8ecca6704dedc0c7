// SPDX-License-Identifier: MIT
// Proof of the emulator against hardware: the sm90 kernel on a fixed matrix
// of integer-valued problems (exact whatever the summation order), run on
// the GPU through libbwgemm (policy FORCE_KERNEL, path checked) and on the
// virtual GPU through the same family launcher, must give C bit for bit
// identical, padding included.
//
//   emu_vs_gpu --mode gpu  --out gpu.bin     the real kernel (exit 77: no sm_90 GPU)
//   emu_vs_gpu --mode emu  --out emu.bin     the emulated kernel
//   emu_vs_gpu --mode both --out prefix      both, compared (prefix.gpu, prefix.emu)
//   options: --sm-count N (emu: virtual SMs; default the GPU's in mode both,
//            else 132), --list, --case I (only case I)
//
// Output: per case a text line "case I <description> bytes N fnv1a H", then
// the N bytes of C. Two runs agree when the files are identical (cmp).
// Every result is also checked against an fp64 reference.
#include <bwgemm/bwgemm.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "emu_runner.h"

using namespace bwgemm;
using namespace bwgemm::emu_test;

namespace {

std::vector<GemmCase> cases() {
  std::vector<GemmCase> out;
  const DType types[4][2] = {{DType::F16, DType::F16},
                             {DType::F16, DType::F32},
                             {DType::BF16, DType::BF16},
                             {DType::BF16, DType::F32}};
  const int64_t shapes[4][3] = {{512, 512, 256}, {301, 283, 100}, {1000, 777, 520}, {64, 1031, 33}};
  for (const auto& t : types) {
    for (int op = 0; op < 4; ++op) {
      for (const auto& s : shapes) {
        GemmCase c;
        c.ab = t[0];
        c.c = t[1];
        c.ta = op & 1;
        c.tb = op & 2;
        c.m = s[0];
        c.n = s[1];
        c.k = s[2];
        c.alpha = op == 1 ? 2.0f : 1.0f;
        c.beta = op == 2 ? -1.0f : op == 3 ? 0.5f : 0.0f;
        out.push_back(c);
      }
    }
  }
  GemmCase b;  // batches, broadcast, device scalars, degenerate
  b.m = 260;
  b.n = 300;
  b.k = 200;
  b.batch = 3;
  b.beta = 1.0f;
  out.push_back(b);
  b.broadcast_b = true;
  b.c = DType::F32;
  out.push_back(b);
  b.broadcast_b = false;
  b.device_scalars = true;
  b.alpha = 2.0f;
  b.beta = -2.0f;
  out.push_back(b);
  GemmCase e;
  e.m = 100;
  e.n = 70;
  e.k = 64;
  e.alpha = 0.0f;
  e.beta = 3.0f;
  out.push_back(e);
  e.alpha = 1.0f;
  e.k = 0;
  out.push_back(e);
  e.m = 1;
  e.n = 1;
  e.k = 1;
  out.push_back(e);
  return out;
}

uint64_t fnv1a(const std::vector<uint8_t>& bytes) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

cudaDataType cuda_type(DType t) {
  return t == DType::F32 ? CUDA_R_32F : t == DType::F16 ? CUDA_R_16F : CUDA_R_16BF;
}

#define GPU_OK(call)                                                         \
  do {                                                                       \
    if (!(call)) {                                                           \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call); \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

// Exit 77 (skipped) without a device the sm90 kernel runs on.
int gpu_sm_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIP: no GPU\n");
    std::exit(77);
  }
  cudaDeviceProp prop{};
  GPU_OK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  if (prop.major != 9 || prop.minor != 0) {
    std::printf("SKIP: %s is not an sm_90 GPU\n", prop.name);
    std::exit(77);
  }
  return prop.multiProcessorCount;
}

// The real kernel through libbwgemm: C after the call, or "" and an error.
bool run_gpu(const HostGemm& g, cublasHandle_t handle, std::vector<uint8_t>* c_out,
             std::string* error) {
  const GemmCase& c = g.c;
  void *a = nullptr, *b = nullptr, *cc = nullptr;
  float* scalars = nullptr;
  GPU_OK(cudaMalloc(&a, g.a.size() + 16) == cudaSuccess);
  GPU_OK(cudaMalloc(&b, g.b.size() + 16) == cudaSuccess);
  GPU_OK(cudaMalloc(&cc, g.c_bytes()) == cudaSuccess);
  GPU_OK(cudaMalloc(&scalars, 2 * sizeof(float)) == cudaSuccess);
  GPU_OK(cudaMemcpy(a, g.a.data(), g.a.size(), cudaMemcpyHostToDevice) == cudaSuccess);
  GPU_OK(cudaMemcpy(b, g.b.data(), g.b.size(), cudaMemcpyHostToDevice) == cudaSuccess);
  GPU_OK(cudaMemcpy(cc, g.c_initial.data(), g.c_bytes(), cudaMemcpyHostToDevice) == cudaSuccess);
  const float host_scalars[2] = {c.alpha, c.beta};
  GPU_OK(cudaMemcpy(scalars, host_scalars, sizeof host_scalars, cudaMemcpyHostToDevice) ==
         cudaSuccess);
  GPU_OK(cublasSetPointerMode_v2(
             handle, c.device_scalars ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST) ==
         CUBLAS_STATUS_SUCCESS);
  const void* alpha = c.device_scalars ? static_cast<const void*>(scalars) : &host_scalars[0];
  const void* beta = c.device_scalars ? static_cast<const void*>(scalars + 1) : &host_scalars[1];
  const cublasOperation_t ta = c.ta ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t tb = c.tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
  const cublasStatus_t st = bwgemmGemmStridedBatchedEx(
      handle, ta, tb, int(c.m), int(c.n), int(c.k), alpha, a, cuda_type(c.ab), int(g.lda),
      g.stride_a, b, cuda_type(c.ab), int(g.ldb), g.stride_b, beta, cc, cuda_type(c.c), int(g.ldc),
      g.stride_c, int(c.batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  GPU_OK(cudaDeviceSynchronize() == cudaSuccess);
  bwgemmDispatchInfo_t info{};
  info.size = sizeof info;
  bwgemmGetLastDispatch(&info);
  bool ok = true;
  if (st != CUBLAS_STATUS_SUCCESS) {
    *error = "bwgemmGemmStridedBatchedEx returned " + std::to_string(int(st));
    ok = false;
  } else if (info.path != BWGEMM_PATH_SM90) {
    *error = std::string("not run by the sm90 kernel: ") + info.reason_message;
    ok = false;
  }
  c_out->resize(g.c_bytes());
  GPU_OK(cudaMemcpy(c_out->data(), cc, g.c_bytes(), cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaFree(a);
  cudaFree(b);
  cudaFree(cc);
  cudaFree(scalars);
  return ok;
}

struct Output {
  FILE* f = nullptr;
  explicit Output(const std::string& path) : f(std::fopen(path.c_str(), "wb")) {
    if (f == nullptr) {
      std::perror(path.c_str());
      std::exit(1);
    }
  }
  ~Output() { std::fclose(f); }
  void write(size_t i, const GemmCase& c, const std::vector<uint8_t>& bytes) {
    std::fprintf(f, "case %zu %s bytes %zu fnv1a %016llx\n", i, describe(c).c_str(), bytes.size(),
                 static_cast<unsigned long long>(fnv1a(bytes)));
    std::fwrite(bytes.data(), 1, bytes.size(), f);
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::string mode, out;
  int sm_count = 0;
  long only = -1;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--mode" && i + 1 < argc) {
      mode = argv[++i];
    } else if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (a == "--sm-count" && i + 1 < argc) {
      sm_count = std::atoi(argv[++i]);
    } else if (a == "--case" && i + 1 < argc) {
      only = std::atol(argv[++i]);
    } else if (a == "--list") {
      list = true;
    } else {
      mode.clear();
      break;
    }
  }
  const std::vector<GemmCase> all = cases();
  if (list) {
    for (size_t i = 0; i < all.size(); ++i) std::printf("%zu %s\n", i, describe(all[i]).c_str());
    return 0;
  }
  if ((mode != "gpu" && mode != "emu" && mode != "both") || out.empty()) {
    std::fprintf(stderr,
                 "usage: %s --mode gpu|emu|both --out FILE [--sm-count N] [--case I] | --list\n",
                 argv[0]);
    return 2;
  }
  const bool gpu = mode != "emu", emu_mode = mode != "gpu";
  cublasHandle_t handle = nullptr;
  if (gpu) {
    const int device_sms = gpu_sm_count();
    if (sm_count == 0) sm_count = device_sms;
    GPU_OK(cublasCreate_v2(&handle) == CUBLAS_STATUS_SUCCESS);
  }
  if (sm_count == 0) sm_count = 132;  // H100 SXM / H200
  std::unique_ptr<Output> gpu_out, emu_out;
  if (gpu) gpu_out = std::make_unique<Output>(mode == "both" ? out + ".gpu" : out);
  if (emu_mode) emu_out = std::make_unique<Output>(mode == "both" ? out + ".emu" : out);

  int failures = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (only >= 0 && size_t(only) != i) continue;
    const HostGemm g(all[i], 1000 + i);
    std::vector<uint8_t> from_gpu, from_emu;
    std::string problems;
    if (gpu) {
      std::string error;
      if (!run_gpu(g, handle, &from_gpu, &error)) problems += " gpu: " + error + ";";
      const std::string bad = g.check(from_gpu.data());
      if (!bad.empty()) problems += " gpu result:\n" + bad;
      gpu_out->write(i, all[i], from_gpu);
    }
    if (emu_mode) {
      emu::Options o;
      o.sm_count = uint32_t(sm_count);
      const EmuOutcome r = run_sm90(g, o);
      from_emu = r.c;
      if (!r.launched) problems += " emulation: " + r.error;
      const std::string bad = g.check(from_emu.data());
      if (!bad.empty()) problems += " emulated result:\n" + bad;
      emu_out->write(i, all[i], from_emu);
    }
    const bool differ = gpu && emu_mode && from_gpu != from_emu;
    if (differ) problems += " the GPU and the emulation differ;";
    std::printf("%s case %zu %s\n", problems.empty() ? "ok  " : "FAIL", i,
                describe(all[i]).c_str());
    if (!problems.empty()) {
      std::printf("%s\n", problems.c_str());
      ++failures;
    }
  }
  if (handle != nullptr) cublasDestroy_v2(handle);
  std::printf("%s (%s, %d SMs)\n", failures == 0 ? "all cases passed" : "FAILURES", mode.c_str(),
              sm_count);
  return failures == 0 ? 0 : 1;
}
