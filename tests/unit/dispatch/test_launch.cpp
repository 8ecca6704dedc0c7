// SPDX-License-Identifier: MIT
// src/dispatch/launch.cpp: a planned call reaches the family's launcher with
// A and B that TMA can address: operands whose base, leading dimension or
// batch stride is not a multiple of 16 bytes are packed into the stream's
// workspace first (fake workspace and copy recorder), or the call is
// forwarded when they cannot be.
#include <cstdint>

#include "dispatch/launch.h"
#include "kernels/common/pack.h"
#include "kernels/common/ragged_edge.h"
#include "support/cmocka_cxx.h"
#include "support/fake_guard.h"
#include "support/fake_kernel_families.h"
#include "support/fake_pack.h"

using bwgemm::GemmProblem;
using bwgemm::LaunchStatus;

namespace {

const bwgemm::DeviceCaps kCaps{0, 9, 0, 132, 232448};

// GPT-2's input gradient, scaled down: NN, B is k x n with the odd ldb = k.
GemmProblem odd_ldb() {
  GemmProblem p{};
  p.ab_type = p.c_type = bwgemm::DType::BF16;
  p.m = 96;
  p.n = 80;
  p.k = 201;
  p.a = reinterpret_cast<const void*>(0x100000);
  p.b = reinterpret_cast<const void*>(0x200000);
  p.c = p.d = reinterpret_cast<void*>(0x300000);
  p.lda = 96;
  p.ldb = 201;
  p.ldc = p.ldd = 96;
  p.batch = 1;
  p.alpha = {false, 1.0f, nullptr};
  p.beta = {false, 0.0f, nullptr};
  return p;
}

bwgemm::LaunchResult launch(const GemmProblem& p) {
  const bwgemm::Plan plan{&fake::family(0), 0, BWGEMM_REASON_KERNEL_SELECTED, nullptr};
  return bwgemm::launch_planned(plan, p, kCaps);
}

int reset_all(void**) {
  fake::reset();
  fake::reset_guard();
  fake::reset_pack();
  return 0;
}

void addressable_operands_are_launched_as_they_are(void**) {
  GemmProblem p = odd_ldb();
  p.ldb = 208;
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  assert_true(fake::pack_calls().empty());
  assert_ptr_equal(fake::record(0).last_problem.b, p.b);
  assert_int_equal(fake::record(0).last_problem.ldb, 208);
}

void an_odd_leading_dimension_is_packed_into_the_workspace(void**) {
  const GemmProblem p = odd_ldb();
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  assert_int_equal(fake::pack_calls().size(), 1);
  const fake::PackCall& copy = fake::pack_calls()[0];
  assert_ptr_equal(copy.source.base, p.b);
  assert_int_equal(copy.source.rows, 201);  // B is k x n, not transposed
  assert_int_equal(copy.source.cols, 80);
  assert_int_equal(copy.source.ld, 201);
  const GemmProblem& got = fake::record(0).last_problem;
  assert_ptr_equal(got.b, fake::workspace_base());
  assert_ptr_equal(copy.dst, fake::workspace_base());
  assert_int_equal(got.ldb, 256);  // whole 128-byte lines
  assert_ptr_equal(got.a, p.a);    // A was addressable
  assert_int_equal(got.lda, 96);
  assert_false(got.a_padded);  // the caller's A: nothing past m may be read
}

// Both operands, transposed, batched with odd strides; a broadcast operand
// is packed once and stays broadcast.
void both_operands_and_their_batches_are_packed(void**) {
  GemmProblem p = odd_ldb();
  p.trans_a = p.trans_b = true;  // A is k x m, B is n x k
  p.lda = 203;
  p.ldb = 83;
  p.batch = 3;
  p.stride_a = 203 * 96 + 1;
  p.stride_b = 0;
  p.stride_c = p.stride_d = 96 * 80;
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  assert_int_equal(fake::pack_calls().size(), 2);
  const bwgemm::Matrix16 a = fake::pack_calls()[0].source, b = fake::pack_calls()[1].source;
  assert_int_equal(a.rows, 201);
  assert_int_equal(a.cols, 96);
  assert_int_equal(a.stride, 203 * 96 + 1);
  assert_int_equal(b.rows, 80);
  assert_int_equal(b.cols, 201);
  assert_int_equal(b.stride, 0);
  const GemmProblem& got = fake::record(0).last_problem;
  assert_int_equal(got.lda, 256);
  assert_int_equal(got.stride_a, 256 * 96);
  assert_true(got.a_padded);  // the copy's zeros past its rows may be read
  assert_int_equal(got.ldb, 128);
  assert_int_equal(got.stride_b, 0);
  // B's copy follows A's three, on a 256-byte boundary.
  const auto offset =
      reinterpret_cast<uintptr_t>(got.b) - reinterpret_cast<uintptr_t>(fake::workspace_base());
  assert_true(offset >= size_t(256) * 96 * 3 * 2);
  assert_int_equal(offset % 256, 0);
}

// cublasLtMatmul's caller lends a workspace: a large enough, 256-byte
// aligned one takes the copy (no stream workspace is needed, none is made:
// inside a capture too); a small or misaligned one does not.
void the_callers_workspace_takes_the_copy_when_large_enough(void**) {
  alignas(256) static uint8_t lent[64 << 10];
  fake::reset_pack(0);  // no stream workspace at all
  GemmProblem p = odd_ldb();
  p.workspace = lent;
  p.workspace_bytes = sizeof lent;
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  assert_int_equal(fake::pack_calls().size(), 1);
  assert_ptr_equal(fake::pack_calls()[0].dst, lent);
  assert_ptr_equal(fake::record(0).last_problem.b, lent);

  p.workspace_bytes = 256 * 80 * 2 - 1;  // one byte short of B's copy
  bwgemm::LaunchResult r = launch(p);
  assert_int_equal(int(r.status), int(LaunchStatus::kForward));
  p.workspace = lent + 16;
  p.workspace_bytes = sizeof lent - 16;
  r = launch(p);
  assert_int_equal(int(r.status), int(LaunchStatus::kForward));
  fake::reset_pack();
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  assert_ptr_equal(fake::pack_calls()[0].dst, fake::workspace_base());
}

// A copy's columns start whole 128-byte lines; columns shorter than 64
// elements are padded to 16 bytes only.
void packed_columns_are_padded_to_whole_lines(void**) {
  const auto ld = [](int64_t rows) {
    return bwgemm::packed_ld(bwgemm::Matrix16{nullptr, rows, 3, rows, 0, 1});
  };
  assert_int_equal(ld(0), 8);
  assert_int_equal(ld(5), 8);
  assert_int_equal(ld(63), 64);
  assert_int_equal(ld(64), 64);
  assert_int_equal(ld(65), 128);
  assert_int_equal(ld(50257), 50304);
  assert_int_equal(bwgemm::packed_bytes(bwgemm::Matrix16{nullptr, 65, 3, 65, 0, 1}), 128 * 3 * 2);
}

// No copy where none can be made: no workspace (a capture, the ceiling),
// or alpha == 0 on the host (A and B must not be read). k == 0 reads nothing.
void unpackable_calls_are_forwarded(void**) {
  fake::reset_pack(0);
  bwgemm::LaunchResult r = launch(odd_ldb());
  assert_int_equal(int(r.status), int(LaunchStatus::kForward));
  assert_int_equal(r.reason, BWGEMM_REASON_UNSUPPORTED_LAYOUT);
  // The copy (256 x 80 x 2 bytes, whole 256-byte blocks) is all it wants:
  // the stream's workspace is asked once.
  assert_int_equal(fake::workspace_requests().size(), 1);
  assert_int_equal(fake::workspace_requests()[0], 256 * 80 * 2);
  fake::reset_pack();
  GemmProblem p = odd_ldb();
  p.alpha.value = 0.0f;
  r = launch(p);
  assert_int_equal(int(r.status), int(LaunchStatus::kForward));
  assert_true(fake::pack_calls().empty());
  assert_int_equal(fake::record(0).launch_calls, 0);
  p = odd_ldb();
  p.k = 0;
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  assert_true(fake::pack_calls().empty());
}

// What the copies leave of the workspace is the problem's (for a family's
// own copies): after an N-major B (NT, TT) of one matrix with k at least
// kMinEdgeDepth (a ragged edge may be cut off), the stream's holds room for
// kMaxTransposedColumns of op(B)'s columns; after a K-major one, nothing; a
// caller's keeps what its copies did not take. Where the room is past the
// ceiling, the copies are still made.
void the_workspace_left_after_the_copies_is_the_problems(void**) {
  GemmProblem p = odd_ldb();
  p.trans_b = true;  // B is n x k: 80 rows
  p.ldb = 83;
  p.k = bwgemm::kMinEdgeDepth;
  const size_t copy = size_t(128) * p.k * 2;  // a multiple of 256
  const size_t room = size_t(bwgemm::kMaxTransposedColumns) * p.k * 2;
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  GemmProblem got = fake::record(0).last_problem;
  assert_ptr_equal(got.b, fake::workspace_base());
  assert_ptr_equal(got.workspace, static_cast<const uint8_t*>(fake::workspace_base()) + copy);
  assert_int_equal(got.workspace_bytes, room);

  fake::reset_pack(copy + room - 1);
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  got = fake::record(0).last_problem;
  assert_ptr_equal(got.b, fake::workspace_base());
  assert_null(got.workspace);
  assert_int_equal(got.workspace_bytes, 0);
  assert_int_equal(fake::workspace_requests().size(), 2);  // with the room, then without
  assert_int_equal(fake::workspace_requests()[0], copy + room);
  assert_int_equal(fake::workspace_requests()[1], copy);

  fake::reset_pack();
  assert_int_equal(int(launch(odd_ldb()).status), int(LaunchStatus::kEnqueued));  // K-major B
  assert_null(fake::record(0).last_problem.workspace);

  alignas(256) static uint8_t lent[1 << 20];
  p.workspace = lent;
  p.workspace_bytes = sizeof lent;
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  got = fake::record(0).last_problem;
  assert_ptr_equal(got.b, lent);
  assert_ptr_equal(got.workspace, lent + copy);
  assert_int_equal(got.workspace_bytes, sizeof lent - copy);
}

// No family cuts a ragged edge off a batch or a call with k under
// kMinEdgeDepth (ragged_edge.h): no room is asked for after their N-major B.
void no_room_is_taken_where_no_edge_is_cut(void**) {
  GemmProblem p = odd_ldb();
  p.trans_b = true;
  p.ldb = 83;
  p.k = bwgemm::kMinEdgeDepth - 1;
  const size_t copy = size_t(128) * p.k * 2;  // a multiple of 256
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  assert_null(fake::record(0).last_problem.workspace);
  assert_int_equal(fake::workspace_requests().size(), 1);
  assert_int_equal(fake::workspace_requests()[0], copy);

  fake::reset_pack();
  p.k = bwgemm::kMinEdgeDepth;
  p.batch = 2;
  p.stride_b = 83 * p.k + 1;
  assert_int_equal(int(launch(p).status), int(LaunchStatus::kEnqueued));
  assert_null(fake::record(0).last_problem.workspace);
  assert_int_equal(fake::workspace_requests().size(), 1);
  assert_int_equal(fake::workspace_requests()[0], 2 * size_t(128) * p.k * 2);
}

// A family that asks for room for its launch (KernelFamily::workspace_room:
// the sm90 family's last waves split over K) gets the stream's workspace
// where no operand is copied, the caller's where it holds the room, inside
// a capture the graph's own (released after the launch), and none where
// none can be had (the launch then runs without); after copies, the larger
// of its room and an edge's.
constexpr size_t kLaunchRoom = 4096;
size_t launch_room(const GemmProblem&, const bwgemm::DeviceCaps&, int) { return kLaunchRoom; }

bwgemm::LaunchResult launch_with_room(const GemmProblem& p) {
  static bwgemm::KernelFamily family = fake::family(0);
  family.workspace_room = launch_room;
  const bwgemm::Plan plan{&family, 0, BWGEMM_REASON_KERNEL_SELECTED, nullptr};
  return bwgemm::launch_planned(plan, p, kCaps);
}

void a_familys_launch_room_is_offered(void**) {
  GemmProblem p = odd_ldb();
  p.ldb = 208;  // nothing to copy
  assert_int_equal(int(launch_with_room(p).status), int(LaunchStatus::kEnqueued));
  GemmProblem got = fake::record(0).last_problem;
  assert_ptr_equal(got.workspace, fake::workspace_base());
  assert_int_equal(got.workspace_bytes, kLaunchRoom);
  assert_true(fake::pack_calls().empty());

  fake::reset_pack(kLaunchRoom - 1);  // the stream's cannot be had
  assert_int_equal(int(launch_with_room(p).status), int(LaunchStatus::kEnqueued));
  assert_null(fake::record(0).last_problem.workspace);
  assert_int_equal(fake::record(0).last_problem.workspace_bytes, 0);
  assert_int_equal(fake::graph_workspace_releases(), 0);

  fake::reset_pack();  // in a capture: the graph's, released once launched
  fake::set_capturing(true);
  assert_int_equal(int(launch_with_room(p).status), int(LaunchStatus::kEnqueued));
  assert_ptr_equal(fake::record(0).last_problem.workspace, fake::graph_workspace_base());
  assert_int_equal(fake::record(0).last_problem.workspace_bytes, kLaunchRoom);
  assert_int_equal(fake::graph_workspace_releases(), 1);
  // ... not where an operand is copied (the call goes to cuBLAS).
  assert_int_equal(int(launch_with_room(odd_ldb()).status), int(LaunchStatus::kForward));
  assert_int_equal(fake::graph_workspace_releases(), 1);

  alignas(256) static uint8_t lent[2 * kLaunchRoom];  // the caller's holds it
  p.workspace = lent;
  p.workspace_bytes = sizeof lent;
  fake::reset_pack();
  assert_int_equal(int(launch_with_room(p).status), int(LaunchStatus::kEnqueued));
  assert_ptr_equal(fake::record(0).last_problem.workspace, lent);
  assert_int_equal(fake::record(0).last_problem.workspace_bytes, sizeof lent);
  assert_true(fake::workspace_requests().empty());

  p.workspace_bytes = kLaunchRoom - 1;  // too small: the stream's, else the caller's stays
  fake::reset_pack(kLaunchRoom - 1);
  assert_int_equal(int(launch_with_room(p).status), int(LaunchStatus::kEnqueued));
  assert_ptr_equal(fake::record(0).last_problem.workspace, lent);

  fake::reset_pack();
  GemmProblem copied = odd_ldb();  // B packed: its copy, then the room
  const size_t copy =
      bwgemm::packed_bytes(bwgemm::Matrix16{copied.b, copied.k, copied.n, copied.ldb, 0, 1});
  assert_int_equal(int(launch_with_room(copied).status), int(LaunchStatus::kEnqueued));
  got = fake::record(0).last_problem;
  assert_int_equal(fake::pack_calls().size(), 1);
  assert_int_equal(fake::workspace_requests()[0], (copy + 255) / 256 * 256 + kLaunchRoom);
  assert_int_equal(got.workspace_bytes, kLaunchRoom);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup(f, reset_all)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(addressable_operands_are_launched_as_they_are),
      TEST(an_odd_leading_dimension_is_packed_into_the_workspace),
      TEST(both_operands_and_their_batches_are_packed),
      TEST(unpackable_calls_are_forwarded),
      TEST(the_callers_workspace_takes_the_copy_when_large_enough),
      TEST(packed_columns_are_padded_to_whole_lines),
      TEST(the_workspace_left_after_the_copies_is_the_problems),
      TEST(no_room_is_taken_where_no_edge_is_cut),
      TEST(a_familys_launch_room_is_offered),
  };
  return cmocka_run_group_tests_name("launch", tests, nullptr, nullptr);
}
