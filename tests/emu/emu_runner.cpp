// SPDX-License-Identifier: MIT
#include "emu_runner.h"

#include "dispatch/kernel_family.h"
#include "kernels/common/launch_params.h"
#include "kernels/sm100/launch.h"
#include "kernels/sm100/selection.h"
#include "kernels/sm100/variants.h"

namespace bwgemm {
namespace sm90 {
extern const KernelFamily kFamily;
}

namespace emu_test {

EmuOutcome run_sm90(const HostGemm& g, const emu::Options& options) {
  EmuOutcome out;
  out.c = g.c_initial;
  const float alpha = g.c.alpha, beta = g.c.beta;
  const GemmProblem p = g.problem(g.a.data(), g.b.data(), out.c.data(), &alpha, &beta);
  const DeviceCaps caps{0, 9, 0, int(options.sm_count), 232448};
  if (sm90::kFamily.supports(p, caps) != BWGEMM_REASON_KERNEL_SELECTED) {
    out.error = "the sm90 family does not take the case";
    return out;
  }
  emu::set_device_options(options);
  const cudaError_t e = sm90::kFamily.launch(p, caps, 0);
  out.run = emu::last_run();
  if (e != cudaSuccess) {
    out.error = out.run.report.empty() ? "the launcher refused the case" : out.run.report;
    return out;
  }
  out.launched = true;
  return out;
}

EmuOutcome run_sm100(const HostGemm& g, const emu::Options& options) {
  EmuOutcome out;
  out.c = g.c_initial;
  const float alpha = g.c.alpha, beta = g.c.beta;
  const GemmProblem p = g.problem(g.a.data(), g.b.data(), out.c.data(), &alpha, &beta);
  const DeviceCaps caps{0, 10, 0, int(options.sm_count), 232448};
  if (sm100::supports(p, caps) != BWGEMM_REASON_KERNEL_SELECTED) {
    out.error = "the sm100 family does not take the case";
    return out;
  }
  emu::set_device_options(options);
  const cudaError_t e = sm100::enqueue(p, caps, &out.error_flag);
  out.run = emu::last_run();
  if (e != cudaSuccess || out.error_flag != 0) {
    out.error = !out.run.report.empty() ? out.run.report : "the kernel set its error flag";
    return out;
  }
  out.launched = true;
  return out;
}

}  // namespace emu_test
}  // namespace bwgemm
