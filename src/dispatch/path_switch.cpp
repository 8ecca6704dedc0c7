// SPDX-License-Identifier: MIT
#include "dispatch/path_switch.h"

#include "core/env_config.h"

namespace bwgemm {

DisabledPaths disabled_paths() {
  const EnvConfig& env = env_config();
  DisabledPaths mask = 0;
  if (env.sm90_off) mask |= 1u << BWGEMM_PATH_SM90;
  if (env.sm100_off) mask |= 1u << BWGEMM_PATH_SM100;
  return mask;
}

}  // namespace bwgemm
