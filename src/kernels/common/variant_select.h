// SPDX-License-Identifier: MIT
// Choosing a family's compiled variant from the problem's types and operand
// majorness (host side).
#pragma once

#include "dispatch/problem.h"
#include "kernels/common/persistent_launch.h"

namespace bwgemm {

using VariantLookup = const KernelVariant& (*)(bool row_mn, bool col_mn);

// A family's instantiations, one lookup per (AB, Out) pair.
struct VariantTable {
  VariantLookup f16_f16, f16_f32, bf16_bf16, bf16_f32;
};

inline const KernelVariant& select_variant(const VariantTable& t, DType ab, DType out, bool row_mn,
                                           bool col_mn) {
  const bool f32_out = out == DType::F32;
  const VariantLookup lookup =
      ab == DType::F16 ? (f32_out ? t.f16_f32 : t.f16_f16) : (f32_out ? t.bf16_f32 : t.bf16_bf16);
  return lookup(row_mn, col_mn);
}

}  // namespace bwgemm
