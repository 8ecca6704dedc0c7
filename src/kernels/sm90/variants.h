// SPDX-License-Identifier: MIT
// The compiled instantiations of the sm90 kernel, one per (types, operand
// majorness), and what the launcher needs to know of each.
#pragma once

#include <cstdint>

#include "dispatch/problem.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"

namespace bwgemm::sm90 {

using Variant = KernelVariant;

// Variant indices 0..15 (see KernelVariant::index).
constexpr int kVariantCount = 16;

// The instantiation for these types and operand majorness (kernel view).
const Variant& select_variant(DType ab, DType out, bool row_mn, bool col_mn);

// The tile shape every variant shares (for the parameter builder).
TileShape tile_shape();

}  // namespace bwgemm::sm90
