// SPDX-License-Identifier: MIT
// src/kernels/common/tma_encode.cpp: encode_tma_map reaches
// cuTensorMapEncodeTiled through the driver entry point (the mock runtime's
// fake, which writes the arguments into the map) and keeps each thread's
// recent encodings: a spec encoded before is copied, not encoded again, and
// every field of the spec tells specs apart. The L2 promotion follows the
// rows' alignment to 128 bytes.
#include <cstdint>
#include <cstring>
#include <thread>

#include "kernels/common/kernel_view.h"
#include "support/cmocka_cxx.h"
#include "support/mock_cuda_runtime.h"

using bwgemm::encode_tma_map;
using bwgemm::TmaMapSpec;

namespace {

// A spec whose fields all differ from one `seed` to another.
TmaMapSpec spec_for(uint64_t seed) {
  TmaMapSpec s{};
  s.dtype = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  s.base = reinterpret_cast<const void*>(uintptr_t{0x7f0000000000} + 4096 * seed);
  s.dims[0] = 768 + seed;
  s.dims[1] = 8192 + seed;
  s.dims[2] = 1;
  s.strides[0] = 1536 + 16 * seed;
  s.strides[1] = (1536 + 16 * seed) * (8192 + seed);
  s.box[0] = 64;
  s.box[1] = 128;
  s.box[2] = 1;
  s.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  return s;
}

// What the mock writes for `s` (mock_cuda_runtime.h).
void assert_map_of(const CUtensorMap& map, const TmaMapSpec& s) {
  assert_int_equal(map.opaque[0], reinterpret_cast<uintptr_t>(s.base));
  for (int i = 0; i < 3; ++i) assert_int_equal(map.opaque[1 + i], s.dims[i]);
  for (int i = 0; i < 2; ++i) assert_int_equal(map.opaque[4 + i], s.strides[i]);
  for (int i = 0; i < 3; ++i) assert_int_equal(map.opaque[6 + i], s.box[i]);
  assert_int_equal(map.opaque[9], uint64_t(s.dtype));
  assert_int_equal(map.opaque[10], uint64_t(s.swizzle));
}

int setup(void**) {
  mock_cuda::reset();
  return 0;
}

void a_spec_encoded_again_is_copied(void**) {
  // A spec of its own, so that no earlier test's encodings match.
  const TmaMapSpec s = spec_for(100);
  CUtensorMap first{}, again{};
  const int calls = mock_cuda::encode_call_count();
  assert_true(encode_tma_map(s, &first));
  assert_int_equal(mock_cuda::encode_call_count(), calls + 1);
  assert_map_of(first, s);
  assert_true(encode_tma_map(s, &again));
  assert_int_equal(mock_cuda::encode_call_count(), calls + 1);
  assert_memory_equal(&first, &again, sizeof first);
}

void every_field_tells_specs_apart(void**) {
  const TmaMapSpec base = spec_for(200);
  CUtensorMap map{};
  // Each variant differs from `base` in one field only.
  TmaMapSpec variants[11];
  for (TmaMapSpec& v : variants) v = base;
  variants[0].dtype = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  variants[1].base = static_cast<const char*>(base.base) + 16;
  variants[2].dims[0] += 1;
  variants[3].dims[1] += 1;
  variants[4].dims[2] += 1;
  variants[5].strides[0] += 16;
  variants[6].strides[1] += 16;
  variants[7].box[0] = 32;
  variants[8].box[1] = 64;
  variants[9].box[2] = 2;
  variants[10].swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  for (const TmaMapSpec& v : variants) {
    assert_true(encode_tma_map(base, &map));  // kept, whatever came before
    const int calls = mock_cuda::encode_call_count();
    assert_true(encode_tma_map(v, &map));
    assert_int_equal(mock_cuda::encode_call_count(), calls + 1);
    assert_map_of(map, v);
  }
}

void more_specs_than_are_kept_still_encode_right(void**) {
  // Forty specs in turn, three rounds: whatever is kept, each map is its own.
  for (int round = 0; round < 3; ++round) {
    for (uint64_t seed = 300; seed < 340; ++seed) {
      CUtensorMap map{};
      assert_true(encode_tma_map(spec_for(seed), &map));
      assert_map_of(map, spec_for(seed));
    }
  }
}

void a_refused_spec_is_not_kept(void**) {
  const TmaMapSpec s = spec_for(400);
  CUtensorMap map{};
  mock_cuda::set_encode_result(CUDA_ERROR_INVALID_VALUE);
  assert_false(encode_tma_map(s, &map));
  assert_false(encode_tma_map(s, &map));  // asked again: the driver refuses again
  assert_int_equal(mock_cuda::encode_call_count(), 2);
  mock_cuda::set_encode_result(CUDA_SUCCESS);
  assert_true(encode_tma_map(s, &map));
  assert_int_equal(mock_cuda::encode_call_count(), 3);
  assert_map_of(map, s);
}

// Rows that start on 128-byte boundaries keep the 256-byte promotion; where
// the base or a pitch is not a multiple of 128 bytes, a 128-byte box row
// spans two lines and 256-byte promotion fetched up to 512 bytes for it: such
// maps promote 128 bytes. The defect it guards: GPT-2's input gradient (B
// read by row classes, 8 x 50257 elements between rows) read 2.75 GB from
// memory instead of 1.39 and ran 26 % slower (docs/perf.md v18).
void l2_promotion_follows_the_rows_alignment(void**) {
  TmaMapSpec aligned = spec_for(600);
  aligned.strides[0] = 100608;  // 50304 bf16
  aligned.strides[1] = 100608 * 8192;
  TmaMapSpec odd_pitch = aligned;
  odd_pitch.strides[0] = 804112;  // 8 x 50257 bf16: a multiple of 16 bytes, not of 128
  odd_pitch.strides[1] = 804112 * 1024;
  TmaMapSpec odd_base = aligned;
  odd_base.base = static_cast<const char*>(aligned.base) + 16;
  TmaMapSpec odd_batch = aligned;
  odd_batch.strides[1] += 16;
  const struct {
    const TmaMapSpec& spec;
    CUtensorMapL2promotion promotion;
  } cases[] = {{aligned, CU_TENSOR_MAP_L2_PROMOTION_L2_256B},
               {odd_pitch, CU_TENSOR_MAP_L2_PROMOTION_L2_128B},
               {odd_base, CU_TENSOR_MAP_L2_PROMOTION_L2_128B},
               {odd_batch, CU_TENSOR_MAP_L2_PROMOTION_L2_128B}};
  for (const auto& c : cases) {
    CUtensorMap map{};
    assert_true(encode_tma_map(c.spec, &map));
    assert_map_of(map, c.spec);
    assert_int_equal(map.opaque[11], uint64_t(c.promotion));
  }
}

void each_thread_keeps_its_own(void**) {
  const TmaMapSpec s = spec_for(500);
  CUtensorMap map{};
  assert_true(encode_tma_map(s, &map));
  const int calls = mock_cuda::encode_call_count();
  std::thread other([&s] {
    CUtensorMap theirs{};
    assert_true(encode_tma_map(s, &theirs));
    assert_map_of(theirs, s);
  });
  other.join();
  assert_int_equal(mock_cuda::encode_call_count(), calls + 1);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(a_spec_encoded_again_is_copied, setup),
      cmocka_unit_test_setup(every_field_tells_specs_apart, setup),
      cmocka_unit_test_setup(more_specs_than_are_kept_still_encode_right, setup),
      cmocka_unit_test_setup(a_refused_spec_is_not_kept, setup),
      cmocka_unit_test_setup(l2_promotion_follows_the_rows_alignment, setup),
      cmocka_unit_test_setup(each_thread_keeps_its_own, setup),
  };
  return cmocka_run_group_tests_name("tma_encode", tests, nullptr, nullptr);
}
