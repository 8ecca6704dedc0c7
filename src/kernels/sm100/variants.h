// SPDX-License-Identifier: MIT
// The compiled instantiations of the sm100 kernel, one per (types, operand
// majorness).
#pragma once

#include "dispatch/problem.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"

namespace bwgemm::sm100 {

// Variant indices 16..31 (see KernelVariant::index; sm90 has 0..15).
constexpr int kFirstVariantIndex = 16;

const KernelVariant& select_variant(DType ab, DType out, bool row_mn, bool col_mn);

// The tile shape every variant shares (the launcher sets out_box_cols).
TileShape tile_shape();

}  // namespace bwgemm::sm100
