// SPDX-License-Identifier: MIT
// src/dispatch/self_check.cpp: the self-check's decision over pluggable
// kernel and reference runs, and the cases it covers.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dispatch/self_check.h"
#include "support/cmocka_cxx.h"

using namespace bwgemm;

namespace {

// A fake backend of two configurations: the reference is an exact product of
// small integers; the "kernel" is the reference, with a chosen fault in
// configuration `faulty`.
struct Fake {
  enum Fault { kNone, kSmallError, kLargeError, kNaN, kKernelFails, kReferenceFails } fault;
  int faulty = 0;
  int runs = 0;
  // Configuration 1 takes only the cases with fewer than this many columns.
  int narrow = 1 << 30;
};

constexpr int kConfigs = 2;

const char* config_name(int config) { return config == 0 ? "cfg_zero" : "cfg_one"; }

void reference_values(const SelfCheckCase& c, float* out) {
  for (int j = 0; j < c.n; ++j)
    for (int i = 0; i < c.m; ++i) out[i + j * c.m] = float((i * 3 + j * 5) % 17 - 8) * c.k / 8.0f;
}

bool fake_takes(void* ctx, const SelfCheckCase& c, int config) {
  return config == 0 || c.n < static_cast<Fake*>(ctx)->narrow;
}

bool fake_reference(void* ctx, const SelfCheckCase& c, float* out) {
  reference_values(c, out);
  return static_cast<Fake*>(ctx)->fault != Fake::kReferenceFails;
}

bool fake_kernel(void* ctx, const SelfCheckCase& c, int config, float* out) {
  Fake* f = static_cast<Fake*>(ctx);
  ++f->runs;
  reference_values(c, out);
  if (config != f->faulty) return true;
  const float scale = float(c.k);  // the largest |reference| is k
  switch (f->fault) {
    case Fake::kSmallError: out[7] += scale * 1e-5f; break;  // within every tolerance
    case Fake::kLargeError: out[c.m * c.n - 1] += scale * 0.05f; break;
    case Fake::kNaN: out[c.m] = std::numeric_limits<float>::quiet_NaN(); break;
    case Fake::kKernelFails: return false;
    default: break;
  }
  return true;
}

bool check_with(Fake::Fault fault, int faulty, std::string* failure, int* runs,
                int narrow = 1 << 30) {
  Fake f{fault, faulty, 0, narrow};
  const bool passed =
      run_self_check({&f, kConfigs, config_name, fake_takes, fake_kernel, fake_reference}, failure);
  *runs = f.runs;
  return passed;
}

void self_check_covers_every_op_and_type(void**) {
  bool seen[2][2][2][2] = {};
  int decode = 0;
  for (int i = 0; i < self_check_case_count(); ++i) {
    const SelfCheckCase c = self_check_case(i);
    seen[c.ab == DType::BF16][c.out == DType::F32][c.trans_a][c.trans_b] = true;
    // Partial tiles on some edge: not a multiple of the 256 x 256 pair tile.
    assert_true(c.m % 256 != 0 || c.n % 256 != 0);
    // A decode GEMM: a few tokens (n) against a weight, K over several blocks.
    if (c.n <= 32 && c.k > 128) ++decode;
  }
  assert_true(decode >= 2);
  for (int ab = 0; ab < 2; ++ab)
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb) assert_true(seen[ab][0][ta][tb] || seen[ab][1][ta][tb]);
}

void self_check_passes_a_matching_kernel(void**) {
  std::string failure;
  int runs = 0;
  assert_true(check_with(Fake::kNone, 0, &failure, &runs));
  assert_int_equal(runs, kConfigs * self_check_case_count());  // every case in every configuration
  assert_true(check_with(Fake::kSmallError, 1, &failure, &runs));
}

void self_check_fails_on_a_mismatch_a_nan_or_a_failed_run(void**) {
  for (Fake::Fault fault :
       {Fake::kLargeError, Fake::kNaN, Fake::kKernelFails, Fake::kReferenceFails}) {
    std::string failure;
    int runs = 0;
    assert_false(check_with(fault, 0, &failure, &runs));
    assert_true(failure.find("case 0") == 0);  // stops at the first failing case
    assert_int_equal(runs, fault == Fake::kReferenceFails ? 0 : 1);
  }
}

// A configuration runs only the cases it takes (sm90's decode configuration,
// say), and one that takes none fails the check as unchecked.
void self_check_runs_each_configuration_on_its_cases(void**) {
  std::string failure;
  int runs = 0;
  int narrow_cases = 0;
  for (int i = 0; i < self_check_case_count(); ++i) narrow_cases += self_check_case(i).n < 64;
  assert_true(narrow_cases > 0 && narrow_cases < self_check_case_count());
  assert_true(check_with(Fake::kNone, 0, &failure, &runs, 64));
  assert_int_equal(runs, self_check_case_count() + narrow_cases);
  assert_false(check_with(Fake::kNone, 0, &failure, &runs, 1));  // takes no case
  assert_string_equal(failure.c_str(), "cfg_one takes none of the cases: unchecked");
}

// A fault in one configuration alone fails the check, naming it.
void self_check_checks_every_configuration(void**) {
  for (Fake::Fault fault : {Fake::kLargeError, Fake::kNaN, Fake::kKernelFails}) {
    std::string failure;
    int runs = 0;
    assert_false(check_with(fault, 1, &failure, &runs));
    assert_true(failure.find("case 0 (") == 0);
    assert_true(failure.find(" on cfg_one: ") != std::string::npos);
    assert_int_equal(runs, 2);
  }
}

// The index pattern: the product of its operands is the pattern; a result
// with a 16 x 16 block moved names where the block's values belong.
void index_pattern_names_a_misplaced_tile(void**) {
  const SelfCheckCase c = bwgemm::index_pattern_case();
  std::vector<float> out(size_t(c.m) * c.n);
  for (int j = 0; j < c.n; ++j)
    for (int i = 0; i < c.m; ++i) {
      double sum = 0;
      for (int kk = 0; kk < c.k; ++kk)
        sum += double(bwgemm::index_pattern_a(i, kk)) * bwgemm::index_pattern_b(kk, j);
      out[i + size_t(j) * c.m] = float(sum);
    }
  std::string failure;
  assert_true(bwgemm::check_index_pattern(out.data(), &failure));
  // Rows 256..271 x columns 0..15 hold rows 0..15's values.
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) out[256 + i + size_t(j) * c.m] = out[i + size_t(j) * c.m];
  assert_false(bwgemm::check_index_pattern(out.data(), &failure));
  assert_string_equal(failure.c_str(),
                      "index pattern: element (256, 0) holds the value of element (0, 0): a tile "
                      "or fragment out of place");
  out[256] = -1.5f;
  assert_false(bwgemm::check_index_pattern(out.data(), &failure));
  assert_string_equal(failure.c_str(), "index pattern: element (256, 0) is -1.5, not 256");
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(self_check_covers_every_op_and_type),
      cmocka_unit_test(self_check_passes_a_matching_kernel),
      cmocka_unit_test(self_check_fails_on_a_mismatch_a_nan_or_a_failed_run),
      cmocka_unit_test(self_check_runs_each_configuration_on_its_cases),
      cmocka_unit_test(self_check_checks_every_configuration),
      cmocka_unit_test(index_pattern_names_a_misplaced_tile),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
