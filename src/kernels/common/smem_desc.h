// SPDX-License-Identifier: MIT
// Shared-memory matrix descriptors for wgmma (sm90) and tcgen05.mma (sm100).
// Plain functions, usable on the host (unit tests) and the device.
#pragma once

#include <cstdint>

#include "kernels/ptx/device.cuh"

namespace bwgemm {

// Swizzle of a shared-memory tile; the TMA map that fills it must match.
enum class SmemSwizzle : uint8_t { None, B32, B64, B128 };

// The operand layouts the kernels use, both with 128-byte swizzling (PTX ISA
// 9.7.15.5.1 canonical layouts, T = 8 16-bit elements):
//  K-major:  rows of 128 B along K; SBO = byte distance between 8-row groups;
//            LBO unused (1). Advancing K by 16 elements adds 32 B to the start.
//  MN-major: rows of 128 B (64 elements) along M/N, one per K index; SBO =
//            distance between 8-K-row groups; LBO = distance between 64-element
//            M/N blocks. Advancing K by 16 adds 16 rows = 2048 B.
struct SmemDescFields {
  uint32_t start;  // shared-window byte address, 16-byte aligned
  uint32_t lbo;    // bytes, 16-byte aligned
  uint32_t sbo;    // bytes, 16-byte aligned
  SmemSwizzle swizzle;
};

// wgmma descriptor (PTX ISA 9.7.15.5.1.2.2): start, LBO, SBO >> 4 in bits
// 0-13, 16-29, 32-45; base offset 0 (tiles are swizzle-atom aligned); layout
// type in bits 62-63: 1 = 128B, 2 = 64B, 3 = 32B, 0 = none.
BWGEMM_HOST_DEVICE uint64_t encode_wgmma_desc(SmemDescFields f) {
  const uint64_t layout = f.swizzle == SmemSwizzle::B128  ? 1
                          : f.swizzle == SmemSwizzle::B64 ? 2
                          : f.swizzle == SmemSwizzle::B32 ? 3
                                                          : 0;
  return (uint64_t{(f.start & 0x3FFFF) >> 4}) | (uint64_t{(f.lbo & 0x3FFFF) >> 4} << 16) |
         (uint64_t{(f.sbo & 0x3FFFF) >> 4} << 32) | (layout << 62);
}

// tcgen05 descriptor (PTX ISA 9.7.16.4.1): the wgmma fields plus the fixed
// 0b001 in bits 46-48 and a 3-bit swizzle in bits 61-63 (2 = 128B, 4 = 64B,
// 6 = 32B) — the same bit patterns as wgmma's, so only bit 46 differs.
BWGEMM_HOST_DEVICE uint64_t encode_tcgen05_desc(SmemDescFields f) {
  return encode_wgmma_desc(f) | (uint64_t{1} << 46);
}

// The MMA a descriptor is for: the encodings differ in one fixed field.
enum class DescKind { Wgmma, Tcgen05 };

// Descriptor of a kernel's 128B-swizzled operand tile starting at the
// shared-window address `start` (the layouts above): SBO is one 8-row group
// of 128 B; an M/N-major tile's 64-element blocks lie `mn_block_bytes` apart.
template <DescKind kKind, bool kMNMajor>
BWGEMM_HOST_DEVICE uint64_t operand_desc(uint32_t start, uint32_t mn_block_bytes) {
  const SmemDescFields fields{start, kMNMajor ? mn_block_bytes : 16u, 1024u, SmemSwizzle::B128};
  if constexpr (kKind == DescKind::Wgmma)
    return encode_wgmma_desc(fields);
  else
    return encode_tcgen05_desc(fields);
}

// Bytes one MMA K step of 16 elements moves an operand tile's start address.
template <bool kMNMajor>
constexpr uint32_t kK16Bytes = kMNMajor ? 16 * 128 : 16 * 2;

// The descriptor of the same layout `bytes` further along K (the start field
// is the low 14 bits of the encoded value, in 16-byte units).
BWGEMM_HOST_DEVICE uint64_t advance_desc(uint64_t desc, uint32_t bytes) {
  return desc + (bytes >> 4);
}

}  // namespace bwgemm
