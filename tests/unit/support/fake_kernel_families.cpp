// SPDX-License-Identifier: MIT
#include "support/fake_kernel_families.h"

namespace fake {
namespace {

Behavior g_behavior[kFamilyCount];
Record g_record[kFamilyCount];
FamilyList g_registered;

constexpr const char* kConfigNames[kFamilyCount][kConfigCount] = {
    {"fake0_cfg0", "fake0_cfg1", "fake0_cfg2", "fake0_cfg3"},
    {"fake1_cfg0", "fake1_cfg1", "fake1_cfg2", "fake1_cfg3"},
    {"fake2_cfg0", "fake2_cfg1", "fake2_cfg2", "fake2_cfg3"},
};

template <int I>
bool runs_on(const bwgemm::DeviceCaps& caps) {
  ++g_record[I].runs_on_calls;
  const Behavior& b = g_behavior[I];
  for (int i = 0; i < b.arch_count; ++i)
    if (b.archs[i].first == caps.cc_major && b.archs[i].second == caps.cc_minor) return true;
  return false;
}

template <int I>
bwgemmReason_t supports(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&) {
  ++g_record[I].supports_calls;
  return g_behavior[I].support;
}

template <int I>
bwgemm::ConfigChoice choose_config(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&,
                                   bool forced) {
  ++g_record[I].choose_config_calls;
  g_record[I].last_forced = forced;
  return {g_behavior[I].config,
          g_behavior[I].config >= 0 ? "fake rule: kernel" : "fake rule: cuBLAS"};
}

template <int I>
const char* name_of_config(int config) {
  return config_name(I, config);
}

template <int I>
bwgemm::LaunchResult launch(const bwgemm::GemmProblem& p, const bwgemm::DeviceCaps& caps,
                            int config, bwgemm::ErrorFlag error_flag) {
  ++g_record[I].launch_calls;
  g_record[I].last_problem = p;
  g_record[I].last_caps = caps;
  g_record[I].last_config = config;
  g_record[I].last_error_flag = error_flag.word;
  return g_behavior[I].launch_result;
}

bool takes_any(const bwgemm::GemmProblem&, const bwgemm::DeviceCaps&, int config) {
  return config >= 0 && config < kConfigCount;
}

template <int I>
bwgemm::KernelFamily make_family(const char* name) {
  return {BWGEMM_PATH_SM90,  name,         false,     runs_on<I>, supports<I>, choose_config<I>,
          name_of_config<I>, kConfigCount, launch<I>, nullptr,    takes_any,   nullptr};
}

bwgemm::KernelFamily g_families[kFamilyCount] = {make_family<0>("fake0"), make_family<1>("fake1"),
                                                 make_family<2>("fake2")};

}  // namespace

void reset() {
  for (int i = 0; i < kFamilyCount; ++i) {
    g_families[i].path = BWGEMM_PATH_SM90;
    g_families[i].guarded = false;
    g_behavior[i] = Behavior{{{9, 0}},
                             1,
                             BWGEMM_REASON_KERNEL_SELECTED,
                             0,
                             {bwgemm::LaunchStatus::kEnqueued, BWGEMM_REASON_KERNEL_SELECTED}};
    Record& r = g_record[i];
    r.runs_on_calls = r.supports_calls = r.choose_config_calls = r.launch_calls = 0;
    r.last_forced = false;
    r.last_problem = {};
    r.last_caps = {};
    r.last_config = -1;
    r.last_error_flag = nullptr;
  }
  g_registered = {};
}

bwgemm::KernelFamily& family(int index) { return g_families[index]; }
Behavior& behavior(int index) { return g_behavior[index]; }
Record& record(int index) { return g_record[index]; }

void set_archs(int index, std::initializer_list<std::pair<int, int>> archs) {
  Behavior& b = g_behavior[index];
  b.arch_count = 0;
  for (const auto& arch : archs) b.archs[b.arch_count++] = arch;
}

const char* config_name(int index, int config) {
  return config >= 0 && config < kConfigCount ? kConfigNames[index][config] : "fake_cfg_unknown";
}

FamilyList make_list(std::initializer_list<int> indices) {
  FamilyList list{};
  for (int i : indices) list.items[list.count++] = &g_families[i];
  return list;
}

void register_families(std::initializer_list<int> indices) { g_registered = make_list(indices); }

int total_launches() {
  int n = 0;
  for (const Record& r : g_record) n += r.launch_calls;
  return n;
}

}  // namespace fake

namespace bwgemm {

KernelFamilyList registered_kernel_families() { return fake::g_registered.view(); }

}  // namespace bwgemm
