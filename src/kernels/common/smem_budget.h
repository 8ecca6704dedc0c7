// SPDX-License-Identifier: MIT
// What a CTA's shared memory may hold on sm_90 and sm_100, for the families'
// static_asserts (tests/sass/check_sass.py reads kStaticSmemAllowance).
#pragma once

#include <cstdint>

namespace bwgemm {

// The opt-in maximum per block on sm_90 and sm_100 (227 KB; the 1 KB the
// system reserves per CTA is not part of it).
constexpr uint32_t kSmemPerBlockOptin = 232448;
// What an SM holds for all its CTAs (228 KB), and what the system reserves
// of it per CTA.
constexpr uint32_t kSmemPerSm = 233472;
constexpr uint32_t kSmemReservedPerBlock = 1024;

// The static shared memory the compiler may give a kernel, counted to the
// 1024-byte boundary where the dynamic region (aligned to 1024) starts. The
// SASS check fails when a kernel's static shared memory exceeds it.
constexpr uint32_t kStaticSmemAllowance = 1024;

}  // namespace bwgemm
