// SPDX-License-Identifier: MIT
// src/kernels/sm100/selection.cpp, variants.cpp's configuration table and
// instr_desc.h: the tcgen05 instruction descriptor against worked values of
// the PTX ISA's f16 instruction descriptor table, where the family runs
// (dispatch with mocked capabilities), and which configuration it runs.
#include <cstring>
#include <string>
#include <utility>

#include "dispatch/plan.h"
#include "kernels/sm100/config.h"
#include "kernels/sm100/instr_desc.h"
#include "kernels/sm100/selection.h"
#include "kernels/sm100/variants.h"
#include "support/cmocka_cxx.h"

using namespace bwgemm;

// variants.cpp's table reaches the nvcc-built per-type variants, which this
// test does not link.
namespace bwgemm::sm100 {
#define NO_VARIANTS_(name, AB, Out) \
  const KernelVariant* variants_##name(int, bool, bool) { return nullptr; }
BWGEMM_FOR_EACH_TYPE_PAIR(NO_VARIANTS_)
#undef NO_VARIANTS_
}  // namespace bwgemm::sm100

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
  // The 1-CTA configurations' M = 128: N = 128, and N = 64 with fp16.
  assert_int_equal(sm100::make_instr_desc_f16(true, false, false, 128, 128), 0x08200490u);
  assert_int_equal(sm100::make_instr_desc_f16(false, false, false, 128, 64), 0x08100010u);
}

DeviceCaps caps(int major, int minor) { return DeviceCaps{0, major, minor, 148, 232448}; }

GemmProblem problem(DType ab, DType out) {
  GemmProblem p{};
  p.ab_type = ab;
  p.c_type = out;
  p.m = p.n = p.k = 4096;
  p.lda = p.ldb = p.ldc = p.ldd = 4096;
  p.batch = 1;
  return p;
}

