// SPDX-License-Identifier: MIT
// src/kernels/common/smem_desc.h (wgmma and tcgen05 shared-memory matrix
// descriptors, against worked and golden values) and the 128B-swizzled
// staging layout of epilogue.cuh. (pipeline_state.h: test_pipeline_state.)
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/smem_desc.h"
#include "support/cmocka_cxx.h"

using bwgemm::SmemDescFields;
using bwgemm::SmemSwizzle;

namespace {

uint64_t bits(uint64_t v, int lo, int count) { return (v >> lo) & ((uint64_t{1} << count) - 1); }

constexpr SmemSwizzle kSwizzles[] = {SmemSwizzle::None, SmemSwizzle::B32, SmemSwizzle::B64,
                                     SmemSwizzle::B128};

// PTX ISA 9.7.15.5.1.2.2: the wgmma layout type in bits 62-63.
uint64_t wgmma_layout(SmemSwizzle s) {
  switch (s) {
    case SmemSwizzle::None: return 0;
    case SmemSwizzle::B128: return 1;
    case SmemSwizzle::B64: return 2;
    case SmemSwizzle::B32: return 3;
  }
  return 0;
}

// PTX ISA 9.7.16.4.1: the tcgen05 swizzle mode in bits 61-63.
uint64_t tcgen05_swizzle(SmemSwizzle s) {
  switch (s) {
    case SmemSwizzle::None: return 0;
    case SmemSwizzle::B128: return 2;
    case SmemSwizzle::B64: return 4;
    case SmemSwizzle::B32: return 6;
  }
  return 0;
}

// Shared-window addresses and offsets (16-byte multiples) spread over the
// 18-bit range, plus values with bits above it, which the encoding drops.
const uint32_t kAddresses[] = {0,       16,      1024,    0x3FFF0, 0x12340,
                               0x2A5A0, 0x40000, 0x41230, 0xFFFF0, 0x10400};

void wgmma_fields_are_in_place(void**) {
  for (uint32_t start : kAddresses)
    for (uint32_t lbo : {16u, 1024u, 8192u, 0x3FFF0u})
      for (uint32_t sbo : {16u, 1024u, 2048u, 0x41000u})
        for (SmemSwizzle sw : kSwizzles) {
          const uint64_t d = bwgemm::encode_wgmma_desc({start, lbo, sbo, sw});
          assert_int_equal(bits(d, 0, 14), (start % 0x40000) / 16);
          assert_int_equal(bits(d, 14, 2), 0);
          assert_int_equal(bits(d, 16, 14), (lbo % 0x40000) / 16);
          assert_int_equal(bits(d, 30, 2), 0);
          assert_int_equal(bits(d, 32, 14), (sbo % 0x40000) / 16);
          // Base offset 0 and the bits wgmma leaves unused.
          assert_int_equal(bits(d, 46, 16), 0);
          assert_int_equal(bits(d, 62, 2), wgmma_layout(sw));
        }
}

void tcgen05_is_wgmma_plus_bit_46(void**) {
  for (uint32_t start : kAddresses)
    for (uint32_t sbo : {16u, 1024u, 2048u})
      for (SmemSwizzle sw : kSwizzles) {
        const SmemDescFields f{start, 16, sbo, sw};
        const uint64_t d = bwgemm::encode_tcgen05_desc(f);
        assert_int_equal(bits(d, 0, 46), bits(bwgemm::encode_wgmma_desc(f), 0, 46));
        // The fixed 0b001 in bits 46-48, base offset 0, LBO mode 0.
        assert_int_equal(bits(d, 46, 3), 1);
        assert_int_equal(bits(d, 49, 12), 0);
        assert_int_equal(bits(d, 61, 3), tcgen05_swizzle(sw));
      }
}

// The descriptors the kernels build, worked out by hand.
void worked_values(void**) {
  // K-major SW128 tile at 0x400: LBO 16 (the "unused, 1" field), SBO 1024.
  assert_int_equal(bwgemm::encode_wgmma_desc({0x400, 16, 1024, SmemSwizzle::B128}),
                   0x4000004000010040ull);
  // MN-major SW128 tile at 0x8000 with 64-element blocks 8 KB apart.
  assert_int_equal(bwgemm::encode_wgmma_desc({0x8000, 8192, 1024, SmemSwizzle::B128}),
                   0x4000004002000800ull);
  // The same K-major tile for tcgen05: high word 0x40004040, as the sm_100a
  // probe's SASS showed (UMOV UR7, 0x40004040).
  const uint64_t t = bwgemm::encode_tcgen05_desc({0x400, 16, 1024, SmemSwizzle::B128});
  assert_int_equal(t >> 32, 0x40004040u);
  assert_int_equal(t & 0xFFFFFFFFu, 0x00010040u);
  // Addresses wrap at the 18-bit shared window.
  assert_int_equal(bwgemm::encode_wgmma_desc({0x40400, 16, 1024, SmemSwizzle::B128}),
                   0x4000004000010040ull);
}

// advance_desc(desc(start), bytes) == desc(start + bytes): the K steps the
// kernels take (32 B in a K-major atom, 2048 B for MN-major, one atom).
void advance_moves_only_the_start(void**) {
  for (uint32_t start : {0u, 0x400u, 0x8000u, 0x1F000u, 0x30000u})
    for (uint32_t bytes : {32u, 64u, 96u, 1024u, 2048u, 4096u, 6144u})
      for (SmemSwizzle sw : kSwizzles) {
        const uint64_t d = bwgemm::encode_wgmma_desc({start, 16, 1024, sw});
        const uint64_t moved = bwgemm::advance_desc(d, bytes);
        assert_int_equal(moved, bwgemm::encode_wgmma_desc({start + bytes, 16, 1024, sw}));
        assert_int_equal(moved - d, bytes / 16);
        const uint64_t t = bwgemm::encode_tcgen05_desc({start, 8192, 1024, sw});
        assert_int_equal(bwgemm::advance_desc(t, bytes),
                         bwgemm::encode_tcgen05_desc({start + bytes, 8192, 1024, sw}));
      }
  // The K-major k-loop: +2 per 16-element step of 16-bit data.
  const uint64_t d = bwgemm::encode_wgmma_desc({0x400, 16, 1024, SmemSwizzle::B128});
  for (uint32_t kk = 0; kk < 4; ++kk)
    assert_int_equal(bits(bwgemm::advance_desc(d, kk * 32), 0, 14), 0x40 + 2 * kk);
}

// The TMA 128B swizzle (CU_TENSOR_MAP_SWIZZLE_128B, a 1024-byte aligned
// buffer): byte address bits 4-6 are XORed with bits 7-9.
uint32_t tma_swizzle_128b(uint32_t address) { return address ^ (((address >> 7) & 7) << 4); }

void staging_offsets_follow_the_tma_128b_swizzle(void**) {
  for (uint32_t row = 0; row < 64; ++row)
    for (uint32_t byte = 0; byte < 128; ++byte)
      assert_int_equal(bwgemm::epilogue::swizzled_offset(row, byte),
                       tma_swizzle_128b(row * 128 + byte));
  // Worked values: the 16-byte chunk index XOR row % 8, bytes within a chunk kept.
  assert_int_equal(bwgemm::epilogue::swizzled_offset(0, 17), 17);
  assert_int_equal(bwgemm::epilogue::swizzled_offset(1, 0), 128 + 16);
  assert_int_equal(bwgemm::epilogue::swizzled_offset(7, 112), 7 * 128);
  assert_int_equal(bwgemm::epilogue::swizzled_offset(9, 36), 9 * 128 + 3 * 16 + 4);
  // A 64 x 128-byte chunk is a permutation of its 8 KB.
  std::vector<int> hit(64 * 128, 0);
  for (uint32_t row = 0; row < 64; ++row)
    for (uint32_t byte = 0; byte < 128; ++byte) ++hit[bwgemm::epilogue::swizzled_offset(row, byte)];
  for (int h : hit) assert_int_equal(h, 1);
}

// The descriptors the kernels build (operand_desc, with their box sizes)
// against the golden words CUTLASS's UMMA::SmemDescriptor gives for 16-bit
// types, 128B swizzle, SBO 1024 B, version bit 46 (K-major LBO field 1,
// M/N-major LBO 8 KB): K-major 0x4000404000010000 | start >> 4, M/N-major
// 0x4000404002000000 | start >> 4. wgmma's are the same words without bit 46.
void operand_descriptors_match_the_golden_words(void**) {
  constexpr uint32_t kBoxBytes = 64 * 64 * 2;  // an M/N-major box of both configs
  for (uint32_t start : {0x400u, 0x1c000u, 0x33c00u}) {
    assert_int_equal((bwgemm::operand_desc<bwgemm::DescKind::Tcgen05, false>(start, kBoxBytes)),
                     0x4000404000010000ull | (start >> 4));
    assert_int_equal((bwgemm::operand_desc<bwgemm::DescKind::Tcgen05, true>(start, kBoxBytes)),
                     0x4000404002000000ull | (start >> 4));
    assert_int_equal((bwgemm::operand_desc<bwgemm::DescKind::Wgmma, false>(start, kBoxBytes)),
                     0x4000004000010000ull | (start >> 4));
    assert_int_equal((bwgemm::operand_desc<bwgemm::DescKind::Wgmma, true>(start, kBoxBytes)),
                     0x4000004002000000ull | (start >> 4));
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(wgmma_fields_are_in_place),
      cmocka_unit_test(tcgen05_is_wgmma_plus_bit_46),
      cmocka_unit_test(worked_values),
      cmocka_unit_test(advance_moves_only_the_start),
      cmocka_unit_test(staging_offsets_follow_the_tma_128b_swizzle),
      cmocka_unit_test(operand_descriptors_match_the_golden_words),
  };
  return cmocka_run_group_tests_name("smem_desc", tests, nullptr, nullptr);
}
