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
};

double tolerance(DType out) { return out == DType::F32 ? 1e-4 : out == DType::F16 ? 4e-3 : 2e-2; }

}  // namespace

int self_check_case_count() { return int(sizeof kCases / sizeof kCases[0]); }
SelfCheckCase self_check_case(int i) { return kCases[i]; }

bool run_self_check(const SelfCheckBackend& backend, std::string* failure) {
  for (int i = 0; i < self_check_case_count(); ++i) {
    const SelfCheckCase& c = kCases[i];
    std::vector<float> ours(size_t(c.m) * c.n), reference(size_t(c.m) * c.n);
    char what[128];
    std::snprintf(what, sizeof what, "case %d (%dx%dx%d, op %c%c)", i, c.m, c.n, c.k,
                  c.trans_a ? 'T' : 'N', c.trans_b ? 'T' : 'N');
    if (!backend.run_kernel(backend.context, c, ours.data())) {
      *failure = std::string(what) + ": the kernel failed or reported a protocol failure";
      return false;
    }
    if (!backend.run_reference(backend.context, c, reference.data())) {
      *failure = std::string(what) + ": the cuBLAS reference could not run";
      return false;
    }
    // Relative to the largest reference magnitude, so that small entries
    // do not demand more precision than the output type has.
    double scale = 1e-30, worst = 0;
    for (float r : reference) scale = std::fmax(scale, std::fabs(r));
    for (size_t e = 0; e < ours.size(); ++e) {
      const double err = std::fabs(double(ours[e]) - double(reference[e]));
      worst = err > worst || std::isnan(err) ? err : worst;
    }
    if (!(worst / scale <= tolerance(c.out))) {
      char detail[96];
      std::snprintf(detail, sizeof detail, ": max error %.3g relative to %.3g", worst, scale);
      *failure = std::string(what) + detail;
      return false;
    }
  }
  return true;
}

}  // namespace bwgemm
