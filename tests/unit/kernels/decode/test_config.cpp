// SPDX-License-Identifier: MIT
// src/kernels/decode/config.h: the shape a launch runs, two or three CTAs an
// SM by how full their waves are, in 8-row halves where those load the
// busiest SM less.
#include "kernels/decode/config.h"
#include "support/cmocka_cxx.h"

namespace {

using bwgemm::decode::kHalfBlocksShape;
using bwgemm::decode::kThreeAnSmShape;
using bwgemm::decode::launch_shape;

constexpr int kSms = 132;  // 264 CTAs a wave two an SM, 396 three an SM

void halves_where_they_spread_the_weight(void**) {
  assert_int_equal(launch_shape(0, 1, kSms), kHalfBlocksShape);
  assert_int_equal(launch_shape(0, 64, kSms), kHalfBlocksShape);  // 1024 rows: 64 SMs -> 128
  assert_int_equal(launch_shape(0, 66, kSms), kHalfBlocksShape);  // 132 halves, one an SM
  // Past 132 blocks: two blocks on the busiest SM -> three halves, three an
  // SM (3072 rows: 192 blocks).
  assert_int_equal(launch_shape(0, 133, kSms), kHalfBlocksShape + 1);
  assert_int_equal(launch_shape(0, 192, kSms), kHalfBlocksShape + 1);
  assert_int_equal(launch_shape(0, 198, kSms), kHalfBlocksShape + 1);  // 396 halves
}

void halves_that_spread_nothing_keep_blocks(void**) {
  assert_int_equal(launch_shape(0, 67, kSms), 0);   // 134 halves: two on 2 SMs, a block
  assert_int_equal(launch_shape(0, 128, kSms), 0);  // 2048 rows: one block or two halves an SM
  assert_int_equal(launch_shape(0, 132, kSms), 0);
  assert_int_equal(launch_shape(0, 199, kSms), 0);  // 398 halves: past one wave three an SM
}

void one_wave_keeps_two_an_sm(void**) {
  assert_int_equal(launch_shape(0, 256, kSms), 0);  // 4096 rows
  assert_int_equal(launch_shape(0, 264, kSms), 0);
}

void fuller_waves_take_three_an_sm(void**) {
  assert_int_equal(launch_shape(0, 265, kSms), kThreeAnSmShape);
  assert_int_equal(launch_shape(0, 320, kSms), kThreeAnSmShape);  // 5120 rows: 0.61 / 0.81
  assert_int_equal(launch_shape(0, 384, kSms), kThreeAnSmShape);  // 6144 rows: 0.73 / 0.97
  assert_int_equal(launch_shape(0, 688, kSms), kThreeAnSmShape);  // 11008 rows: 0.87 both
}

void emptier_waves_keep_two_an_sm(void**) {
  assert_int_equal(launch_shape(0, 512, kSms), 0);  // 8192 rows: 0.97 / 0.65
  assert_int_equal(launch_shape(0, 896, kSms), 0);  // 14336 rows: 0.85 / 0.75
}

void only_shape_zero_changes(void**) {
  for (int shape = 1; shape < kThreeAnSmShape; ++shape) {
    assert_int_equal(launch_shape(shape, 384, kSms), shape);
    assert_int_equal(launch_shape(shape, 64, kSms), shape);
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(halves_where_they_spread_the_weight),
      cmocka_unit_test(halves_that_spread_nothing_keep_blocks),
      cmocka_unit_test(one_wave_keeps_two_an_sm),
      cmocka_unit_test(fuller_waves_take_three_an_sm),
      cmocka_unit_test(emptier_waves_keep_two_an_sm),
      cmocka_unit_test(only_shape_zero_changes),
  };
  return cmocka_run_group_tests_name("decode config", tests, nullptr, nullptr);
}
