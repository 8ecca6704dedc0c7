// SPDX-License-Identifier: MIT
// The compiled instantiations of the sm90 kernel, one per configuration and
// variant key (types, operand majorness), and the configurations' names and
// tile shapes (config.h's kShapes).
#pragma once

#include "kernels/common/kernel_view.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/common/variant_select.h"
#include "kernels/sm90/config.h"

namespace bwgemm::sm90 {

// Where this family's variants start among all families' (KernelVariant::index).
constexpr int kFirstVariantIndex = 0;

// One per row of BWGEMM_FOR_EACH_TYPE_PAIR, defined in variants_<name>.cu
// (or by the emulation build).
#define BWGEMM_DECLARE_VARIANTS_(name, AB, Out) \
  const KernelVariant* variants_##name(int config, bool row_mn, bool col_mn);
BWGEMM_FOR_EACH_TYPE_PAIR(BWGEMM_DECLARE_VARIANTS_)
#undef BWGEMM_DECLARE_VARIANTS_

// NULL when `config` is not compiled for the key's layout.
const KernelVariant* select_variant(int config, const VariantKey& key);

// The decode kernel (kernels/decode/) is the family's configuration after
// the wgmma kernel's (config.h's kShapes).
constexpr int kDecodeConfig = kConfigCount;
constexpr int kFamilyConfigCount = kConfigCount + 1;

// The family's configurations, by the index KernelFamily::choose_config
// returns: a name and, for the wgmma kernel's, the tile shape of each (for an
// output type).
const char* config_name(int config);
TileShape tile_shape(int config, DType out_type);
// Whether the wgmma `config` reads p's B (the row operand) where TMA cannot
// address it, in place: by row classes or through row windows
// (launch_params.h's row_class_use). False for the decode configuration.
bool reads_unaligned_b(const GemmProblem& p, int config);
// The configuration named `name`, or -1.
int config_by_name(const char* name);
// Whether `config` is compiled for the operand layout of `key`.
bool config_compiled(int config, const VariantKey& key);

}  // namespace bwgemm::sm90
