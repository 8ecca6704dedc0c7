// SPDX-License-Identifier: MIT
// src/kernels/common/word_window.cuh: the word cut from two aligned 16-byte
// words at every 2-byte boundary, against the bytes an unaligned 16-byte
// read of the same memory returns; and the epilogue's use of it, with only
// the previous word's last 4 bytes known.
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "kernels/common/word_window.cuh"
#include "support/cmocka_cxx.h"

namespace {

// Two neighbouring words of distinct bytes, lo first in memory.
void fill(uint8_t (&memory)[32], uint4& lo, uint4& hi) {
  for (int i = 0; i < 32; ++i) memory[i] = uint8_t(0x11 + 7 * i);
  memcpy(&lo, memory, 16);
  memcpy(&hi, memory + 16, 16);
}

void window_is_the_unaligned_read_at_every_element(void**) {
  uint8_t memory[32];
  uint4 lo, hi;
  fill(memory, lo, hi);
  for (int e = 0; e < 8; ++e) {
    const uint4 got = bwgemm::word_window(lo, hi, e);
    if (memcmp(&got, memory + 2 * e, 16) != 0)
      fail_msg("element %d: got %08x %08x %08x %08x", e, got.x, got.y, got.z, got.w);
  }
}

// The rotated row store knows the 4 bytes before the aligned word: for a lag
// of one 2-byte or 4-byte element that is all the window reads of lo.
void window_of_one_element_back_reads_only_lo_w(void**) {
  uint8_t memory[32];
  uint4 lo, hi;
  fill(memory, lo, hi);
  for (const int elem_bytes : {2, 4}) {
    const uint4 got = bwgemm::word_window(uint4{0, 0, 0, lo.w}, hi, (16 - elem_bytes) / 2);
    if (memcmp(&got, memory + 16 - elem_bytes, 16) != 0)
      fail_msg("%d-byte element: got %08x %08x %08x %08x", elem_bytes, got.x, got.y, got.z, got.w);
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(window_is_the_unaligned_read_at_every_element),
      cmocka_unit_test(window_of_one_element_back_reads_only_lo_w),
  };
  return cmocka_run_group_tests_name("word_window", tests, nullptr, nullptr);
}