LaunchResult no_launch(const GemmProblem&, const DeviceCaps&, int, bwgemm::ErrorFlag) {
  return {LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
}

const char* no_name(int) { return ""; }

const KernelFamily kSm100 = {BWGEMM_PATH_SM100,    "sm100", true, sm100::runs_on, sm100::supports,
                             sm100::choose_config, no_name, 1,    no_launch,      nullptr,
                             sm100::config_takes,  nullptr};

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

// With nothing measured on sm_100, AUTO takes only large products of
// 16-byte aligned matrices at least 256 wide both ways; forced, anything
// supported.
void unmeasured_default_takes_large_aligned_products_only(void**) {
  const DeviceCaps c = caps(10, 0);
  GemmProblem p = problem(DType::BF16, DType::BF16);
  assert_int_equal(sm100::choose_config(p, c, false).config, 0);  // 4096^3 = 2^36
  p.m = p.n = p.k = 1024;                                         // 2^30: still taken
  assert_int_equal(sm100::choose_config(p, c, false).config, 0);
  p.k = 1023;
  assert_int_equal(sm100::choose_config(p, c, false).config, -1);
  assert_int_equal(sm100::choose_config(p, c, true).config, 0);
  p = problem(DType::BF16, DType::BF16);
  p.m = 128256;  // a decode through a vocabulary projection: 2^32 multiply-adds
  p.n = 8;
  p.ldc = p.ldd = 128256;
  assert_int_equal(sm100::choose_config(p, c, false).config, -1);
  std::swap(p.m, p.n);
  p.lda = 4096;
  p.ldc = p.ldd = 8;
  assert_int_equal(sm100::choose_config(p, c, false).config, -1);
  p = problem(DType::BF16, DType::BF16);
  p.n = 255;  // one column short of the pair's tile
  assert_int_equal(sm100::choose_config(p, c, false).config, -1);
  p.n = 256;
  assert_int_equal(sm100::choose_config(p, c, false).config, 0);
  p.n = 4096;
  p.m = p.lda = p.ldc = p.ldd = 248;  // 8 rows short, still 16-byte aligned
  assert_int_equal(sm100::choose_config(p, c, false).config, -1);
  p.m = p.lda = p.ldc = p.ldd = 256;
  assert_int_equal(sm100::choose_config(p, c, false).config, 0);
  p = problem(DType::BF16, DType::BF16);
  p.ldb = 4097;  // B not 16-byte aligned: it would need a copy
  assert_int_equal(sm100::choose_config(p, c, false).config, -1);
  p = problem(DType::F16, DType::F16);
  p.d = reinterpret_cast<void*>(0x1002);  // D's rows not TMA-storable
  assert_int_equal(sm100::choose_config(p, c, false).config, -1);
  assert_int_equal(sm100::choose_config(p, c, true).config, 0);
  assert_int_equal(plan_for(c, p).reason, BWGEMM_REASON_POLICY_PREFERS_CUBLAS);
}

void too_little_shared_memory_is_refused(void**) {
  DeviceCaps c = caps(10, 0);
  c.smem_per_block_optin = 100 * 1024;
  assert_int_equal(plan_for(c, problem(DType::F16, DType::F16)).reason,
                   BWGEMM_REASON_NO_KERNEL_FOR_ARCH);
}

// The table: names round-trip, each configuration's tile as dispatch and the
// parameter builder see it, and every one fits the shared memory of a block.
void each_configuration_has_a_name_and_a_tile(void**) {
  assert_int_equal(sm100::kConfigCount, 3);
  for (int config = 0; config < sm100::kConfigCount; ++config)
    assert_int_equal(sm100::config_by_name(sm100::config_name(config)), config);
  assert_int_equal(sm100::config_by_name("sm100_no_such_configuration"), -1);
  assert_string_equal(sm100::config_name(sm100::kConfigCount), "");
  const TileShape pair = sm100::tile_shape(0, DType::BF16);
  assert_int_equal(pair.cluster_size, 2);
  assert_int_equal(pair.row_ctas() * pair.block_rows, 256);
  assert_int_equal(pair.block_cols, 256);
  assert_false(pair.split_k);
  const TileShape single = sm100::tile_shape(1, DType::F32);
  assert_int_equal(single.cluster_size, 1);
  assert_int_equal(single.row_ctas() * single.block_rows, 128);
  assert_int_equal(single.block_cols, 128);
  assert_int_equal(single.out_box_cols, 32);  // fp32: 128 bytes of a row
  const TileShape split = sm100::tile_shape(2, DType::F16);
  assert_int_equal(split.cluster_size, 2);
  assert_true(split.split_k);
  assert_int_equal(split.row_ctas(), 1);  // both CTAs compute the same 128 rows
  assert_int_equal(split.block_rows, 128);
  assert_int_equal(split.block_cols, 64);
  assert_int_equal(split.loaded_cols(), 64);
  static_assert(sm100::Config<__half, float, false, false, 0>::kPair &&
                sm100::Config<__half, float, false, false, 0>::kCtaGroup == 2);
  static_assert(!sm100::Config<__half, float, false, false, 1>::kPair &&
                sm100::Config<__half, float, false, false, 1>::kCtaGroup == 1 &&
                sm100::Config<__half, float, false, false, 1>::kTmemColumns == 256);
  static_assert(sm100::Config<__half, float, false, false, 2>::kSplitK &&
                sm100::Config<__half, float, false, false, 2>::kCtaGroup == 1 &&
                sm100::Config<__half, float, false, false, 2>::kTmemColumns == 128 &&
                sm100::Config<__half, __half, false, false, 2>::kChunksPerStaging == 1);
}

// A named configuration replaces the choice wherever the kernel runs: under
// AUTO where the default takes the call, and forced anywhere; never where
// AUTO leaves the call to cuBLAS, nor where the device's shared memory is too
// small for it.
void a_named_configuration_runs_where_the_kernel_runs(void**) {
  const DeviceCaps c = caps(10, 0);
  GemmProblem p = problem(DType::BF16, DType::BF16);
  for (int named = 0; named < sm100::kConfigCount; ++named) {  // NN: compiled in every one
    const ConfigChoice choice = sm100::choose(p, c, false, named);
    assert_int_equal(choice.config, named);
    assert_string_equal(choice.rule, "named by BWGEMM_SM100_CONFIG");
  }
  p.k = 32;  // 4096 x 4096 x 32 = 2^29: cuBLAS under AUTO
  assert_int_equal(sm100::choose(p, c, false, 2).config, -1);
  assert_int_equal(sm100::choose(p, c, true, 2).config, 2);
  assert_int_equal(sm100::choose(p, c, true, -1).config, 0);
  DeviceCaps small = c;
  small.smem_per_block_optin = 160 * 1024;  // below every configuration's needs
  assert_int_equal(sm100::choose(p, small, true, 1).config, 0);
  assert_true(std::strstr(sm100::choose(p, small, true, 1).rule, "forced") != nullptr);
}

// A configuration takes the calls of the layouts it is compiled for (the
// split-K pair: the tokens K-major, cuBLAS's B not transposed), where the
// device's shared memory holds it.
void each_configuration_takes_its_layouts_where_it_fits(void**) {
  const DeviceCaps c = caps(10, 0);
  GemmProblem p = problem(DType::BF16, DType::F32);
  for (bool trans_a : {false, true}) {
    p.trans_a = trans_a;
    for (int config = 0; config < sm100::kConfigCount; ++config)
      assert_true(sm100::config_takes(p, c, config));
  }
  p.trans_b = true;
  assert_true(sm100::config_takes(p, c, 0));
  assert_true(sm100::config_takes(p, c, 1));
  assert_false(sm100::config_takes(p, c, 2));
  assert_false(sm100::config_takes(p, c, sm100::kConfigCount));
  assert_false(sm100::config_takes(p, c, -1));
  DeviceCaps small = c;
  small.smem_per_block_optin = 160 * 1024;
  p.trans_b = false;
  for (int config = 0; config < sm100::kConfigCount; ++config)
    assert_false(sm100::config_takes(p, small, config));
}

void env_switch_disables_the_family(void**) {
  const KernelFamily* const families[] = {&kSm100};
  const Plan plan = plan_gemm(problem(DType::F16, DType::F16), caps(10, 0), BWGEMM_POLICY_AUTO,
                              {families, 1}, 1u << BWGEMM_PATH_SM100);
  assert_int_equal(plan.reason, BWGEMM_REASON_FAMILY_DISABLED);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(instr_desc_matches_the_worked_values),
      cmocka_unit_test(dispatch_selects_sm100_on_cc_10_0_and_10_3),
      cmocka_unit_test(dispatch_does_not_select_sm100_elsewhere),
      cmocka_unit_test(unmeasured_default_takes_large_aligned_products_only),
      cmocka_unit_test(too_little_shared_memory_is_refused),
      cmocka_unit_test(each_configuration_has_a_name_and_a_tile),
      cmocka_unit_test(a_named_configuration_runs_where_the_kernel_runs),
      cmocka_unit_test(each_configuration_takes_its_layouts_where_it_fits),
      cmocka_unit_test(env_switch_disables_the_family),
  };
  return cmocka_run_group_tests_name("sm100", tests, nullptr, nullptr);
}
