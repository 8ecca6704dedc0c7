// SPDX-License-Identifier: MIT
// Running a GEMM case through a kernel family's own launcher on the virtual
// GPU (the emulation build's launch_persistent).
#pragma once

#include <string>
#include <vector>

#include "emu/emu.h"
#include "gemm_case.h"

namespace bwgemm::emu_test {

struct EmuOutcome {
  bool launched = false;   // the launcher accepted the case and the run ended cleanly
  std::string error;       // why not: the launcher's refusal or the emulator's report
  std::vector<uint8_t> c;  // C after the run
  emu::RunResult run;
  uint32_t error_flag = 0;  // the sm100 kernel's GemmParams::error_flag after the run
};

// The sm90 family (select_variant, make_launch_params, launch_persistent)
// on a virtual H100/H200-like device with options.sm_count SMs.
EmuOutcome run_sm90(const HostGemm& g, const emu::Options& options);

// The sm100 family on a virtual B200-like device: what its enqueue() does
// (sm100/family.cpp, not linked here: its guard needs the CUDA runtime) with
// the family's variant selection, tile shape and parameter builder.
EmuOutcome run_sm100(const HostGemm& g, const emu::Options& options);

}  // namespace bwgemm::emu_test
