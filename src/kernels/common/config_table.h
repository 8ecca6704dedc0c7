// SPDX-License-Identifier: MIT
// What both families' selections read of their configuration tables: each
// configuration's shared memory, and the one an environment variable names.
#pragma once

#include <cuda_fp16.h>

#include <array>
#include <cstdint>
#include <utility>

#include "core/log.h"

namespace bwgemm {

// Each configuration's shared memory with fp32 output (the largest staging),
// for ConfigFor<AB, Out, kRowMN, kColMN, kConfig> of a family.
template <template <class, class, bool, bool, int> class ConfigFor, int... kConfigs>
constexpr std::array<uint32_t, sizeof...(kConfigs)> config_smem_bytes(
    std::integer_sequence<int, kConfigs...>) {
  return {ConfigFor<__half, float, false, false, kConfigs>::kSmemBytes...};
}

// The configuration `value` (an environment variable's, NULL when unset)
// names, or -1; an unknown name is warned about (callers keep the answer, so
// once).
inline int config_named_by(const char* variable, const char* value, int (*by_name)(const char*),
                           const char* family) {
  if (value == nullptr) return -1;
  const int config = by_name(value);
  if (config < 0) log_warning("%s=%s ignored: no such %s configuration", variable, value, family);
  return config;
}

}  // namespace bwgemm
