// SPDX-License-Identifier: MIT
// The kernel families built into libbwgemm (dispatch/registry.cpp; the unit
// tests register fakes instead).
#pragma once

#include "kernels/kernel_family.h"

namespace bwgemm {

// In order of preference.
struct KernelFamilyList {
  const KernelFamily* const* items;
  int count;
};
KernelFamilyList registered_kernel_families();

}  // namespace bwgemm
