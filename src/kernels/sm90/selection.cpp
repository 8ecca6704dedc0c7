// SPDX-License-Identifier: MIT
#include "kernels/sm90/selection.h"

#include <array>
#include <utility>

#include "core/env_config.h"
#include "kernels/common/config_table.h"
#include "kernels/common/kernel_view.h"
#include "kernels/decode/check.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/policy.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {
namespace {

constexpr std::array<uint32_t, kConfigCount> kSmemBytes =
    config_smem_bytes<ConfigFor>(std::make_integer_sequence<int, kConfigCount>{});

// BWGEMM_SM90_CONFIG's configuration, or -1.
int named_config() {
  static const int named =
      config_named_by("BWGEMM_SM90_CONFIG", env_config().sm90_config, config_by_name, "sm90");
  return named;
}

}  // namespace

// A configuration with row windows reads nothing else (launch_params.h): a
// problem it cannot take runs the choice it would have had without it.
bool config_takes(const GemmProblem& p, const DeviceCaps& caps, int config) {
  if (config == kDecodeConfig) return decode::check(p, caps) == BWGEMM_REASON_KERNEL_SELECTED;
  if (config < 0 || config >= kConfigCount) return false;
  const KernelView v = to_kernel_view(p);
  const TileShape shape = tile_shape(config, p.c_type);
  return config_compiled(config, variant_key(v)) && shape.takes_rows(v.rows) &&
         (!shape.row_windows || row_class_use(v, shape) == RowClassUse::kRowWindows) &&
         caps.smem_per_block_optin >= int(kSmemBytes[size_t(config)]);
}

bool runs_on(const DeviceCaps& caps) { return caps.cc_major == 9 && caps.cc_minor == 0; }

bwgemmReason_t supports(const GemmProblem&, const DeviceCaps& caps) {
  // Configuration 0 runs every layout; the others only where they fit.
  if (caps.smem_per_block_optin < int(kSmemBytes[0])) return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

ConfigChoice choose(const GemmProblem& p, const DeviceCaps& caps, bool forced, int named) {
  ConfigChoice s = select_config(p, caps);
  if (!config_takes(p, caps, s.config)) {
    if (!forced) return {-1, s.config < 0 ? s.rule : "the table's configuration is not compiled"};
    s = {0, "forced kernel: the large-tile configuration"};
  }
  if (named >= 0 && config_takes(p, caps, named)) s = {named, "named by BWGEMM_SM90_CONFIG"};
  return s;
}

ConfigChoice choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced) {
  return choose(p, caps, forced, named_config());
}

}  // namespace bwgemm::sm90
