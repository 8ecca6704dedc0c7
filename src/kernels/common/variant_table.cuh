// SPDX-License-Identifier: MIT
// Instantiating a kernel family's variants: the four operand-majorness
// combinations of one type pair. Used from each family's per-type
// translation units, and from the emulation build with emulated entries.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "kernels/common/persistent_launch.h"
#include "kernels/common/variant_select.h"

namespace bwgemm {

// Family provides `template <class AB, class Out, bool RowMN, bool ColMN>
// using Config`, `template <class Cfg> static KernelEntry entry()` and
// `kFirstVariantIndex` (where its variants start among all families').
template <class Family, class AB, class Out>
struct VariantQuad {
  template <bool kRowMN, bool kColMN>
  static KernelVariant variant() {
    using Cfg = typename Family::template Config<AB, Out, kRowMN, kColMN>;
    constexpr int index =
        Family::kFirstVariantIndex + variant_ordinal(std::is_same_v<AB, __nv_bfloat16>,
                                                     std::is_same_v<Out, float>, kRowMN, kColMN);
    return {Family::template entry<Cfg>(), Cfg::kSmemBytes, Cfg::kThreads, Cfg::kClusterSize,
            index};
  }

  static const KernelVariant& get(bool row_mn, bool col_mn) {
    static const KernelVariant quad[4] = {variant<false, false>(), variant<false, true>(),
                                          variant<true, false>(), variant<true, true>()};
    return quad[int(row_mn) * 2 + int(col_mn)];
  }
};

}  // namespace bwgemm

// Defines `variants_<name>(row_mn, col_mn)` (declared by the family's
// variants.h) over Family, for one row of BWGEMM_FOR_EACH_TYPE_PAIR.
#define BWGEMM_DEFINE_VARIANTS(Family, name, AB, Out)                        \
  const ::bwgemm::KernelVariant& variants_##name(bool row_mn, bool col_mn) { \
    return ::bwgemm::VariantQuad<Family, AB, Out>::get(row_mn, col_mn);      \
  }
