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
  std::vector<uint8_t> c;  // D after the run (C itself unless the case is out of place)
  emu::RunResult run;
  uint32_t error_flag = 0;  // the sm100 kernel's GemmParams::error_flag after the run
};

// A family's own launcher (kFamily.launch: kernel view, variant, parameters,
// launch_persistent) on a virtual device with options.sm_count SMs: sm90 on
// an H100/H200-like one, sm100 on a B200-like one, with the error flag that
// dispatch's guard would pass.
// config: the family configuration to launch, or -1 for the one
// choose_config forces.
EmuOutcome run_sm90(const HostGemm& g, const emu::Options& options, int config = -1);

// Whether the sm90 configuration run_sm90 would launch (`config`, or the
// forced choice for -1) loads the case's operands as they are
// (launch_params.h, plan_loads: row classes included).
bool sm90_loads(const HostGemm& g, uint32_t sm_count, int config = -1);
// The pieces the sm90 launch of the forced choice splits its last wave's
// tiles into (tile_split.h; 1: none).
int sm90_pieces(const HostGemm& g, uint32_t sm_count);
EmuOutcome run_sm100(const HostGemm& g, const emu::Options& options, int config = -1);

}  // namespace bwgemm::emu_test
