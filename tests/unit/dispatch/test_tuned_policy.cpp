// SPDX-License-Identifier: MIT
// core/tuned_policy_file.cpp and dispatch/tuned_policy.cpp: the policy file
// bwgemm-bench --tune writes, parsed, checked against the process (build,
// cuBLAS, families and configurations of fake kernel families) and applied
// by plan_gemm under AUTO only; every malformed or foreign file rejected.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "core/device_caps.h"
#include "dispatch/plan.h"
#include "dispatch/tuned_policy.h"
#include "support/cmocka_cxx.h"
#include "support/fake_kernel_families.h"
#include "support/mock_cuda_runtime.h"

using bwgemm::TunedPolicy;
using bwgemm::TunedRules;

namespace {

const char* const kValid =
    "bwgemm-policy 1\n"
    "device mock GPU 0\n"
    "cublas 13.1.0\n"
    "build test-build\n"
    "# decode from a 4096-row weight\n"
    "rule fake0 bf16 TN 4096 4096 1 64 4096 4096 fake0_cfg2\n"
    "\n"
    "rule fake0 bf16 TN 1 8192 1 8192 1 8192 cublas\n";

// A file in the test's temporary directory holding `text`; removed at exit.
std::string write_file(const std::string& text) {
  static int count = 0;
  const std::string path =
      "tuned_policy_test_" + std::to_string(getpid()) + "_" + std::to_string(count++) + ".txt";
  std::FILE* f = std::fopen(path.c_str(), "w");
  assert_non_null(f);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

bwgemm::TunedPolicyContext context(const fake::FamilyList& families) {
  return {"test-build", "13.1.0", families.view()};
}

bool load(const std::string& text, TunedRules* rules, std::string* why) {
  const fake::FamilyList families = fake::make_list({0, 1});
  const std::string path = write_file(text);
  const bool ok = bwgemm::load_tuned_policy(path.c_str(), context(families), rules, why);
  std::remove(path.c_str());
  return ok;
}

void assert_rejected(const std::string& text, const char* expected_why) {
  TunedRules rules;
  std::string why;
  if (load(text, &rules, &why)) fail_msg("accepted a policy that should fail: %s", expected_why);
  if (why.find(expected_why) == std::string::npos)
    fail_msg("rejected for \"%s\", expected \"%s\"", why.c_str(), expected_why);
}

std::string with_rule(const std::string& rule) {
  return "bwgemm-policy 1\ndevice mock GPU 0\ncublas 13.1.0\nbuild test-build\n" + rule + "\n";
}

bwgemm::GemmProblem decode_problem() {
  bwgemm::GemmProblem p{};
  p.ab_type = p.c_type = bwgemm::DType::BF16;
  p.trans_a = true;
  p.m = 4096;
  p.n = 16;
  p.k = 4096;
  p.lda = p.ldb = 4096;
  p.ldc = p.ldd = 4096;
  p.a = reinterpret_cast<const void*>(uintptr_t{0x1000000});
  p.b = reinterpret_cast<const void*>(uintptr_t{0x2000000});
  p.c = p.d = reinterpret_cast<void*>(uintptr_t{0x3000000});
  p.batch = 1;
  return p;
}

int reset_all(void**) {
  fake::reset();
  mock_cuda::reset();
  bwgemm::device_caps_reset();
  return 0;
}

void a_written_policy_reads_back(void**) {
  TunedPolicy policy;
  std::string error;
  assert_true(bwgemm::parse_tuned_policy(kValid, &policy, &error));
  assert_string_equal(policy.device.c_str(), "mock GPU 0");
  assert_int_equal(policy.rules.size(), 2);
  TunedPolicy again;
  assert_true(bwgemm::parse_tuned_policy(bwgemm::format_tuned_policy(policy), &again, &error));
  assert_string_equal(bwgemm::format_tuned_policy(again).c_str(),
                      bwgemm::format_tuned_policy(policy).c_str());
  assert_int_equal(again.rules[0].min[0], 4096);
  assert_int_equal(again.rules[0].max[1], 64);
  assert_true(again.rules[0].trans_a);
  assert_false(again.rules[0].trans_b);
  assert_string_equal(again.rules[1].choice.c_str(), "cublas");
}

void a_valid_file_resolves_its_rules(void**) {
  TunedRules rules;
  std::string why;
  assert_true(load(kValid, &rules, &why));
  assert_int_equal(rules.rules.size(), 2);
  assert_int_equal(rules.rules[0].config, 2);
  assert_int_equal(rules.rules[1].config, -1);
  assert_string_equal(rules.device.c_str(), "mock GPU 0");
}

void malformed_files_are_rejected(void**) {
  assert_rejected("", "empty");
  assert_rejected("bwgemm-policy 2\n", "first line");
  assert_rejected("bwgemm-policy 1\ndevice x\n", "missing");
  assert_rejected("bwgemm-policy 1\ncublas 13.1.0\n", "expected \"device");
  assert_rejected(with_rule("rule fake0 bf16 TN 1 2 1 2 1 2"), "10 fields");
  assert_rejected(with_rule("rule fake0 bf16 TN 1 2 1 2 1 2 fake0_cfg1 extra"), "more");
  assert_rejected(with_rule("rule fake0 fp32 TN 1 2 1 2 1 2 cublas"), "fp16 or bf16");
  assert_rejected(with_rule("rule fake0 bf16 TC 1 2 1 2 1 2 cublas"), "op must be");
  assert_rejected(with_rule("rule fake0 bf16 TN 2 1 1 2 1 2 cublas"), "ranges");
  assert_rejected(with_rule("rule fake0 bf16 TN 0 1 1 2 1 2 cublas"), "ranges");
  assert_rejected(with_rule("rule fake0 bf16 TN -1 1 1 2 1 2 cublas"), "ranges");
  assert_rejected(with_rule("rule fake0 bf16 TN 1 2x 1 2 1 2 cublas"), "ranges");
  assert_rejected(with_rule("rules fake0 bf16 TN 1 2 1 2 1 2 cublas"), "expected a rule");
  assert_rejected(with_rule("rule fake9 bf16 TN 1 2 1 2 1 2 cublas"), "no kernel family fake9");
  assert_rejected(with_rule("rule fake0 bf16 TN 1 2 1 2 1 2 fake1_cfg0"),
                  "no fake0 configuration fake1_cfg0");
  assert_rejected(std::string(bwgemm::kMaxTunedPolicyBytes + 1, '#'), "larger than");
  std::string many = with_rule("");
  for (size_t i = 0; i <= bwgemm::kMaxTunedRules; ++i)
    many += "rule fake0 bf16 TN 1 2 1 2 1 2 cublas\n";
  assert_rejected(many, "more than");
}

void a_file_measured_elsewhere_is_rejected(void**) {
  std::string text = kValid;
  assert_rejected(text.replace(text.find("test-build"), 10, "other-build"),
                  "measured with bwgemm build other-build");
  text = kValid;
  assert_rejected(text.replace(text.find("13.1.0"), 6, "13.0.0"), "measured against cuBLAS 13.0.0");
  const fake::FamilyList families = fake::make_list({0});
  const std::string path = write_file(kValid);
  TunedRules rules;
  std::string why;
  assert_false(
      bwgemm::load_tuned_policy(path.c_str(), {"test-build", "", families.view()}, &rules, &why));
  assert_string_equal(why.c_str(), "the cuBLAS version cannot be read");
  std::remove(path.c_str());
}

void a_symbolic_link_is_refused(void**) {
  const std::string target = write_file(kValid), link = target + ".link";
  assert_int_equal(symlink(target.c_str(), link.c_str()), 0);
  const fake::FamilyList families = fake::make_list({0});
  TunedRules rules;
  std::string why;
  assert_false(bwgemm::load_tuned_policy(link.c_str(), context(families), &rules, &why));
  assert_true(why.find("cannot open") != std::string::npos);
  std::remove(link.c_str());
  std::remove(target.c_str());
}

void plan_takes_the_first_matching_rule_under_auto(void**) {
  TunedRules rules;
  std::string why;
  assert_true(load(kValid, &rules, &why));
  const fake::FamilyList families = fake::make_list({0});
  const bwgemm::DeviceCaps caps{0, 9, 0, 132, 232448};
  fake::behavior(0).config = 1;  // the family's own table
  bwgemm::Plan plan =
      bwgemm::plan_gemm(decode_problem(), caps, BWGEMM_POLICY_AUTO, families.view(), 0, &rules);
  assert_int_equal(plan.reason, BWGEMM_REASON_KERNEL_SELECTED);
  assert_int_equal(plan.config, 2);
  assert_string_equal(plan.rule, "policy file rule 1: measured faster than cuBLAS");
  assert_int_equal(fake::record(0).choose_config_calls, 0);

  // The second rule: cuBLAS.
  bwgemm::GemmProblem p = decode_problem();
  p.m = 2048;
  plan = bwgemm::plan_gemm(p, caps, BWGEMM_POLICY_AUTO, families.view(), 0, &rules);
  assert_int_equal(plan.reason, BWGEMM_REASON_POLICY_PREFERS_CUBLAS);
  assert_string_equal(plan.rule, "policy file rule 2: cuBLAS measured faster");

  // No rule: the family's table.
  p.m = 16384;
  plan = bwgemm::plan_gemm(p, caps, BWGEMM_POLICY_AUTO, families.view(), 0, &rules);
  assert_int_equal(plan.config, 1);
  // Another op, type, a batch, or an unaligned operand: the family's table.
  for (int change = 0; change < 4; ++change) {
    p = decode_problem();
    if (change == 0) p.trans_b = true;
    if (change == 1) p.ab_type = p.c_type = bwgemm::DType::F16;
    if (change == 2) p.batch = 2;
    if (change == 3) p.ldb = 4095;
    plan = bwgemm::plan_gemm(p, caps, BWGEMM_POLICY_AUTO, families.view(), 0, &rules);
    assert_int_equal(plan.config, 1);
  }
  // Forced onto the kernel: the family's forced choice, never the file's.
  plan = bwgemm::plan_gemm(decode_problem(), caps, BWGEMM_POLICY_FORCE_KERNEL, families.view(), 0,
                           &rules);
  assert_int_equal(plan.config, 1);
  assert_true(fake::record(0).last_forced);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup(f, reset_all)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(a_written_policy_reads_back),  TEST(a_valid_file_resolves_its_rules),
      TEST(malformed_files_are_rejected), TEST(a_file_measured_elsewhere_is_rejected),
      TEST(a_symbolic_link_is_refused),   TEST(plan_takes_the_first_matching_rule_under_auto),
  };
  return cmocka_run_group_tests_name("tuned_policy", tests, nullptr, nullptr);
}
