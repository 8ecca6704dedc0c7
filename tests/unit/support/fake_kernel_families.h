// SPDX-License-Identifier: MIT
// Fake kernel families for the unit tests, and the registered_kernel_families()
// that bwgemm_core's dispatch asks: each family's behaviour is set by the test
// and every callback counts its calls and remembers its arguments.
#pragma once

#include <atomic>
#include <initializer_list>
#include <utility>

#include "dispatch/registry.h"

namespace fake {

constexpr int kFamilyCount = 3;
constexpr int kMaxArchs = 4;
constexpr int kConfigCount = 4;

struct Behavior {
  std::pair<int, int> archs[kMaxArchs];  // the (major, minor) runs_on accepts
  int arch_count;
  bwgemmReason_t support;              // what supports() returns
  int config;                          // what choose_config() returns
  bwgemm::LaunchResult launch_result;  // what launch() returns
};

// What the callbacks saw. Filled from the calling thread without locking:
// read it only after single-threaded calls.
struct Record {
  std::atomic<int> runs_on_calls, supports_calls, choose_config_calls, launch_calls;
  bool last_forced;
  bwgemm::GemmProblem last_problem;
  bwgemm::DeviceCaps last_caps;
  int last_config;
  uint32_t* last_error_flag;
};

// Every family: path SM90, unguarded, runs on 9.0 only, supports
// everything, config 0, launches successfully; records cleared; nothing
// registered.
void reset();

bwgemm::KernelFamily& family(int index);
Behavior& behavior(int index);
Record& record(int index);
void set_archs(int index, std::initializer_list<std::pair<int, int>> archs);

// The name config_name() gives `config` of family `index`.
const char* config_name(int index, int config);

// A list of fake families, in order of preference.
struct FamilyList {
  const bwgemm::KernelFamily* items[kFamilyCount];
  int count;
  bwgemm::KernelFamilyList view() const { return {items, count}; }
};
FamilyList make_list(std::initializer_list<int> indices);

// What registered_kernel_families() returns from now on.
void register_families(std::initializer_list<int> indices);

// launch() calls of all families together.
int total_launches();

}  // namespace fake
