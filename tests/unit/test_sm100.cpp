// SPDX-License-Identifier: MIT
// The sm100 family's host-side pieces: the tcgen05 instruction descriptor
// against the worked values of reference/blackwell-tcgen05-facts.md §2, where
// the family runs (dispatch with mocked capabilities), and the self-check's
// decision over pluggable kernel/reference runs.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "dispatch/plan.h"
#include "kernels/sm100/instr_desc.h"
#include "kernels/sm100/selection.h"
#include "kernels/sm100/self_check.h"
#include "support/cmocka_cxx.h"

using namespace bwgemm;

namespace {

void instr_desc_matches_the_worked_values(void**) {
  // bf16 x bf16 -> f32, K-major A and B, M = 256 (2-CTA), N = 256.
  assert_int_equal(sm100::make_instr_desc_f16(true, false, false, 256, 256), 0x10400490u);
  assert_int_equal(sm100::make_instr_desc_f16(false, false, false, 256, 256), 0x10400010u);
  assert_int_equal(sm100::make_instr_desc_f16(true, false, false, 128, 256), 0x08400490u);
  assert_int_equal(sm100::make_instr_desc_f16(true, false, false, 256, 128), 0x10200490u);
  // B N-major sets bit 16, A M-major bit 15.
  assert_int_equal(sm100::make_instr_desc_f16(true, false, true, 256, 256), 0x10410490u);
  assert_int_equal(sm100::make_instr_desc_f16(true, true, false, 256, 256), 0x10408490u);
}

DeviceCaps caps(int major, int minor) { return DeviceCaps{0, major, minor, 148, 232448}; }

GemmProblem problem(DType ab, DType out) {
  GemmProblem p{};
  p.ab_type = ab;
  p.c_type = out;
  p.m = p.n = p.k = 4096;
  p.lda = p.ldb = p.ldc = 4096;
  p.batch = 1;
  return p;
}

cudaError_t no_launch(const GemmProblem&, const DeviceCaps&, int) { return cudaErrorNotReady; }

const KernelFamily kSm100 = {
    BWGEMM_PATH_SM100,  "sm100",  sm100::runs_on, sm100::supports, sm100::choose_config,
    sm100::config_name, no_launch};

Plan plan_for(const DeviceCaps& c, const GemmProblem& p) {
  const KernelFamily* const families[] = {&kSm100};
  return plan_gemm(p, c, BWGEMM_POLICY_AUTO, {families, 1}, 0);
}

void dispatch_selects_sm100_on_cc_10_0_and_10_3(void**) {
  for (const DeviceCaps c : {caps(10, 0), caps(10, 3)})
    for (DType ab : {DType::F16, DType::BF16})
      for (DType out : {ab, DType::F32}) {
        const Plan plan = plan_for(c, problem(ab, out));
        assert_ptr_equal(plan.family, &kSm100);
        assert_int_equal(plan.reason, BWGEMM_REASON_KERNEL_SELECTED);
      }
}

void dispatch_does_not_select_sm100_elsewhere(void**) {
  for (const DeviceCaps c : {caps(9, 0), caps(10, 1), caps(11, 0), caps(12, 0), caps(8, 0)}) {
    const Plan plan = plan_for(c, problem(DType::BF16, DType::BF16));
    assert_null(plan.family);
    assert_int_equal(plan.reason, BWGEMM_REASON_NO_KERNEL_FOR_ARCH);
  }
}

void too_little_shared_memory_is_refused(void**) {
  DeviceCaps c = caps(10, 0);
  c.smem_per_block_optin = 100 * 1024;
  assert_int_equal(plan_for(c, problem(DType::F16, DType::F16)).reason,
                   BWGEMM_REASON_NO_KERNEL_FOR_ARCH);
}

void env_switch_disables_the_family(void**) {
  const KernelFamily* const families[] = {&kSm100};
  const Plan plan = plan_gemm(problem(DType::F16, DType::F16), caps(10, 0), BWGEMM_POLICY_AUTO,
                              {families, 1}, 1u << BWGEMM_PATH_SM100);
  assert_int_equal(plan.reason, BWGEMM_REASON_FAMILY_DISABLED);
}

// A fake backend: the reference is an exact product of small integers; the
// "kernel" is the reference with a chosen fault.
struct Fake {
  enum Fault { kNone, kSmallError, kLargeError, kNaN, kKernelFails, kReferenceFails } fault;
  int runs = 0;
};

void reference_values(const sm100::SelfCheckCase& c, float* out) {
  for (int j = 0; j < c.n; ++j)
    for (int i = 0; i < c.m; ++i) out[i + j * c.m] = float((i * 3 + j * 5) % 17 - 8) * c.k / 8.0f;
}

bool fake_reference(void* ctx, const sm100::SelfCheckCase& c, float* out) {
  reference_values(c, out);
  return static_cast<Fake*>(ctx)->fault != Fake::kReferenceFails;
}

bool fake_kernel(void* ctx, const sm100::SelfCheckCase& c, float* out) {
  Fake* f = static_cast<Fake*>(ctx);
  ++f->runs;
  reference_values(c, out);
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

bool check_with(Fake::Fault fault, std::string* failure, int* runs) {
  Fake f{fault};
  const bool passed = sm100::run_self_check({&f, fake_kernel, fake_reference}, failure);
  *runs = f.runs;
  return passed;
}

void self_check_covers_every_op_and_type(void**) {
  bool seen[2][2][2][2] = {};
  for (int i = 0; i < sm100::self_check_case_count(); ++i) {
    const sm100::SelfCheckCase c = sm100::self_check_case(i);
    seen[c.ab == DType::BF16][c.out == DType::F32][c.trans_a][c.trans_b] = true;
    // Partial tiles on some edge: not a multiple of the 256 x 256 pair tile.
    assert_true(c.m % 256 != 0 || c.n % 256 != 0);
  }
  for (int ab = 0; ab < 2; ++ab)
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb) assert_true(seen[ab][0][ta][tb] || seen[ab][1][ta][tb]);
}

void self_check_passes_a_matching_kernel(void**) {
  std::string failure;
  int runs = 0;
  assert_true(check_with(Fake::kNone, &failure, &runs));
  assert_int_equal(runs, sm100::self_check_case_count());
  assert_true(check_with(Fake::kSmallError, &failure, &runs));
}

void self_check_fails_on_a_mismatch_a_nan_or_a_failed_run(void**) {
  for (Fake::Fault fault :
       {Fake::kLargeError, Fake::kNaN, Fake::kKernelFails, Fake::kReferenceFails}) {
    std::string failure;
    int runs = 0;
    assert_false(check_with(fault, &failure, &runs));
    assert_true(failure.find("case 0") == 0);  // stops at the first failing case
    assert_int_equal(runs, 1);
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(instr_desc_matches_the_worked_values),
      cmocka_unit_test(dispatch_selects_sm100_on_cc_10_0_and_10_3),
      cmocka_unit_test(dispatch_does_not_select_sm100_elsewhere),
      cmocka_unit_test(too_little_shared_memory_is_refused),
      cmocka_unit_test(env_switch_disables_the_family),
      cmocka_unit_test(self_check_covers_every_op_and_type),
      cmocka_unit_test(self_check_passes_a_matching_kernel),
      cmocka_unit_test(self_check_fails_on_a_mismatch_a_nan_or_a_failed_run),
  };
  return cmocka_run_group_tests_name("sm100", tests, nullptr, nullptr);
}
