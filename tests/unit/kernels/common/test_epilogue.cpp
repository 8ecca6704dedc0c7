// SPDX-License-Identifier: MIT
// src/kernels/common/epilogue.cuh: the threads' store of a staged chunk
// (store_chunk_bounded) into D whose rows start at any element alignment,
// against a direct element-by-element copy: every element inside rows x cols
// lands where it belongs, nothing outside (the rows' padding, the rows and
// columns past the bounds) is touched; and the rotated rows of D that TMA
// cannot store (store_rotated_row). (swizzled_offset: test_smem_desc.)
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/common/epilogue.cuh"
#include "support/cmocka_cxx.h"

namespace {

constexpr int kChunkRows = 64;
constexpr uint32_t kThreads = 128;

// An element's bits from its place in the whole of D: never 0 and never the
// sentinel, distinct for every (row, col) of a chunk.
template <class Bits>
Bits pattern(int64_t row, int64_t col) {
  return Bits(1 + ((row * 131 + col * 7) % ((uint64_t{1} << (8 * sizeof(Bits) - 1)) - 3)));
}

template <class Out, class Bits>
void check_store(int64_t ld, int32_t base_offset, int32_t row0, int32_t col0, int32_t rows,
                 int32_t cols) {
  constexpr int kChunkCols = 128 / int(sizeof(Out));
  constexpr Bits kSentinel = Bits(~Bits{0});
  // The staging chunk holds D's values of rows [row0, row0 + 64) and columns
  // [col0, col0 + kChunkCols), 128B-swizzled.
  alignas(1024) static uint8_t staging[kChunkRows * 128];
  for (uint32_t r = 0; r < kChunkRows; ++r)
    for (uint32_t c = 0; c < uint32_t(kChunkCols); ++c) {
      const Bits v = pattern<Bits>(row0 + r, col0 + c);
      memcpy(staging + bwgemm::epilogue::swizzled_offset(r, c * sizeof(Out)), &v, sizeof v);
    }
  const int64_t elements = base_offset + (row0 + kChunkRows + 1) * ld;
  std::vector<Bits> memory(size_t(elements + 16), kSentinel);
  // 16-byte aligned storage, D's base base_offset elements into it.
  Bits* aligned = memory.data();
  while (reinterpret_cast<uintptr_t>(aligned) % 16 != 0) ++aligned;
  Out* d = reinterpret_cast<Out*>(aligned + base_offset);
  for (uint32_t t = 0; t < kThreads; ++t)
    bwgemm::epilogue::store_chunk_bounded<Out, kChunkCols>(staging, kChunkRows, d, ld, row0, col0,
                                                           rows, cols, t, kThreads);
  for (int64_t i = 0; i < (row0 + kChunkRows + 1) * ld; ++i) {
    const int64_t row = i / ld, col = i % ld;
    const bool inside = row >= row0 && row < row0 + kChunkRows && row < rows && col >= col0 &&
                        col < col0 + kChunkCols && col < cols;
    Bits got;
    memcpy(&got, reinterpret_cast<const uint8_t*>(d) + i * sizeof(Out), sizeof got);
    const Bits want = inside ? pattern<Bits>(row, col) : kSentinel;
    if (got != want)
      fail_msg(
          "ld %lld base+%d chunk (%d, %d) bounds %dx%d: element (%lld, %lld) is %llx, want %llx",
          (long long)ld, base_offset, row0, col0, rows, cols, (long long)row, (long long)col,
          (unsigned long long)got, (unsigned long long)want);
  }
  // Nothing before D's base either.
  for (int32_t i = 0; i < base_offset; ++i) assert_int_equal(aligned[i], kSentinel);
}

void half_rows_at_every_alignment(void**) {
  for (int32_t base = 0; base < 8; ++base)
    for (int64_t ld : {64 + 0, 64 + 1, 64 + 3, 64 + 8, 50257 % 1024 + 64})
      for (int32_t cols : {64, 63, 57, 9, 1}) {
        check_store<__half, uint16_t>(ld, base, 0, 0, 1 << 20, cols);   // all rows inside
        check_store<__half, uint16_t>(ld, base, 64, 0, 64 + 37, cols);  // rows cut at 37
      }
}

void half_chunks_inside_wider_rows(void**) {
  // A chunk at column 64 of a 200-column D (ld >= 200), cut by cols or not.
  for (int32_t base = 0; base < 8; ++base)
    for (int64_t ld : {200, 201, 205, 207})
      for (int32_t cols : {200, 128, 100, 65})
        check_store<__half, uint16_t>(ld, base, 0, 64, 64, cols);
}

void float_rows_at_every_alignment(void**) {
  for (int32_t base = 0; base < 4; ++base)
    for (int64_t ld : {32, 33, 34, 35, 37})
      for (int32_t cols : {32, 31, 5, 1}) {
        check_store<float, uint32_t>(ld, base, 0, 0, 1 << 20, cols);
        check_store<float, uint32_t>(ld, base, 64, 0, 64 + 3, cols);
      }
}

// store_rotated_row: a row staged rotated (the fill's placement through
// row_rotation and rotated_offset) and written to D by the 32 lanes of a warp
// at every alignment of its start, for every length up to the staged width.
// Every element lands, nothing before or after it is touched, every pair the
// fill stores (from an even column) sits in one of the buffer's pair slots,
// and D's 16-byte boundaries fall on the buffer's or one element before them
// (the lag the row store shifts in).
template <class Out, class Bits, int kRowBytes>
void check_rotated_rows() {
  constexpr uint32_t kElem = sizeof(Out), kWidth = kRowBytes / kElem;
  constexpr Bits kSentinel = Bits(~Bits{0});
  alignas(1024) static uint8_t staging[kRowBytes];
  std::vector<Bits> memory(kWidth + 64, kSentinel);
  Bits* aligned = memory.data();
  while (reinterpret_cast<uintptr_t>(aligned) % 16 != 0) ++aligned;
  for (uint32_t shift = 0; shift < 16 / kElem; ++shift)
    for (uint32_t row = 0; row < 9; ++row)
      for (uint32_t elements = 1; elements <= kWidth; ++elements) {
        std::fill(memory.begin(), memory.end(), kSentinel);
        Bits* dst = aligned + shift;
        const uint32_t rotation =
            bwgemm::epilogue::row_rotation(reinterpret_cast<const Out*>(dst), row);
        assert_int_equal(rotation % 16, shift / 2 * 2 * kElem);
        assert_int_equal(rotation / 16, row % 8);
        memset(staging, 0xA5, sizeof staging);
        for (uint32_t c = 0; c < kWidth; ++c) {
          const uint32_t at = bwgemm::epilogue::rotated_offset<kRowBytes>(rotation, c * kElem);
          if (c % 2 == 0) assert_int_equal(at % (2 * kElem), 0);
          const Bits v = pattern<Bits>(row, c);
          memcpy(staging + at, &v, sizeof v);
        }
        const uint32_t to_boundary = (16 - uint32_t(reinterpret_cast<uintptr_t>(dst) % 16)) % 16;
        const uint32_t lag = shift % 2 * kElem;
        assert_int_equal(
            (bwgemm::epilogue::rotated_offset<kRowBytes>(rotation, to_boundary) + lag) % 16, 0);
        for (uint32_t lane = 0; lane < 32; ++lane)
          bwgemm::epilogue::store_rotated_row<Out, kRowBytes>(
              staging, rotation, reinterpret_cast<Out*>(dst), elements, lane);
        for (size_t i = 0; i < memory.size(); ++i) {
          const int64_t col = int64_t(&memory[i] - dst);
          const bool inside = col >= 0 && col < int64_t(elements);
          const Bits want = inside ? pattern<Bits>(row, col) : kSentinel;
          if (memory[i] != want)
            fail_msg("shift %u row %u elements %u: element %lld is %llx, want %llx", shift, row,
                     elements, (long long)col, (unsigned long long)memory[i],
                     (unsigned long long)want);
        }
      }
}

void rotated_rows_at_every_alignment(void**) {
  check_rotated_rows<__half, uint16_t, 128>();
  check_rotated_rows<__half, uint16_t, 512>();
  check_rotated_rows<__half, uint16_t, 1024>();  // two words a lane
  check_rotated_rows<float, uint32_t, 256>();
  check_rotated_rows<float, uint32_t, 512>();
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(half_rows_at_every_alignment),
      cmocka_unit_test(half_chunks_inside_wider_rows),
      cmocka_unit_test(float_rows_at_every_alignment),
      cmocka_unit_test(rotated_rows_at_every_alignment),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
