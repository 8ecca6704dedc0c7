// SPDX-License-Identifier: MIT
#include "dispatch/path_switch.h"

#include <atomic>

#include "core/env_config.h"
#include "core/log.h"
#include "core/names.h"

namespace bwgemm {
namespace {

std::atomic<DisabledPaths> g_runtime_disabled{0};

}  // namespace

DisabledPaths disabled_paths() {
  const EnvConfig& env = env_config();
  DisabledPaths mask = g_runtime_disabled.load(std::memory_order_relaxed);
  if (env.sm90_off) mask |= 1u << BWGEMM_PATH_SM90;
  if (env.sm100_off) mask |= 1u << BWGEMM_PATH_SM100;
  return mask;
}

void disable_path(bwgemmPath_t path, const char* why) {
  const DisabledPaths bit = 1u << path;
  if ((g_runtime_disabled.fetch_or(bit) & bit) == 0)
    log_warning("%s kernels switched off for this process: %s; calls go to cuBLAS", path_name(path),
                why);
}

void path_switch_reset() { g_runtime_disabled.store(0); }

}  // namespace bwgemm
