// SPDX-License-Identifier: MIT
// The sm90 family's variant catalog, which its launcher uses; declared here
// so that bwgemm-bench can build the same launch ahead of time.
#pragma once

#include "kernels/common/kernel_launch.h"

namespace bwgemm::sm90 {

extern const VariantCatalog kCatalog;

}  // namespace bwgemm::sm90
