// SPDX-License-Identifier: MIT
// The compiled instantiations of the sm100 kernel, one per variant key (types,
// operand majorness), and the configurations the family offers.
#pragma once

#include "kernels/common/kernel_view.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/common/variant_select.h"

namespace bwgemm::sm100 {

// Where this family's variants start among all families' (KernelVariant::index).
constexpr int kFirstVariantIndex = 144;

// One per row of BWGEMM_FOR_EACH_TYPE_PAIR, defined in variants_<name>.cu
// (or by the emulation build).
#define BWGEMM_DECLARE_VARIANTS_(name, AB, Out) \
  const KernelVariant* variants_##name(int config, bool row_mn, bool col_mn);
BWGEMM_FOR_EACH_TYPE_PAIR(BWGEMM_DECLARE_VARIANTS_)
#undef BWGEMM_DECLARE_VARIANTS_

const KernelVariant* select_variant(int config, const VariantKey& key);

// The family's configurations (config.h's kShapes), by the index
// KernelFamily::choose_config returns: a name and the tile shape of each (for
// an output type), and the index of a name (-1: none).
const char* config_name(int config);
int config_by_name(const char* name);
TileShape tile_shape(int config, DType out_type);

}  // namespace bwgemm::sm100
