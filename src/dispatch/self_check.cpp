// SPDX-License-Identifier: MIT
#include "dispatch/self_check.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace bwgemm {
namespace {

const SelfCheckCase kCases[] = {
    // Every op combination in both input types; sizes cut tiles on every edge
    // and give the persistent CTAs more than one tile.
    {DType::F16, DType::F16, false, false, 300, 520, 200},
    {DType::F16, DType::F16, true, false, 257, 300, 136},
    {DType::F16, DType::F32, false, true, 520, 129, 72},
    {DType::F16, DType::F32, true, true, 136, 264, 264},
    {DType::BF16, DType::BF16, false, false, 264, 300, 200},
    {DType::BF16, DType::BF16, true, false, 300, 257, 64},
    {DType::BF16, DType::F32, false, true, 129, 520, 136},
    {DType::BF16, DType::F32, true, true, 520, 264, 8},
    // Decode: 7 and 16 tokens through a weight of 300 and 136 rows, K of
    // 5 and 4 blocks (split unevenly and evenly over a pair).
    {DType::F16, DType::F16, true, false, 300, 7, 264},
    {DType::BF16, DType::F32, true, false, 136, 16, 200},
};

double tolerance(DType out) { return out == DType::F32 ? 1e-4 : out == DType::F16 ? 4e-3 : 2e-2; }

}  // namespace

int self_check_case_count() { return int(sizeof kCases / sizeof kCases[0]); }
SelfCheckCase self_check_case(int i) { return kCases[i]; }

GemmProblem self_check_problem(const SelfCheckCase& c, const void* a, const void* b, void* d) {
  const auto round_up8 = [](int64_t v) { return (v + 7) / 8 * 8; };
  GemmProblem p{};
  p.ab_type = c.ab;
  p.c_type = c.out;
  p.trans_a = c.trans_a;
  p.trans_b = c.trans_b;
  p.m = c.m;
  p.n = c.n;
  p.k = c.k;
  p.a = a;
  p.b = b;
  p.c = p.d = d;
  p.lda = round_up8(c.trans_a ? c.k : c.m);
  p.ldb = round_up8(c.trans_b ? c.n : c.k);
  p.ldc = p.ldd = round_up8(c.m);
  p.batch = 1;
  p.alpha = {false, 1.0f, nullptr};
  p.beta = {false, 0.0f, nullptr};
  return p;
}

bool self_check_takes(const KernelFamily& family, const DeviceCaps& caps, const SelfCheckCase& c,
                      int config) {
  void* const aligned = reinterpret_cast<void*>(uintptr_t{256});
  return family.config_takes(self_check_problem(c, aligned, aligned, aligned), caps, config);
}

bool run_self_check(const SelfCheckBackend& backend, std::string* failure) {
  std::vector<int> ran(size_t(backend.configs), 0);
  for (int i = 0; i < self_check_case_count(); ++i) {
    const SelfCheckCase& c = kCases[i];
    std::vector<float> ours(size_t(c.m) * c.n), reference(size_t(c.m) * c.n);
    char what[128];
    std::snprintf(what, sizeof what, "case %d (%dx%dx%d, op %c%c)", i, c.m, c.n, c.k,
                  c.trans_a ? 'T' : 'N', c.trans_b ? 'T' : 'N');
    if (!backend.run_reference(backend.context, c, reference.data())) {
      *failure = std::string(what) + ": the cuBLAS reference could not run";
      return false;
    }
    // Relative to the largest reference magnitude, so that small entries
    // do not demand more precision than the output type has.
    double scale = 1e-30;
    for (float r : reference) scale = std::fmax(scale, std::fabs(r));
    for (int config = 0; config < backend.configs; ++config) {
      if (!backend.takes(backend.context, c, config)) continue;
      ++ran[size_t(config)];
      const std::string where = std::string(what) + " on " + backend.config_name(config);
      if (!backend.run_kernel(backend.context, c, config, ours.data())) {
        *failure = where + ": the kernel failed or reported a protocol failure";
        return false;
      }
      double worst = 0;
      for (size_t e = 0; e < ours.size(); ++e) {
        const double err = std::fabs(double(ours[e]) - double(reference[e]));
        worst = err > worst || std::isnan(err) ? err : worst;
      }
      if (!(worst / scale <= tolerance(c.out))) {
        char detail[96];
        std::snprintf(detail, sizeof detail, ": max error %.3g relative to %.3g", worst, scale);
        *failure = where + detail;
        return false;
      }
    }
  }
  for (int config = 0; config < backend.configs; ++config) {
    if (ran[size_t(config)] == 0) {
      *failure = std::string(backend.config_name(config)) + " takes none of the cases: unchecked";
      return false;
    }
  }
  return true;
}

// 600 x 520 cuts the 256 x 256 (sm100) and 128 x 256 (sm90) tiles on both
// edges; rows and columns below 2048 keep every value exact in fp16 and fp32.
SelfCheckCase index_pattern_case() { return {DType::F16, DType::F32, false, false, 600, 520, 64}; }

float index_pattern_a(int64_t i, int64_t kk) {
  return kk == 0 ? float(i) : kk == 1 ? 2048.0f : 0.0f;
}

float index_pattern_b(int64_t kk, int64_t j) { return kk == 0 ? 1.0f : kk == 1 ? float(j) : 0.0f; }

bool check_index_pattern(const float* out, std::string* failure) {
  const SelfCheckCase c = index_pattern_case();
  for (int j = 0; j < c.n; ++j) {
    for (int i = 0; i < c.m; ++i) {
      const float got = out[i + int64_t(j) * c.m];
      if (got == float(i + 2048 * j)) continue;
      char what[192];
      const double v = got;
      if (v >= 0 && v < 2048.0 * 2048.0 && v == std::floor(v)) {
        const int64_t from_row = int64_t(v) % 2048, from_col = int64_t(v) / 2048;
        std::snprintf(what, sizeof what,
                      "index pattern: element (%d, %d) holds the value of element (%lld, %lld): "
                      "a tile or fragment out of place",
                      i, j, static_cast<long long>(from_row), static_cast<long long>(from_col));
      } else {
        std::snprintf(what, sizeof what, "index pattern: element (%d, %d) is %g, not %d", i, j, v,
                      i + 2048 * j);
      }
      *failure = what;
      return false;
    }
  }
  return true;
}

}  // namespace bwgemm
