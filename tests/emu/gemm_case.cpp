// SPDX-License-Identifier: MIT
#include "gemm_case.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace bwgemm::emu_test {
namespace {

size_t elem(DType t) { return dtype_size(t); }

// Rounds to `t` and stores at p.
void store(DType t, uint8_t* p, double v) {
  if (t == DType::F32) {
    const float f = float(v);
    std::memcpy(p, &f, 4);
  } else if (t == DType::F16) {
    const __half h = __double2half(v);
    std::memcpy(p, &h, 2);
  } else {
    const __nv_bfloat16 h = __double2bfloat16(v);
    std::memcpy(p, &h, 2);
  }
}

double load(DType t, const uint8_t* p) {
  if (t == DType::F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (t == DType::F16) {
    __half h;
    std::memcpy(&h, p, 2);
    return __half2float(h);
  }
  __nv_bfloat16 h;
  std::memcpy(&h, p, 2);
  return __bfloat162float(h);
}

// The result the kernel must produce for an exact value v: v rounded once
// to the output type (fp32 arithmetic is exact on the integer cases).
double rounded(DType t, double v) {
  uint8_t tmp[4];
  store(t, tmp, v);
  return load(t, tmp);
}

const char* name(DType t) { return t == DType::F32 ? "f32" : t == DType::F16 ? "f16" : "bf16"; }

double unit_roundoff(DType t) {
  return t == DType::F32   ? std::ldexp(1.0, -24)
         : t == DType::F16 ? std::ldexp(1.0, -11)
                           : std::ldexp(1.0, -8);
}

int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

const char* activation_name(Activation a) {
  return a == Activation::Relu ? " relu" : a == Activation::Gelu ? " gelu" : "";
}

// cuBLASLt's GELU (tanh form), in double.
double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

}  // namespace

std::string describe(const GemmCase& c) {
  char buf[320];
  std::snprintf(
      buf, sizeof buf,
      "%s->%s %c%c m=%lld n=%lld k=%lld batch=%lld%s alpha=%g beta=%g%s %s%lld "
      "offset=%lld %s%s%s%s%s%s",
      name(c.ab), name(c.c), c.ta ? 'T' : 'N', c.tb ? 'T' : 'N', static_cast<long long>(c.m),
      static_cast<long long>(c.n), static_cast<long long>(c.k), static_cast<long long>(c.batch),
      c.broadcast_b ? " (B broadcast)" : "", double(c.alpha), double(c.beta),
      c.device_scalars ? " (device scalars)" : "",
      c.minimal_ld ? "ld=min" : "pad=", static_cast<long long>(c.minimal_ld ? 0 : c.pad),
      static_cast<long long>(c.offset), c.integers ? "integers" : "gaussian",
      c.bias ? " bias-" : "", c.bias ? name(c.bias_type) : "", activation_name(c.activation),
      c.out_of_place ? " out-of-place" : "", c.workspace_bytes > 0 ? " workspace" : "");
  return buf;
}

HostGemm::HostGemm(const GemmCase& gc, uint64_t seed) : c(gc) {
  const int64_t a_rows = c.ta ? c.k : c.m, a_cols = c.ta ? c.m : c.k;
  const int64_t b_rows = c.tb ? c.n : c.k, b_cols = c.tb ? c.k : c.n;
  const auto ld_of = [&](int64_t rows) {
    return c.minimal_ld ? std::max<int64_t>(rows, 1) : round_up(rows, 8) + c.pad;
  };
  lda = ld_of(a_rows);
  ldb = ld_of(b_rows);
  ldc = ld_of(c.m);
  stride_a = lda * a_cols;
  stride_b = c.broadcast_b ? 0 : ldb * b_cols;
  stride_c = ldc * c.n;
  const int64_t b_planes = c.broadcast_b ? 1 : c.batch;
  a.resize(size_t(c.offset + stride_a * c.batch) * elem(c.ab));
  b.resize(size_t(c.offset + ldb * b_cols * b_planes) * elem(c.ab));
  c_initial.resize(size_t(c.offset + stride_c * c.batch) * elem(c.c));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> small(-3, 3);
  std::normal_distribution<double> normal(0.0, 1.0);
  auto value = [&] { return c.integers ? double(small(rng)) : normal(rng); };
  for (size_t i = 0; i < a.size() / elem(c.ab); ++i) store(c.ab, &a[i * elem(c.ab)], value());
  for (size_t i = 0; i < b.size() / elem(c.ab); ++i) store(c.ab, &b[i * elem(c.ab)], value());
  // C: data inside m x n (NaN when beta == 0: the kernel must not read it),
  // a sentinel in the padding rows and before the matrix, which nobody may
  // write.
  for (int64_t i = 0; i < c.offset; ++i) store(c.c, &c_initial[size_t(i) * elem(c.c)], -7777.0);
  for (int64_t bt = 0; bt < c.batch; ++bt)
    for (int64_t j = 0; j < c.n; ++j)
      for (int64_t i = 0; i < ldc; ++i)
        store(c.c, &c_initial[size_t(c.offset + bt * stride_c + j * ldc + i) * elem(c.c)],
              i >= c.m         ? -7777.0
              : c.beta == 0.0f ? std::nan("")
                               : value());
  if (c.bias) {
    bias.resize(size_t(c.m * c.batch) * elem(c.bias_type));
    for (size_t i = 0; i < bias.size() / elem(c.bias_type); ++i)
      store(c.bias_type, &bias[i * elem(c.bias_type)], double(small(rng)));
  }
  d_initial = c_initial;
  if (c.out_of_place)
    for (int64_t bt = 0; bt < c.batch; ++bt)
      for (int64_t j = 0; j < c.n; ++j)
        for (int64_t i = 0; i < c.m; ++i)
          store(c.c, &d_initial[size_t(c.offset + bt * stride_c + j * ldc + i) * elem(c.c)],
                std::nan(""));
}

GemmProblem HostGemm::problem(const void* a_ptr, const void* b_ptr, void* d_ptr,
                              const float* alpha_ptr, const float* beta_ptr, const void* c_ptr,
                              const void* bias_ptr) const {
  GemmProblem p{};
  p.ab_type = c.ab;
  p.c_type = c.c;
  p.trans_a = c.ta;
  p.trans_b = c.tb;
  p.m = c.m;
  p.n = c.n;
  p.k = c.k;
  p.a = static_cast<const uint8_t*>(a_ptr) + c.offset * int64_t(elem(c.ab));
  p.b = static_cast<const uint8_t*>(b_ptr) + c.offset * int64_t(elem(c.ab));
  p.d = static_cast<uint8_t*>(d_ptr) + c.offset * int64_t(elem(c.c));
  p.c = c.out_of_place ? const_cast<uint8_t*>(static_cast<const uint8_t*>(c_ptr)) +
                             c.offset * int64_t(elem(c.c))
                       : p.d;
  p.lda = lda;
  p.ldb = ldb;
  p.ldc = p.ldd = ldc;
  p.stride_a = stride_a;
  p.stride_b = stride_b;
  p.stride_c = p.stride_d = stride_c;
  p.batch = c.batch;
  p.alpha = {c.device_scalars, c.alpha, alpha_ptr};
  p.beta = {c.device_scalars, c.beta, beta_ptr};
  p.stream = nullptr;
  if (c.bias) {
    p.epilogue.bias = bias_ptr;
    p.epilogue.bias_type = c.bias_type;
    p.epilogue.bias_stride = c.m;
  }
  p.epilogue.activation = c.activation;
  return p;
}

std::string HostGemm::check(const uint8_t* out) const {
  const size_t ea = elem(c.ab), ec = elem(c.c);
  std::string report;
  int bad = 0;
  auto fail = [&](const char* what, int64_t bt, int64_t i, int64_t j, double got, double want) {
    if (++bad > 8) return;
    char buf[200];
    std::snprintf(buf, sizeof buf, "  %s batch %lld C(%lld, %lld): got %.9g, want %.9g\n", what,
                  static_cast<long long>(bt), static_cast<long long>(i), static_cast<long long>(j),
                  got, want);
    report += buf;
  };
  std::vector<double> x(size_t(c.m * c.k)), y(size_t(c.n * c.k));  // op(A) rows, op(B) columns
  if (std::memcmp(out, c_initial.data(), size_t(c.offset) * ec) != 0)
    fail("written before C:", 0, -1, -1, load(c.c, out), load(c.c, c_initial.data()));
  for (int64_t bt = 0; bt < c.batch; ++bt) {
    const uint8_t* ab = a.data() + size_t(c.offset + bt * stride_a) * ea;
    const uint8_t* bb = b.data() + size_t(c.offset + bt * stride_b) * ea;
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t l = 0; l < c.k; ++l)
        x[size_t(i * c.k + l)] = load(c.ab, ab + size_t(c.ta ? i * lda + l : l * lda + i) * ea);
    for (int64_t j = 0; j < c.n; ++j)
      for (int64_t l = 0; l < c.k; ++l)
        y[size_t(j * c.k + l)] = load(c.ab, bb + size_t(c.tb ? l * ldb + j : j * ldb + l) * ea);
    for (int64_t j = 0; j < c.n; ++j) {
      for (int64_t i = 0; i < ldc; ++i) {
        const size_t at = size_t(c.offset + bt * stride_c + j * ldc + i) * ec;
        if (i >= c.m) {
          if (std::memcmp(out + at, &c_initial[at], ec) != 0) {
            fail("padding overwritten:", bt, i, j, load(c.c, out + at), load(c.c, &c_initial[at]));
          }
          continue;
        }
        double sum = 0.0, magnitude = 0.0;
        const double* xi = &x[size_t(i * c.k)];
        const double* yj = &y[size_t(j * c.k)];
        for (int64_t l = 0; l < c.k; ++l) {
          sum += xi[l] * yj[l];
          magnitude += std::fabs(xi[l] * yj[l]);
        }
        // beta == 0: C holds NaN, which must not reach the result.
        const double old = c.beta != 0.0f ? load(c.c, &c_initial[at]) : 0.0;
        double want = double(c.alpha) * sum + double(c.beta) * old;
        if (c.bias) want += load(c.bias_type, &bias[size_t(bt * c.m + i) * elem(c.bias_type)]);
        if (c.activation == Activation::Relu) want = want > 0.0 ? want : 0.0;
        const double got = load(c.c, out + at);
        if (c.activation == Activation::Gelu) {
          // tanhf against tanh: a few fp32 ulps before the output rounding.
          const double g = gelu(want);
          const double tol = std::fabs(g) * (2 * unit_roundoff(c.c) + 1e-5) + 1e-6;
          if (!(std::fabs(got - g) <= tol)) fail("", bt, i, j, got, g);
        } else if (c.integers) {
          if (!(got == rounded(c.c, want))) fail("", bt, i, j, got, rounded(c.c, want));
        } else {
          const double scale =
              std::fabs(double(c.alpha)) * magnitude + std::fabs(double(c.beta) * old);
          const double tol =
              scale * (double(c.k + 2) * std::ldexp(1.0, -23) + unit_roundoff(c.c)) + 1e-30;
          if (!(std::fabs(got - want) <= tol)) fail("", bt, i, j, got, want);
        }
      }
    }
  }
  if (bad > 8) report += "  ... " + std::to_string(bad - 8) + " more\n";
  return report;
}

}  // namespace bwgemm::emu_test
