// SPDX-License-Identifier: MIT
#include "dispatch/gpu_self_check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "core/names.h"
#include "dispatch/self_check.h"
#include "forward/real_call_scope.h"
#include "forward/real_cublas.h"

namespace bwgemm {
namespace {

// Runs the self-check cases on the GPU: device buffers with small integers
// (exact in every type), the family's kernel, and the real cuBLAS.
class GpuBackend {
 public:
  GpuBackend(const KernelFamily& family, const DeviceCaps& caps, ErrorFlag flag,
             const volatile uint32_t* host_flag)
      : family_(family), caps_(caps), flag_(flag), host_flag_(host_flag) {}

  // The index-pattern case's operands instead of the small integers.
  void use_index_pattern() { index_pattern_ = true; }

  ~GpuBackend() {
    if (handle_ != nullptr) real_cublas()->destroy(handle_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    for (void* p : allocations_) cudaFree(p);
  }

  bool init() {
    const RealCublas* real = real_cublas();
    if (real == nullptr || real->create == nullptr || real->destroy == nullptr ||
        real->set_stream == nullptr)
      return false;
    return cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) == cudaSuccess &&
           real->create(&handle_) == CUBLAS_STATUS_SUCCESS &&
           real->set_stream(handle_, stream_) == CUBLAS_STATUS_SUCCESS;
  }

  static bool takes(void* self, const SelfCheckCase& c, int config) {
    const GpuBackend& gpu = *static_cast<GpuBackend*>(self);
    return self_check_takes(gpu.family_, gpu.caps_, c, config);
  }
  static bool run_kernel(void* self, const SelfCheckCase& c, int config, float* out) {
    return static_cast<GpuBackend*>(self)->run(c, config, out);
  }
  static bool run_reference(void* self, const SelfCheckCase& c, float* out) {
    return static_cast<GpuBackend*>(self)->run(c, -1, out);
  }

 private:
  void* device_copy(const std::vector<uint16_t>& values) {
    void* p = nullptr;
    if (cudaMalloc(&p, values.size() * sizeof(uint16_t)) != cudaSuccess) return nullptr;
    allocations_.push_back(p);
    if (cudaMemcpy(p, values.data(), values.size() * sizeof(uint16_t), cudaMemcpyHostToDevice) !=
        cudaSuccess)
      return nullptr;
    return p;
  }

  static uint16_t encode(DType t, float v) {
    uint16_t bits;
    if (t == DType::F16) {
      const __half h = __float2half_rn(v);
      std::memcpy(&bits, &h, 2);
    } else {
      const __nv_bfloat16 b = __float2bfloat16_rn(v);
      std::memcpy(&bits, &b, 2);
    }
    return bits;
  }

  static float decode(DType t, const void* p, size_t i) {
    if (t == DType::F32) return static_cast<const float*>(p)[i];
    if (t == DType::F16) return __half2float(static_cast<const __half*>(p)[i]);
    return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
  }

  // Operand values in -2..2 from the position: exact in fp16 and bf16, and
  // every product sum (k <= 264) exact in fp32. Or the index pattern's.
  std::vector<uint16_t> operand(DType t, int64_t rows, int64_t cols, int64_t ld, int salt) {
    std::vector<uint16_t> v(size_t(ld * cols), encode(t, 0.0f));
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i)
        v[size_t(i + j * ld)] =
            encode(t, index_pattern_ ? (salt == 1 ? index_pattern_a(i, j) : index_pattern_b(i, j))
                                     : float(int((i * 7 + j * 13 + salt) % 5) - 2));
    return v;
  }

  // config: the family configuration to run, or -1 for the cuBLAS reference,
  // which gets the same fields through cuBLAS's own cublasGemmEx.
  bool run(const SelfCheckCase& c, int config, float* out) {
    GemmProblem p = self_check_problem(c, nullptr, nullptr, nullptr);
    p.a = device_copy(operand(c.ab, c.trans_a ? c.k : c.m, c.trans_a ? c.m : c.k, p.lda, 1));
    p.b = device_copy(operand(c.ab, c.trans_b ? c.n : c.k, c.trans_b ? c.k : c.n, p.ldb, 2));
    const size_t c_bytes = size_t(p.ldc * c.n) * dtype_size(c.out);
    if (p.a == nullptr || p.b == nullptr || cudaMalloc(&p.d, c_bytes) != cudaSuccess) return false;
    allocations_.push_back(p.d);
    p.c = p.d;
    p.stream = stream_;
    bool ok;
    if (config < 0) {
      const cudaDataType ab = p.ab_type == DType::F16 ? CUDA_R_16F : CUDA_R_16BF;
      const cudaDataType ct = p.c_type == DType::F32 ? CUDA_R_32F : ab;
      const RealCallScope inside;  // cuBLAS's own cuBLASLt calls pass through
      ok = real_cublas()->gemm_ex(handle_, p.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N,
                                  p.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, int(p.m), int(p.n),
                                  int(p.k), &p.alpha.value, p.a, ab, int(p.lda), p.b, ab,
                                  int(p.ldb), &p.beta.value, p.c, ct, int(p.ldc),
                                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS;
    } else {
      ok = family_.launch(p, caps_, config, flag_).status == LaunchStatus::kEnqueued;
    }
    std::vector<uint8_t> host(c_bytes);
    ok = ok && cudaStreamSynchronize(stream_) == cudaSuccess &&
         cudaMemcpy(host.data(), p.d, c_bytes, cudaMemcpyDeviceToHost) == cudaSuccess &&
         *host_flag_ == 0;
    for (int64_t j = 0; ok && j < c.n; ++j)
      for (int64_t i = 0; i < c.m; ++i)
        out[i + j * c.m] = decode(c.out, host.data(), i + j * p.ldc);
    return ok;
  }

  const KernelFamily& family_;
  DeviceCaps caps_;
  ErrorFlag flag_;
  const volatile uint32_t* host_flag_;  // flag_.word as the host reads it
  bool index_pattern_ = false;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t handle_ = nullptr;
  std::vector<void*> allocations_;
};

}  // namespace

bool gpu_self_check(const KernelFamily& family, const DeviceCaps& caps, ErrorFlag flag,
                    const volatile uint32_t* host_flag, std::string* failure) {
  {
    GpuBackend gpu(family, caps, flag, host_flag);
    *failure = "cannot set up a stream and a cuBLAS handle";
    if (!gpu.init() ||
        !run_self_check({&gpu, family.config_count, family.config_name, GpuBackend::takes,
                         GpuBackend::run_kernel, GpuBackend::run_reference},
                        failure))
      return false;
  }
  GpuBackend gpu(family, caps, flag, host_flag);
  gpu.use_index_pattern();
  *failure = "index pattern: cannot set up a stream and a cuBLAS handle";
  if (!gpu.init()) return false;
  const SelfCheckCase c = index_pattern_case();
  std::vector<float> out(size_t(c.m) * c.n);
  for (int config = 0; config < family.config_count; ++config) {
    if (!GpuBackend::takes(&gpu, c, config)) continue;  // (a decode configuration)
    const std::string on = std::string(family.config_name(config)) + ", ";
    if (!GpuBackend::run_kernel(&gpu, c, config, out.data())) {
      *failure = on + "index pattern: the kernel failed or reported a protocol failure";
      return false;
    }
    if (!check_index_pattern(out.data(), failure)) {
      *failure = on + *failure;
      return false;
    }
  }
  return true;
}

}  // namespace bwgemm
