// SPDX-License-Identifier: MIT
// src/kernels/common/pipeline_state.h on its own, before any GEMM uses it:
// the stage index walks the ring and the phase parity flips on every wrap,
// for rings of shared-memory stages and of TMEM accumulators alike.
#include <cstdint>

#include "kernels/common/pipeline_state.h"
#include "support/cmocka_cxx.h"

namespace {

template <int kStages>
void check_ring() {
  bwgemm::PipelineState<kStages> ring;
  assert_int_equal(ring.stage, 0);
  assert_int_equal(ring.phase, 0);
  for (uint32_t n = 1; n <= 5 * kStages + 1; ++n) {
    ring.advance();
    assert_int_equal(ring.stage, n % kStages);
    assert_int_equal(ring.phase, (n / kStages) & 1);
  }
}

void stage_walks_the_ring_and_phase_flips_on_each_wrap(void**) {
  check_ring<1>();
  check_ring<2>();
  check_ring<3>();
  check_ring<6>();
}

// A producer waits on `empty` with phase ^ 1: on its first pass over a fresh
// ring it waits for the parity of the phase before the barrier's first, which
// a new mbarrier reports complete; one full round later it needs the
// consumers' first release.
void producer_and_consumer_parities_alternate_per_round(void**) {
  bwgemm::PipelineState<3> producer, consumer;
  for (int round = 0; round < 4; ++round)
    for (int s = 0; s < 3; ++s) {
      assert_int_equal(producer.phase ^ 1, uint32_t(round & 1) ^ 1);
      assert_int_equal(consumer.phase, uint32_t(round & 1));
      assert_int_equal(producer.stage, consumer.stage);
      producer.advance();
      consumer.advance();
    }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stage_walks_the_ring_and_phase_flips_on_each_wrap),
      cmocka_unit_test(producer_and_consumer_parities_alternate_per_round),
  };
  return cmocka_run_group_tests_name("pipeline_state", tests, nullptr, nullptr);
}
