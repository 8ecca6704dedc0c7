// SPDX-License-Identifier: MIT
#include "gemm_cases.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

#include "gpu_check.h"

namespace {

size_t elem_size(Elem e) { return e == Elem::F32 ? 4 : 2; }
cudaDataType cuda_type(Elem e) {
  return e == Elem::F16 ? CUDA_R_16F : e == Elem::BF16 ? CUDA_R_16BF : CUDA_R_32F;
}
const char* elem_name(Elem e) { return e == Elem::F16 ? "f16" : e == Elem::BF16 ? "bf16" : "f32"; }

// Half the spacing of the output type's subnormals: the absolute rounding
// error near zero.
double subnormal_half_spacing(Elem e) {
  return e == Elem::F16    ? std::ldexp(1.0, -25)
         : e == Elem::BF16 ? std::ldexp(1.0, -134)
                           : std::ldexp(1.0, -150);
}

// Unit roundoff of the output type.
double unit_roundoff(Elem e) {
  return e == Elem::F16    ? std::ldexp(1.0, -11)
         : e == Elem::BF16 ? std::ldexp(1.0, -8)
                           : std::ldexp(1.0, -24);
}

__host__ __device__ double load(Elem e, const void* p, int64_t i) {
  switch (e) {
    case Elem::F16: return double(__half2float(static_cast<const __half*>(p)[i]));
    case Elem::BF16: return double(__bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]));
    case Elem::F32: return double(static_cast<const float*>(p)[i]);
  }
  return 0;
}

__device__ void store(Elem e, void* p, int64_t i, float v) {
  switch (e) {
    case Elem::F16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case Elem::BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    case Elem::F32: static_cast<float*>(p)[i] = v; break;
  }
}

__host__ __device__ uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

// N(0, 1) by Box-Muller from a counter hash: the same values for a seed on
// every run and every device.
__device__ float gaussian(uint64_t seed, int64_t i) {
  const uint64_t h = mix(seed * 0x9e3779b97f4a7c15ull + uint64_t(i));
  const double u1 = (double((h >> 11) & 0xFFFFFull) + 1.0) / 1048577.0;
  const double u2 = double(h >> 44) / 1048576.0;
  return float(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

__global__ void fill_gaussian(Elem e, void* p, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    store(e, p, i, gaussian(seed, i));
}

// Gaussian values in the m x n part of each batch matrix of C only.
__global__ void fill_c(Elem e, void* p, int64_t m, int64_t n, int64_t ldc, int64_t stride,
                       int64_t batch, uint64_t seed) {
  const int64_t total = m * n * batch;
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; t < total;
       t += int64_t(gridDim.x) * blockDim.x) {
    const int64_t b = t / (m * n), r = t % (m * n), j = r / m, i = r % m;
    const int64_t at = b * stride + j * ldc + i;
    store(e, p, at, gaussian(seed, at));
  }
}

struct Dims {
  int64_t rows_a, cols_a, lda, stride_a, rows_b, cols_b, ldb, stride_b, ldc, stride_c;
  int64_t size_a, size_b, size_c;  // elements allocated
};

struct Failures {
  unsigned long long count;
  unsigned long long first;  // element index of the first failure found
};

Dims dims_of(const GemmCase& c) {
  Dims d;
  d.rows_a = c.ta ? c.k : c.m;
  d.cols_a = c.ta ? c.m : c.k;
  d.rows_b = c.tb ? c.n : c.k;
  d.cols_b = c.tb ? c.k : c.n;
  const auto ld = [&](int64_t rows, int64_t pad) {
    return (std::max<int64_t>(1, rows) + c.ld_align - 1) / c.ld_align * c.ld_align + pad;
  };
  d.lda = ld(d.rows_a, c.pad_a);
  d.ldb = ld(d.rows_b, c.pad_b);
  d.ldc = ld(c.m, c.pad_c);
  // Batch strides keep a gap of 8 elements between matrices, so a write past
  // one matrix lands in the poisoned gap.
  d.stride_a = c.broadcast_a ? 0 : d.lda * d.cols_a + 8;
  d.stride_b = c.broadcast_b ? 0 : d.ldb * d.cols_b + 8;
  d.stride_c = d.ldc * c.n + 8;
  d.size_a = (c.batch - 1) * d.stride_a + d.lda * d.cols_a;
  d.size_b = (c.batch - 1) * d.stride_b + d.ldb * d.cols_b;
  d.size_c = c.batch * d.stride_c;
  return d;
}

// NaN (all-ones bytes) in every 16-bit element of a column-major matrix's
// padding: rows `rows` .. ld - 1 of each column (batch gaps included).
__global__ void poison_padding(void* m, int64_t rows, int64_t ld, int64_t size) {
  auto* e = static_cast<uint16_t*>(m);
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; t < size;
       t += int64_t(gridDim.x) * blockDim.x)
    if (t % ld >= rows) e[t] = 0xFFFF;
}

