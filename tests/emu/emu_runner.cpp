// SPDX-License-Identifier: MIT
#include "emu_runner.h"

#include "kernels/common/kernel_launch.h"
#include "kernels/common/launch_params.h"
#include "kernels/kernel_family.h"
#include "kernels/sm90/family.h"
#include "kernels/sm90/variants.h"

namespace bwgemm {
namespace sm90 {
extern const KernelFamily kFamily;
}
namespace sm100 {
extern const KernelFamily kFamily;
}

namespace emu_test {
namespace {

// The family's own launcher on the virtual GPU (the emulation build's
// launch_persistent), with the error flag the guard would pass.
EmuOutcome run_family(const KernelFamily& family, const HostGemm& g, const DeviceCaps& caps,
                      const emu::Options& options, int config) {
  EmuOutcome out;
  out.c = g.d_initial;
  const float alpha = g.c.alpha, beta = g.c.beta;
  GemmProblem p = g.problem(g.a.data(), g.b.data(), out.c.data(), &alpha, &beta, g.c_initial.data(),
                            g.bias.data());
  // 256-byte aligned, as dispatch's workspaces are; poisoned, as a used one may be.
  std::vector<uint8_t> workspace(g.c.workspace_bytes + 256, 0xA5);
  if (g.c.workspace_bytes > 0) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(workspace.data());
    p.workspace = workspace.data() + (256 - base % 256) % 256;
    p.workspace_bytes = g.c.workspace_bytes;
  }
  if (family.supports(p, caps) != BWGEMM_REASON_KERNEL_SELECTED) {
    out.error = std::string("the ") + family.name + " family does not take the case";
    return out;
  }
  emu::set_device_options(options);
  const LaunchResult launched =
      family.launch(p, caps, config >= 0 ? config : family.choose_config(p, caps, true).config,
                    {&out.error_flag, 1});
  out.run = emu::last_run();
  if (launched.status != LaunchStatus::kEnqueued || out.error_flag != 0) {
    out.error = !out.run.report.empty()                      ? out.run.report
                : launched.status != LaunchStatus::kEnqueued ? "the launcher refused the case"
                                                             : "the kernel set its error flag";
    return out;
  }
  out.launched = true;
  return out;
}

}  // namespace

EmuOutcome run_sm90(const HostGemm& g, const emu::Options& options, int config) {
  return run_family(sm90::kFamily, g, DeviceCaps{0, 9, 0, int(options.sm_count), 232448}, options,
                    config);
}

bool sm90_loads(const HostGemm& g, uint32_t sm_count, int config) {
  const float alpha = g.c.alpha, beta = g.c.beta;
  std::vector<uint8_t> d = g.d_initial;
  const GemmProblem p =
      g.problem(g.a.data(), g.b.data(), d.data(), &alpha, &beta, g.c_initial.data(), g.bias.data());
  const DeviceCaps caps{0, 9, 0, int(sm_count), 232448};
  const int chosen = config >= 0 ? config : sm90::kFamily.choose_config(p, caps, true).config;
  return chosen >= 0 && chosen < sm90::kConfigCount &&
         plan_loads(to_kernel_view(p), sm90::tile_shape(chosen, p.c_type)).supported;
}

int sm90_pieces(const HostGemm& g, uint32_t sm_count) {
  const float alpha = g.c.alpha, beta = g.c.beta;
  std::vector<uint8_t> d = g.d_initial;
  GemmProblem p =
      g.problem(g.a.data(), g.b.data(), d.data(), &alpha, &beta, g.c_initial.data(), g.bias.data());
  // Only its address and size count: the plan reads no byte of it.
  alignas(256) static uint8_t workspace[256];
  p.workspace = g.c.workspace_bytes > 0 ? workspace : nullptr;
  p.workspace_bytes = g.c.workspace_bytes;
  const DeviceCaps caps{0, 9, 0, int(sm_count), 232448};
  const KernelVariant* variant = nullptr;
  GemmParams params;
  if (build_launch(sm90::kCatalog, p, caps, sm90::kFamily.choose_config(p, caps, true).config, {},
                   &variant, &params) != BWGEMM_REASON_KERNEL_SELECTED)
    return 0;
  return params.scheduler.pieces;
}

EmuOutcome run_sm100(const HostGemm& g, const emu::Options& options, int config) {
  return run_family(sm100::kFamily, g, DeviceCaps{0, 10, 0, int(options.sm_count), 232448}, options,
                    config);
}

}  // namespace emu_test
}  // namespace bwgemm
