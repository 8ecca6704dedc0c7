// SPDX-License-Identifier: MIT
// src/kernels/common/line_geometry.h: the line loader's arithmetic against
// direct byte- and element-level models: a line's slots are the TMA's
// 128B-swizzled row, lines map onto the operand as TMA boxes would (zeros
// outside it), a line's bytes come out of its window at every offset, and
// masking keeps exactly the elements inside the operand.
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/line_geometry.h"
#include "support/cmocka_cxx.h"

namespace {

// The slots are the swizzled rows the TMA writes (and the epilogue stages).
void line_slots_are_the_tma_swizzle(void**) {
  for (uint32_t line = 0; line < 256; ++line)
    for (uint32_t chunk = 0; chunk < 8; ++chunk)
      assert_int_equal(bwgemm::line_slot(line, chunk),
                       bwgemm::epilogue::swizzled_offset(line, chunk * 16));
}

// Element (mn, k) of an operand as TMA boxes of a tile at (mn0, k0) lay it
// out: K-major tiles are kLines rows of 64 K; M/N-major ones 64-wide boxes of
// M/N, 64 rows of K each. -1: outside the operand (zero).
int64_t tma_element(bool mn_major, int64_t ld, int32_t extent, int32_t depth, int32_t mn0,
                    int32_t k0, int32_t line, int32_t e) {
  const int32_t mn = mn_major ? mn0 + line / 64 * 64 + e : mn0 + line;
  const int32_t k = mn_major ? k0 + line % 64 : k0 + e;
  if (mn >= extent || k >= depth) return -1;
  return mn_major ? int64_t(k) * ld + mn : int64_t(mn) * ld + k;
}

template <bool kMNMajor>
void check_tile_lines(int32_t extent, int32_t depth) {
  const int64_t ld = (kMNMajor ? extent : depth) + 3;
  alignas(16) static const uint8_t plane[16] = {};
  for (int32_t mn0 = 0; mn0 < extent + 128; mn0 += 128)
    for (int32_t k0 = 0; k0 < depth; k0 += 64) {
      const bwgemm::TileLines<kMNMajor> t =
          bwgemm::tile_lines<kMNMajor>(plane, ld, extent, depth, mn0, k0);
      for (int32_t line = 0; line < 256; ++line) {
        const int32_t count = t.count(line);
        assert_true(count >= 0 && count <= 64);
        for (int32_t e = 0; e < 64; ++e) {
          const int64_t want = tma_element(kMNMajor, ld, extent, depth, mn0, k0, line, e);
          if (e < count)
            assert_int_equal(t.start(line) + 2 * e - plane, 2 * want);
          else
            assert_int_equal(want, -1);
        }
      }
    }
}

void tile_lines_match_the_tma_boxes(void**) {
  for (int32_t extent : {1, 63, 64, 130, 301})
    for (int32_t depth : {1, 8, 64, 77, 203}) {
      check_tile_lines<false>(extent, depth);
      check_tile_lines<true>(extent, depth);
    }
}

uint4 load16(const uint8_t* p) {
  uint4 v;
  memcpy(&v, p, 16);
  return v;
}

// Every even shift of every 32-byte window: the 16 bytes from there.
void window_bytes_shift_by_every_offset(void**) {
  uint8_t window[32];
  for (int i = 0; i < 32; ++i) window[i] = uint8_t(0x11 + 7 * i);
  for (uint32_t shift = 0; shift < 16; shift += 2) {
    const uint4 got = bwgemm::window_bytes(load16(window), load16(window + 16), shift);
    assert_memory_equal(&got, window + shift, 16);
  }
}

void keep_elements_masks_past_the_operand(void**) {
  uint16_t elems[8];
  for (int i = 0; i < 8; ++i) elems[i] = uint16_t(0x8001 + 0x1111 * i);
  for (int32_t valid = -3; valid <= 11; ++valid) {
    const uint4 got = bwgemm::keep_elements(load16(reinterpret_cast<uint8_t*>(elems)), valid);
    uint16_t out[8];
    memcpy(out, &got, 16);
    for (int i = 0; i < 8; ++i) assert_int_equal(out[i], i < valid ? elems[i] : 0);
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(line_slots_are_the_tma_swizzle),
      cmocka_unit_test(tile_lines_match_the_tma_boxes),
      cmocka_unit_test(window_bytes_shift_by_every_offset),
      cmocka_unit_test(keep_elements_masks_past_the_operand),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
