// SPDX-License-Identifier: MIT
// A family's compiled instantiations and how a call picks one (host side).
//
// Every family instantiates its kernel for each type pair of
// BWGEMM_FOR_EACH_TYPE_PAIR and each operand majorness, per configuration: up
// to 16 variants per configuration, whose dense index follows from the
// configuration and the key alone (no numbering by hand).
#pragma once

#include "kernels/common/kernel_view.h"
#include "kernels/common/persistent_launch.h"

// X(name, AB, Out): the (operand, output) types the kernels take.
#define BWGEMM_FOR_EACH_TYPE_PAIR(X)         \
  X(f16_f16, __half, __half)                 \
  X(f16_f32, __half, float)                  \
  X(bf16_bf16, __nv_bfloat16, __nv_bfloat16) \
  X(bf16_f32, __nv_bfloat16, float)

namespace bwgemm {

constexpr int kVariantsPerConfig = 16;

// The position of a key among its family's variants.
constexpr int variant_ordinal(bool ab_bf16, bool out_f32, bool row_mn, bool col_mn) {
  return (int(ab_bf16) * 2 + int(out_f32)) * 4 + int(row_mn) * 2 + int(col_mn);
}

inline int variant_ordinal(const VariantKey& k) {
  return variant_ordinal(k.ab_type == DType::BF16, k.out_type == DType::F32, k.row_mn, k.col_mn);
}

// The majorness variants of one type pair in one configuration; NULL where
// the configuration is not compiled for the layout.
using VariantLookup = const KernelVariant* (*)(int config, bool row_mn, bool col_mn);

// A family's instantiations, one lookup per type pair.
struct VariantTable {
  VariantLookup f16_f16, f16_f32, bf16_bf16, bf16_f32;
};

inline const KernelVariant* select_variant(const VariantTable& t, int config, const VariantKey& k) {
  const bool f32_out = k.out_type == DType::F32;
  const VariantLookup lookup = k.ab_type == DType::F16 ? (f32_out ? t.f16_f32 : t.f16_f16)
                                                       : (f32_out ? t.bf16_f32 : t.bf16_bf16);
  return lookup(config, k.row_mn, k.col_mn);
}

}  // namespace bwgemm