__global__ void reference(GemmCase c, Dims d, const void* A, const void* B, const void* C0,
                          double* ref, double* bound) {
  const int64_t total = c.m * c.n * c.batch;
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; t < total;
       t += int64_t(gridDim.x) * blockDim.x) {
    const int64_t b = t / (c.m * c.n), r = t % (c.m * c.n), j = r / c.m, i = r % c.m;
    double sum = 0, abs_sum = 0;
    // alpha == 0: A and B hold NaN and must not matter.
    if (c.alpha != 0.0f) {
      for (int64_t kk = 0; kk < c.k; ++kk) {
        const double a = load(c.ab, A, b * d.stride_a + (c.ta ? kk + i * d.lda : i + kk * d.lda));
        const double bv = load(c.ab, B, b * d.stride_b + (c.tb ? j + kk * d.ldb : kk + j * d.ldb));
        sum += a * bv;
        abs_sum += fabs(a * bv);
      }
    }
    const double cv = c.beta != 0.0f ? load(c.c, C0, b * d.stride_c + j * d.ldc + i) : 0.0;
    ref[t] = double(c.alpha) * sum + double(c.beta) * cv;
    bound[t] = fabs(double(c.alpha)) * abs_sum + fabs(double(c.beta) * cv);
  }
}

__global__ void check(GemmCase c, Dims d, const void* C, const void* C0, const double* ref,
                      const double* bound, double u_out, double abs_out, Failures* out) {
  const size_t es = c.c == Elem::F32 ? 4 : 2;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < d.size_c;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t b = e / d.stride_c, w = e % d.stride_c, j = w / d.ldc, i = w % d.ldc;
    const bool inside = b < c.batch && j < c.n && i < c.m;
    bool bad;
    if (inside) {
      const int64_t t = (b * c.n + j) * c.m + i;
      const double v = load(c.c, C, e);
      // Output rounding (relative, or absolute among subnormals) plus fp32
      // accumulation over k products and the alpha/beta update.
      const double tol =
          u_out * fabs(ref[t]) + abs_out + double(c.k + 4) * ldexp(1.0, -22) * bound[t];
      bad = !(fabs(v - ref[t]) <= tol);  // NaN fails
    } else {
      bad = false;
      for (size_t byte = 0; byte < es; ++byte)
        bad |= static_cast<const char*>(C)[e * es + byte] !=
               static_cast<const char*>(C0)[e * es + byte];
    }
    if (bad) {
      atomicAdd(&out->count, 1ull);
      atomicMin(&out->first, static_cast<unsigned long long>(e));
    }
  }
}

constexpr int kBlocks = 1024, kThreads = 256;

}  // namespace

