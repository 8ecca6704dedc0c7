// SPDX-License-Identifier: MIT
// src/kernels/decode/launch.cpp: which launches are programmatic dependents
// of the previous grid on their stream. A call follows the previous one
// directly (and overlaps its end) where it is known to: after a grid of this
// library's own (a ragged edge after its body), or on the tokens (cuBLAS's
// B) and stream of this thread's last grid (a model's k projection after its
// q; launch_order.h); behind any other kernel, a programmatic launch only
// costs.
#include <cstdint>
#include <thread>

#include "core/launch_order.h"
#include "kernels/common/kernel_view.h"
#include "kernels/decode/launch.h"
#include "kernels/decode/variants.h"
#include "support/cmocka_cxx.h"

namespace {

struct Enqueued {
  int count = 0;
  bool programmatic = false;
  const void* tokens = nullptr;
  cudaStream_t stream = nullptr;
};
Enqueued g_enqueued;

void no_kernel(bwgemm::decode::DecodeParams) {}

}  // namespace

// The nvcc-built kernel table and the launch, which need the CUDA runtime.
namespace bwgemm::decode {
DecodeKernel kernel_for(DType, DType, int) { return no_kernel; }
cudaError_t enqueue_decode(DecodeKernel, unsigned, uint32_t, const DecodeParams& params,
                           bool programmatic, cudaStream_t stream) {
  g_enqueued = {g_enqueued.count + 1, programmatic, params.tokens, stream};
  return cudaSuccess;
}
}  // namespace bwgemm::decode

// The driver's map encoder, which the decode kernel's parameters never use.
bool bwgemm::encode_tma_map(const TmaMapSpec&, CUtensorMap*) { return false; }

namespace {

using bwgemm::GemmProblem;

const bwgemm::DeviceCaps kCaps{0, 9, 0, 132, 232448};

// TN bf16 decode, 4096 x 8 x 4096: op(B), the tokens, is cuBLAS's B.
GemmProblem call(const void* tokens, const void* weight, uintptr_t stream) {
  GemmProblem p{};
  p.ab_type = p.c_type = bwgemm::DType::BF16;
  p.trans_a = true;
  p.m = 4096;
  p.n = 8;
  p.k = 4096;
  p.lda = p.ldb = 4096;
  p.ldc = p.ldd = 4096;
  p.batch = 1;
  p.a = weight;
  p.b = tokens;
  p.d = p.c = reinterpret_cast<void*>(0x10000);
  p.stream = reinterpret_cast<cudaStream_t>(stream);
  return p;
}

bool launched_programmatic(const GemmProblem& p, bool after_own_grid = false) {
  const int before = g_enqueued.count;
  assert_true(bwgemm::decode::launch(p, kCaps, after_own_grid).status ==
              bwgemm::LaunchStatus::kEnqueued);
  assert_int_equal(g_enqueued.count, before + 1);
  assert_ptr_equal(g_enqueued.tokens, p.b);
  assert_ptr_equal(g_enqueued.stream, p.stream);
  return g_enqueued.programmatic;
}

alignas(16) uint16_t g_h[8 * 4096], g_x[8 * 4096];
alignas(16) uint16_t g_wq[16], g_wk[16], g_wo[16];

void same_tokens_and_stream_follow(void**) {
  assert_false(launched_programmatic(call(g_h, g_wq, 1)));  // q: after a norm
  assert_true(launched_programmatic(call(g_h, g_wk, 1)));   // k, on q's tokens
  assert_true(launched_programmatic(call(g_h, g_wk, 1)));   // v
  assert_false(launched_programmatic(call(g_x, g_wo, 1)));  // o: after attention
}

void another_stream_does_not(void**) {
  assert_false(launched_programmatic(call(g_h, g_wq, 2)));
  assert_false(launched_programmatic(call(g_h, g_wk, 3)));  // same tokens, other stream
  assert_false(launched_programmatic(call(g_x, g_wo, 3)));
}

// The same weight on other tokens (a loop over one layer, the caller's own
// kernels between its calls).
void the_same_weight_alone_does_not(void**) {
  assert_false(launched_programmatic(call(g_h, g_wk, 7)));
  assert_false(launched_programmatic(call(g_x, g_wk, 7)));
}

void after_own_grid_always_follows(void**) {
  assert_false(launched_programmatic(call(g_h, g_wq, 4)));
  assert_true(launched_programmatic(call(g_x, g_wo, 4), true));
  // The edge's call is the last one now: the next on its tokens follows it.
  assert_true(launched_programmatic(call(g_x, g_wq, 4)));
}

void each_thread_has_its_own_last_call(void**) {
  assert_false(launched_programmatic(call(g_h, g_wq, 5)));
  bool other = true;
  std::thread([&] { other = launched_programmatic(call(g_h, g_wk, 5)); }).join();
  assert_false(other);
  assert_true(launched_programmatic(call(g_h, g_wk, 5)));
}

// A grid that does not release its dependents early (a call forwarded to
// cuBLAS, an operand copy) between two calls on the same tokens.
void another_grid_between_does_not(void**) {
  assert_false(launched_programmatic(call(g_h, g_wq, 6)));
  bwgemm::record_other_grid();
  assert_false(launched_programmatic(call(g_h, g_wk, 6)));
  assert_true(launched_programmatic(call(g_h, g_wk, 6)));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_tokens_and_stream_follow),
      cmocka_unit_test(another_stream_does_not),
      cmocka_unit_test(the_same_weight_alone_does_not),
      cmocka_unit_test(after_own_grid_always_follows),
      cmocka_unit_test(each_thread_has_its_own_last_call),
      cmocka_unit_test(another_grid_between_does_not),
  };
  return cmocka_run_group_tests_name("decode launch", tests, nullptr, nullptr);
}
