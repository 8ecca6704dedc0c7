// SPDX-License-Identifier: MIT
// src/dispatch/plan.cpp: plan_gemm over fake kernel families and device caps
// (built here, or read through the mocked CUDA runtime).
#include "core/device_caps.h"
#include "dispatch/plan.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/mock_cuda_runtime.h"

using bwgemm::DeviceCaps;
using bwgemm::GemmProblem;
using bwgemm::Plan;

namespace {

const GemmProblem kProblem = [] {
  GemmProblem p{};
  p.m = 256;
  p.n = 128;
  p.k = 64;
  p.lda = p.ldc = p.ldd = 256;
  p.ldb = 64;
  p.batch = 1;
  return p;
}();

DeviceCaps caps(int major, int minor) { return DeviceCaps{0, major, minor, 132, 232448}; }

int reset_all(void**) {
  fake::reset();
  mock_cuda::reset();
  bwgemm::device_caps_reset();
  return 0;
}

Plan plan(const fake::FamilyList& families, const DeviceCaps& c,
          bwgemmPolicy_t policy = BWGEMM_POLICY_AUTO, bwgemm::DisabledPaths disabled = 0) {
  return bwgemm::plan_gemm(kProblem, c, policy, families.view(), disabled);
}

void assert_forward(const Plan& p, bwgemmReason_t reason) {
  assert_null(p.family);
  assert_int_equal(p.reason, reason);
}

void the_supporting_family_is_selected(void**) {
  fake::behavior(0).config = 2;
  const Plan p = plan(fake::make_list({0}), caps(9, 0));
  assert_ptr_equal(p.family, &fake::family(0));
  assert_int_equal(p.config, 2);
  assert_int_equal(p.reason, BWGEMM_REASON_KERNEL_SELECTED);
  assert_int_equal(fake::record(0).launch_calls, 0);
}

void no_family_for_the_architecture(void**) {
  assert_forward(plan(fake::make_list({0, 1}), caps(8, 9)), BWGEMM_REASON_NO_KERNEL_FOR_ARCH);
  assert_forward(plan(fake::make_list({}), caps(9, 0)), BWGEMM_REASON_NO_KERNEL_FOR_ARCH);
}

void disabled_family_is_not_used(void**) {
  fake::family(0).path = BWGEMM_PATH_SM90;
  const fake::FamilyList families = fake::make_list({0});
  assert_forward(plan(families, caps(9, 0), BWGEMM_POLICY_AUTO, 1u << BWGEMM_PATH_SM90),
                 BWGEMM_REASON_FAMILY_DISABLED);
  // Switching another path off leaves this one alone.
  const Plan p = plan(families, caps(9, 0), BWGEMM_POLICY_AUTO, 1u << BWGEMM_PATH_SM100);
  assert_ptr_equal(p.family, &fake::family(0));
}

void rejection_reason_of_supports_is_the_plans(void**) {
  for (bwgemmReason_t reason : {BWGEMM_REASON_UNSUPPORTED_LAYOUT, BWGEMM_REASON_TOO_LARGE,
                                BWGEMM_REASON_UNSUPPORTED_BATCH}) {
    fake::behavior(0).support = reason;
    assert_forward(plan(fake::make_list({0}), caps(9, 0)), reason);
  }
}

void config_minus_one_means_cublas_is_faster(void**) {
  fake::behavior(0).config = -1;
  assert_forward(plan(fake::make_list({0}), caps(9, 0)), BWGEMM_REASON_POLICY_PREFERS_CUBLAS);
}

void force_kernel_asks_for_a_forced_config(void**) {
  const fake::FamilyList families = fake::make_list({0});
  plan(families, caps(9, 0), BWGEMM_POLICY_FORCE_KERNEL);
  assert_int_equal(fake::record(0).choose_config_calls, 1);
  assert_true(fake::record(0).last_forced);
  plan(families, caps(9, 0), BWGEMM_POLICY_AUTO);
  assert_int_equal(fake::record(0).choose_config_calls, 2);
  assert_false(fake::record(0).last_forced);
}

void force_cublas_forwards(void**) {
  assert_forward(plan(fake::make_list({0}), caps(9, 0), BWGEMM_POLICY_FORCE_CUBLAS),
                 BWGEMM_REASON_FORCED_CUBLAS);
}

void first_matching_family_wins(void**) {
  fake::set_archs(0, {{10, 0}});
  fake::set_archs(1, {{9, 0}});
  fake::set_archs(2, {{9, 0}, {10, 0}});
  const fake::FamilyList families = fake::make_list({0, 1, 2});
  assert_ptr_equal(plan(families, caps(9, 0)).family, &fake::family(1));
  assert_ptr_equal(plan(families, caps(10, 0)).family, &fake::family(0));
  const fake::FamilyList reversed = fake::make_list({2, 1, 0});
  assert_ptr_equal(plan(reversed, caps(9, 0)).family, &fake::family(2));
}

// A Blackwell datacenter family (sm_100 and sm_103 only) with the device
// facts read through the mocked runtime.
void sm100_family_is_chosen_on_cc_10_0_and_10_3_only(void**) {
  fake::family(0).path = BWGEMM_PATH_SM100;
  fake::set_archs(0, {{10, 0}, {10, 3}});
  const fake::FamilyList families = fake::make_list({0});
  const struct {
    int major, minor;
    bool selected;
  } devices[] = {{10, 0, true}, {10, 3, true}, {9, 0, false}, {10, 1, false}, {12, 0, false}};
  for (const auto& d : devices) {
    mock_cuda::set_attributes(0, {d.major, d.minor, 148, 232448});
    bwgemm::device_caps_reset();
    DeviceCaps c{};
    assert_true(bwgemm::current_device_caps(&c));
    const Plan p = plan(families, c);
    if (d.selected) {
      assert_ptr_equal(p.family, &fake::family(0));
    } else {
      assert_forward(p, BWGEMM_REASON_NO_KERNEL_FOR_ARCH);
    }
  }
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup(f, reset_all)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(the_supporting_family_is_selected),
      TEST(no_family_for_the_architecture),
      TEST(disabled_family_is_not_used),
      TEST(rejection_reason_of_supports_is_the_plans),
      TEST(config_minus_one_means_cublas_is_faster),
      TEST(force_kernel_asks_for_a_forced_config),
      TEST(force_cublas_forwards),
      TEST(first_matching_family_wins),
      TEST(sm100_family_is_chosen_on_cc_10_0_and_10_3_only),
  };
  return cmocka_run_group_tests_name("plan", tests, nullptr, nullptr);
}
