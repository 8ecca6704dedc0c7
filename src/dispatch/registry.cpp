// SPDX-License-Identifier: MIT
#include "dispatch/registry.h"

namespace bwgemm {
namespace sm90 {
extern const KernelFamily kFamily;
}
namespace sm100 {
extern const KernelFamily kFamily;
}

KernelFamilyList registered_kernel_families() {
  static const KernelFamily* const families[] = {&sm100::kFamily, &sm90::kFamily};
  return {families, sizeof families / sizeof families[0]};
}

}  // namespace bwgemm
