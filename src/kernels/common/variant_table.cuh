// SPDX-License-Identifier: MIT
// Instantiating a kernel family's variants: for one type pair, every
// configuration of the family in the operand-majorness combinations it is
// compiled for. Used from each family's per-type translation units, and from
// the emulation build with emulated entries.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>
#include <utility>

#include "kernels/common/persistent_launch.h"
#include "kernels/common/variant_select.h"

namespace bwgemm {

// Family provides `template <class AB, class Out, bool RowMN, bool ColMN, int
// Config> using Config`, `template <class Cfg> static KernelEntry entry()`,
// `kFirstVariantIndex` (where its variants start among all families'),
// `programmatic_launch(config)` (the configuration's kernel waits for the
// previous grid itself and may be launched as a programmatic dependent),
// `kConfigCount` and `static constexpr bool compiled(int config, bool row_mn,
// bool col_mn)`.
template <class Family, class AB, class Out>
struct VariantTableOf {
  template <int kConfig, bool kRowMN, bool kColMN>
  static KernelVariant variant() {
    if constexpr (Family::compiled(kConfig, kRowMN, kColMN)) {
      using Cfg = typename Family::template Config<AB, Out, kRowMN, kColMN, kConfig>;
      constexpr int index = Family::kFirstVariantIndex + kConfig * kVariantsPerConfig +
                            variant_ordinal(std::is_same_v<AB, __nv_bfloat16>,
                                            std::is_same_v<Out, float>, kRowMN, kColMN);
      static_assert(index < kMaxKernelVariants);
      return {Family::template entry<Cfg>(),
              Cfg::kSmemBytes,
              Cfg::kThreads,
              Cfg::kClusterSize,
              index,
              Family::programmatic_launch(kConfig)};
    } else {
      return {nullptr, 0, 0, 0, -1, false};
    }
  }

  template <int... kConfigs>
  static const KernelVariant* table(std::integer_sequence<int, kConfigs...>) {
    static const KernelVariant all[] = {
        (variant<kConfigs / 4, (kConfigs % 4) / 2 == 1, kConfigs % 2 == 1>())...};
    return all;
  }

  // NULL where the configuration is not compiled for the layout.
  static const KernelVariant* get(int config, bool row_mn, bool col_mn) {
    static const KernelVariant* all =
        table(std::make_integer_sequence<int, Family::kConfigCount * 4>{});
    const KernelVariant& v = all[config * 4 + int(row_mn) * 2 + int(col_mn)];
    return v.kernel != nullptr ? &v : nullptr;
  }
};

}  // namespace bwgemm

// Defines `variants_<name>(config, row_mn, col_mn)` (declared by the family's
// variants.h) over Family, for one row of BWGEMM_FOR_EACH_TYPE_PAIR.
#define BWGEMM_DEFINE_VARIANTS(Family, name, AB, Out)                                    \
  const ::bwgemm::KernelVariant* variants_##name(int config, bool row_mn, bool col_mn) { \
    return ::bwgemm::VariantTableOf<Family, AB, Out>::get(config, row_mn, col_mn);       \
  }