class CaseBuffers {
 public:
  // nan_unread_inputs: when alpha == 0, fill A and B with NaN (bwgemm's kernel
  // must not read them; cuBLAS does read them in device pointer mode and in
  // strided-batched calls, so forwarded and cuBLAS runs get gaussian inputs).
  CaseBuffers(const GemmCase& c, uint64_t seed, cudaStream_t stream, bool nan_unread_inputs)
      : c_(c),
        d_(dims_of(c)),
        a_(d_.size_a * elem_size(c.ab), c.offset * elem_size(c.ab)),
        b_(d_.size_b * elem_size(c.ab), c.offset * elem_size(c.ab)),
        c_out_(d_.size_c * elem_size(c.c), c.offset * elem_size(c.c)),
        c0_(d_.size_c * elem_size(c.c), c.offset * elem_size(c.c)),
        ref_(c.m * c.n * c.batch),
        bound_(c.m * c.n * c.batch),
        scalars_(2),
        failures_(1) {
    if (c.alpha == 0.0f && nan_unread_inputs) {
      CUDA_OK(cudaMemsetAsync(a_.ptr, 0xFF, a_.count, stream));
      CUDA_OK(cudaMemsetAsync(b_.ptr, 0xFF, b_.count, stream));
    } else {
      fill_gaussian<<<kBlocks, kThreads, 0, stream>>>(c.ab, a_.ptr, d_.size_a, seed * 3 + 1);
      fill_gaussian<<<kBlocks, kThreads, 0, stream>>>(c.ab, b_.ptr, d_.size_b, seed * 3 + 2);
    }
    if (c.nan_padding) {
      poison_padding<<<kBlocks, kThreads, 0, stream>>>(a_.ptr, d_.rows_a, d_.lda, d_.size_a);
      poison_padding<<<kBlocks, kThreads, 0, stream>>>(b_.ptr, d_.rows_b, d_.ldb, d_.size_b);
    }
    // All-ones bytes are NaN in every output type.
    CUDA_OK(cudaMemsetAsync(c0_.ptr, 0xFF, c0_.count, stream));
    if (c.beta != 0.0f)
      fill_c<<<kBlocks, kThreads, 0, stream>>>(c.c, c0_.ptr, c.m, c.n, d_.ldc, d_.stride_c, c.batch,
                                               seed * 3 + 3);
    reference<<<kBlocks, kThreads, 0, stream>>>(c, d_, a_.ptr, b_.ptr, c0_.ptr, ref_.ptr,
                                                bound_.ptr);
    const float s[2] = {c.alpha, c.beta};
    CUDA_OK(cudaMemcpyAsync(scalars_.ptr, s, sizeof s, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaGetLastError());
    reset_output(stream);
  }

  void reset_output(cudaStream_t stream) {
    CUDA_OK(cudaMemcpyAsync(c_out_.ptr, c0_.ptr, c0_.count, cudaMemcpyDeviceToDevice, stream));
  }

  cublasStatus_t run(Runner runner, cublasHandle_t handle) {
    const bool on_device = c_.device_scalars;
    CUBLAS_OK(cublasSetPointerMode_v2(
        handle, on_device ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST));
    const float* alpha = on_device ? scalars_.ptr : &c_.alpha;
    const float* beta = on_device ? scalars_.ptr + 1 : &c_.beta;
    const cublasOperation_t ta = c_.ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t tb = c_.tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    if (runner == Runner::RealCublas)
      return RealCublas::get().gemm_strided_batched_ex_64(
          handle, ta, tb, c_.m, c_.n, c_.k, alpha, a_.ptr, cuda_type(c_.ab), d_.lda, d_.stride_a,
          b_.ptr, cuda_type(c_.ab), d_.ldb, d_.stride_b, beta, c_out_.ptr, cuda_type(c_.c), d_.ldc,
          d_.stride_c, c_.batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL);
    if (c_.batch == 1)
      return bwgemmGemmEx(handle, ta, tb, int(c_.m), int(c_.n), int(c_.k), alpha, a_.ptr,
                          cuda_type(c_.ab), int(d_.lda), b_.ptr, cuda_type(c_.ab), int(d_.ldb),
                          beta, c_out_.ptr, cuda_type(c_.c), int(d_.ldc), CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    return bwgemmGemmStridedBatchedEx(handle, ta, tb, int(c_.m), int(c_.n), int(c_.k), alpha,
                                      a_.ptr, cuda_type(c_.ab), int(d_.lda), d_.stride_a, b_.ptr,
                                      cuda_type(c_.ab), int(d_.ldb), d_.stride_b, beta, c_out_.ptr,
                                      cuda_type(c_.c), int(d_.ldc), d_.stride_c, int(c_.batch),
                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  }

  // Failing elements of the output, and the first one's description.
  Failures check(cudaStream_t stream) {
    const Failures init{0, ~0ull};
    CUDA_OK(cudaMemcpyAsync(failures_.ptr, &init, sizeof init, cudaMemcpyHostToDevice, stream));
    ::check<<<kBlocks, kThreads, 0, stream>>>(c_, d_, c_out_.ptr, c0_.ptr, ref_.ptr, bound_.ptr,
                                              unit_roundoff(c_.c), subnormal_half_spacing(c_.c),
                                              failures_.ptr);
    CUDA_OK(cudaGetLastError());
    Failures f;
    CUDA_OK(cudaMemcpyAsync(&f, failures_.ptr, sizeof f, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    return f;
  }

  std::string describe_element(unsigned long long e) {
    const int64_t b = e / d_.stride_c, w = e % d_.stride_c, j = w / d_.ldc, i = w % d_.ldc;
    const bool inside = b < c_.batch && j < c_.n && i < c_.m;
    std::vector<char> v(elem_size(c_.c));
    CUDA_OK(cudaMemcpy(v.data(),
                       static_cast<char*>(static_cast<void*>(c_out_.ptr)) + e * elem_size(c_.c),
                       v.size(), cudaMemcpyDeviceToHost));
    std::ostringstream s;
    s << "element batch " << b << " (" << i << ", " << j << ") "
      << (inside ? "inside" : "outside m x n") << ": got " << load(c_.c, v.data(), 0);
    if (inside) {
      double r;
      const int64_t t = (b * c_.n + j) * c_.m + i;
      CUDA_OK(cudaMemcpy(&r, ref_.ptr + t, sizeof r, cudaMemcpyDeviceToHost));
      s << ", reference " << r;
    }
    return s.str();
  }

  std::string fetch_output() {
    std::string bytes(c_out_.count, '\0');
    CUDA_OK(cudaMemcpy(bytes.data(), c_out_.ptr, bytes.size(), cudaMemcpyDeviceToHost));
    return bytes;
  }

  bool spot_check(uint64_t seed, std::string* detail) {
    std::vector<char> a(a_.count), b(b_.count), c0(c0_.count);
    CUDA_OK(cudaMemcpy(a.data(), a_.ptr, a.size(), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(b.data(), b_.ptr, b.size(), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(c0.data(), c0_.ptr, c0.size(), cudaMemcpyDeviceToHost));
    for (int probe = 0; probe < 8; ++probe) {
      const uint64_t h = mix(seed + probe);
      const int64_t bi = h % c_.batch, i = (h >> 16) % c_.m, j = (h >> 40) % c_.n;
      double sum = 0;
      if (c_.alpha != 0.0f)
        for (int64_t kk = 0; kk < c_.k; ++kk)
          sum +=
              load(c_.ab, a.data(),
                   bi * d_.stride_a + (c_.ta ? kk + i * d_.lda : i + kk * d_.lda)) *
              load(c_.ab, b.data(), bi * d_.stride_b + (c_.tb ? j + kk * d_.ldb : kk + j * d_.ldb));
      const double cv =
          c_.beta != 0.0f ? load(c_.c, c0.data(), bi * d_.stride_c + j * d_.ldc + i) : 0.0;
      const double host = double(c_.alpha) * sum + double(c_.beta) * cv;
      double device;
      CUDA_OK(cudaMemcpy(&device, ref_.ptr + (bi * c_.n + j) * c_.m + i, sizeof device,
                         cudaMemcpyDeviceToHost));
      if (!(std::fabs(host - device) <= 1e-9 * (1.0 + std::fabs(host)))) {
        std::ostringstream s;
        s << "device reference " << device << " != host fp64 " << host << " at (" << i << ", " << j
          << ")";
        *detail = s.str();
        return false;
      }
    }
    return true;
  }

 private:
  GemmCase c_;
  Dims d_;
  DeviceBuffer<uint8_t> a_, b_, c_out_, c0_;
  DeviceBuffer<double> ref_, bound_;
  DeviceBuffer<float> scalars_;
  DeviceBuffer<Failures> failures_;
};

std::string describe(const GemmCase& c) {
  std::ostringstream s;
  s << elem_name(c.ab) << "->" << elem_name(c.c) << " " << (c.ta ? 'T' : 'N') << (c.tb ? 'T' : 'N')
    << " m=" << c.m << " n=" << c.n << " k=" << c.k << " alpha=" << c.alpha << " beta=" << c.beta
    << (c.device_scalars ? " device-scalars" : " host-scalars")
    << (c.ld_align == 1 ? " unaligned-ld" : "") << (c.offset ? " offset=" : "")
    << (c.offset ? std::to_string(c.offset) : "") << " pad=" << c.pad_a << "/" << c.pad_b << "/"
    << c.pad_c << " batch=" << c.batch << (c.broadcast_a ? " strideA=0" : "")
    << (c.broadcast_b ? " strideB=0" : "");
  return s.str();
}

namespace {

// `elems` elements of type e are a whole number of 16-byte units.
bool aligned16(int64_t elems, Elem e) { return elems * int64_t(elem_size(e)) % 16 == 0; }

}  // namespace

bool needs_pack(const GemmCase& c) {
  const Dims d = dims_of(c);
  // TMA addresses A and B as they are: base, leading dimension, batch stride.
  const auto tma = [&](int64_t ld, int64_t stride) {
    return aligned16(c.offset, c.ab) && aligned16(ld, c.ab) &&
           (c.batch == 1 || aligned16(stride, c.ab));
  };
  return c.k > 0 && !(tma(d.lda, d.stride_a) && tma(d.ldb, d.stride_b));
}

bool may_read_b_by_class(const GemmCase& c) {
  const Dims d = dims_of(c);
  return c.k > 0 && !c.ta && !c.tb && c.batch == 1 && aligned16(c.offset, c.c) &&
         aligned16(d.ldc, c.c) && !(aligned16(c.offset, c.ab) && aligned16(d.ldb, c.ab));
}

bool may_read_b_by_windows(const GemmCase& c) {
  const Dims d = dims_of(c);
  return c.k >= 8 && c.tb && c.batch == 1 && aligned16(c.offset, c.ab) && aligned16(d.lda, c.ab) &&
         !aligned16(d.ldb, c.ab);
}

bool kernel_takes(const GemmCase& c) {
  // A or B to pack must be read: not with alpha == 0 on the host.
  return !needs_pack(c) || c.device_scalars || c.alpha != 0.0f;
}

namespace {

struct HandleOnStream {
  cublasHandle_t handle;
  explicit HandleOnStream(cudaStream_t stream) {
    CUBLAS_OK(cublasCreate_v2(&handle));
    CUBLAS_OK(cublasSetStream_v2(handle, stream));
  }
  ~HandleOnStream() { cublasDestroy_v2(handle); }
};

}  // namespace

CaseResult run_and_check(const GemmCase& c, Runner runner, uint64_t seed, cudaStream_t stream) {
  thread_local HandleOnStream* handle = nullptr;
  thread_local cudaStream_t handle_stream = nullptr;
  if (handle == nullptr || handle_stream != stream) {
    delete handle;
    handle = new HandleOnStream(stream);
    handle_stream = stream;
  }
  CaseBuffers buffers(c, seed, stream, runner == Runner::BwgemmForced && kernel_takes(c));
  CaseResult result{true, BWGEMM_PATH_NONE, ""};
  const cublasStatus_t st = buffers.run(runner, handle->handle);
  if (st != CUBLAS_STATUS_SUCCESS) return {false, BWGEMM_PATH_NONE, "status " + std::to_string(st)};
  if (runner == Runner::BwgemmForced) {
    bwgemmDispatchInfo_t info{};
    info.size = sizeof info;
    bwgemmGetLastDispatch(&info);
    result.path = info.path;
    result.kernel = info.kernel;
    const bwgemmPath_t expected = kernel_takes(c) ? BWGEMM_PATH_SM90 : BWGEMM_PATH_CUBLAS;
    const bool either = !kernel_takes(c) && (may_read_b_by_class(c) || may_read_b_by_windows(c)) &&
                        (info.path == BWGEMM_PATH_SM90 || info.path == BWGEMM_PATH_CUBLAS);
    if (info.path != expected && !either) {
      result.ok = false;
      result.detail = std::string("took path ") + std::to_string(info.path) + " (" +
                      info.reason_name + "), expected " + std::to_string(expected) + "; ";
    }
  }
  CUDA_OK(cudaGetLastError());
  if (result.path == BWGEMM_PATH_CUBLAS) {
    // Forwarded: the contract is cuBLAS's own result, bit for bit (cuBLAS may
    // reduce split-K partial sums in the output type, beyond the fp32
    // accumulation tolerance below).
    CUDA_OK(cudaStreamSynchronize(stream));
    const std::string forwarded = buffers.fetch_output();
    buffers.reset_output(stream);
    CUBLAS_OK(buffers.run(Runner::RealCublas, handle->handle));
    CUDA_OK(cudaStreamSynchronize(stream));
    if (buffers.fetch_output() != forwarded) {
      result.ok = false;
      result.detail += "forwarded result differs from the real cuBLAS's";
    }
    return result;
  }
  const Failures f = buffers.check(stream);
  if (f.count != 0) {
    result.ok = false;
    result.detail +=
        std::to_string(f.count) + " bad elements, first: " + buffers.describe_element(f.first);
  }
  return result;
}

std::string run_and_fetch(const GemmCase& c, uint64_t seed, cudaStream_t stream,
                          cublasHandle_t handle, Runner runner) {
  CaseBuffers buffers(c, seed, stream, runner == Runner::BwgemmForced && kernel_takes(c));
  CUBLAS_OK(buffers.run(runner, handle));
  CUDA_OK(cudaStreamSynchronize(stream));
  return buffers.fetch_output();
}

bool spot_check_reference(const GemmCase& c, uint64_t seed, std::string* detail) {
  CaseBuffers buffers(c, seed, nullptr, false);
  CUDA_OK(cudaDeviceSynchronize());
  return buffers.spot_check(seed, detail);
}

std::string run_in_graph_and_fetch(const GemmCase& c, uint64_t seed, int replays) {
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasHandle_t handle;
  CUBLAS_OK(cublasCreate_v2(&handle));
  CUBLAS_OK(cublasSetStream_v2(handle, stream));
  std::string out;
  {
    CaseBuffers buffers(c, seed, stream, kernel_takes(c));
    // One eager call first, as cuBLAS asks of a handle before a capture (a
    // forwarded call on a fresh handle may set up cuBLAS's workspace).
    CUBLAS_OK(buffers.run(Runner::BwgemmForced, handle));
    CUDA_OK(cudaStreamSynchronize(stream));
    buffers.reset_output(stream);
    // Capture the GEMM alone; the output is reset before each replay so
    // beta * C reads the original C every time.
    cudaGraph_t graph;
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    const cublasStatus_t st = buffers.run(Runner::BwgemmForced, handle);
    CUDA_OK(cudaStreamEndCapture(stream, &graph));
    CUBLAS_OK(st);
    cudaGraphExec_t exec;
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < replays; ++r) {
      buffers.reset_output(stream);
      CUDA_OK(cudaGraphLaunch(exec, stream));
    }
    CUDA_OK(cudaStreamSynchronize(stream));
    out = buffers.fetch_output();
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
  }
  cublasDestroy_v2(handle);
  CUDA_OK(cudaStreamDestroy(stream));
  return out;
}
