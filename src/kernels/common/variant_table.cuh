// SPDX-License-Identifier: MIT
// Instantiating a kernel family's variants: the four operand-majorness
// combinations of one (AB, Out) pair. Used from each family's per-type
// translation units.
#pragma once

#include "kernels/common/persistent_launch.h"

namespace bwgemm {

// Family provides `template <class AB, class Out, bool RowMN, bool ColMN>
// using Config` and `template <class Cfg> static KernelVariant variant(int)`.
template <class Family, class AB, class Out>
struct VariantQuad {
  // Indexed by row_mn * 2 + col_mn; dense indices from `first`.
  static const KernelVariant& get(bool row_mn, bool col_mn, int first) {
    static const KernelVariant quad[4] = {
        Family::template variant<typename Family::template Config<AB, Out, false, false>>(first),
        Family::template variant<typename Family::template Config<AB, Out, false, true>>(first + 1),
        Family::template variant<typename Family::template Config<AB, Out, true, false>>(first + 2),
        Family::template variant<typename Family::template Config<AB, Out, true, true>>(first + 3),
    };
    return quad[int(row_mn) * 2 + int(col_mn)];
  }
};

}  // namespace bwgemm
