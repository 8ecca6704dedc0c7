// SPDX-License-Identifier: MIT
#include "dispatch/launch.h"

#include "dispatch/family_guard.h"
#include "dispatch/workspace.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/pack.h"
#include "kernels/common/ragged_edge.h"

namespace bwgemm {
namespace {

// A or B as a 16-bit column-major matrix (batch stride 0 when not batched).
Matrix16 operand(const void* base, bool trans, int64_t op_rows, int64_t op_cols, int64_t ld,
                 int64_t stride, int64_t batch) {
  return {base, trans ? op_cols : op_rows, trans ? op_rows : op_cols,
          ld,   batch > 1 ? stride : 0,    batch};
}

bool addressable(const Matrix16& m, DType type) {
  return tma_addressable(m.base, m.ld, m.stride, type);
}

size_t round_up_256(size_t bytes) { return (bytes + 255) / 256 * 256; }

// The caller's workspace (cublasLtMatmul's) where it holds `needed` bytes
// and is 256-byte aligned: it is the caller's for this call on this stream,
// in a capture too. Otherwise `wanted` bytes of the stream's own, or
// `needed` where `wanted` are past the ceiling. *bytes: the size of the one
// returned.
uint8_t* operand_workspace(const GemmProblem& p, size_t needed, size_t wanted, size_t* bytes) {
  if (p.workspace != nullptr && p.workspace_bytes >= needed &&
      reinterpret_cast<uintptr_t>(p.workspace) % 256 == 0) {
    *bytes = p.workspace_bytes;
    return static_cast<uint8_t*>(p.workspace);
  }
  void* own = stream_workspace(p.stream, wanted);
  *bytes = wanted;
  if (own == nullptr && wanted > needed) {
    own = stream_workspace(p.stream, needed);
    *bytes = needed;
  }
  return static_cast<uint8_t*>(own);
}

// Replaces A or B where TMA cannot address them by a packed copy in the
// caller's or the stream's workspace (16-byte rows; the copy is enqueued
// before the GEMM on the same stream). False when a copy is needed but cannot
// be made: inside a capture without a large enough caller's workspace, past
// the workspace ceiling, alpha == 0 on the host (A and B must
// not be read), or a refused enqueue.
// B is kept as it is where the plan's kernel reads it so
// (KernelFamily::reads_unaligned_b; asked only then).
// What the copies leave of the workspace becomes the problem's: after an
// N-major B (NT, TT) of a call a family may cut a ragged edge off (one
// matrix, k at least kMinEdgeDepth: ragged_edge.h), the stream's holds room
// for a K-major copy of kMaxTransposedColumns of op(B)'s columns, the edge's
// tokens (sm90/family.cpp), and at least the family's room for the launch
// (KernelFamily::workspace_room). Where nothing is copied, that room may be
// the captured graph's own (*graph_room, freed after the launch).
bool pack_unaddressable_operands(GemmProblem* p, const Plan& plan, const DeviceCaps& caps,
                                 void** graph_room) {
  if (p->k == 0) return true;  // no operand is read
  const Matrix16 a = operand(p->a, p->trans_a, p->m, p->k, p->lda, p->stride_a, p->batch);
  const Matrix16 b = operand(p->b, p->trans_b, p->k, p->n, p->ldb, p->stride_b, p->batch);
  const bool pack_a = !addressable(a, p->ab_type);
  const KernelFamily& family = *plan.family;
  const bool pack_b = !addressable(b, p->ab_type) && !(family.reads_unaligned_b != nullptr &&
                                                       family.reads_unaligned_b(*p, plan.config));
  const size_t launch_room =
      family.workspace_room != nullptr ? family.workspace_room(*p, caps, plan.config) : 0;
  if (!pack_a && !pack_b) {
    // Optional: without it (in a capture, past the ceiling) the launch runs
    // as it would have, with the caller's workspace if any.
    if (launch_room == 0) return true;
    size_t bytes = launch_room;
    void* room = operand_workspace(*p, launch_room, launch_room, &bytes);
    if (room == nullptr) room = *graph_room = graph_workspace(p->stream, launch_room);
    if (room != nullptr) {
      p->workspace = room;
      p->workspace_bytes = bytes;
    }
    return true;
  }
  if (!p->alpha.on_device && p->alpha.value == 0.0f) return false;
  const size_t a_bytes = pack_a ? round_up_256(packed_bytes(a)) : 0;
  const size_t b_bytes = pack_b ? packed_bytes(b) : 0;
  const size_t copies = round_up_256(a_bytes + b_bytes);
  const bool may_cut_edge = p->batch == 1 && p->k >= kMinEdgeDepth;
  const size_t edge_room =
      pack_b && p->trans_b && may_cut_edge ? size_t(kMaxTransposedColumns) * size_t(p->k) * 2 : 0;
  const size_t room = edge_room > launch_room ? edge_room : launch_room;
  size_t workspace_bytes;
  uint8_t* workspace = operand_workspace(*p, a_bytes + b_bytes, copies + room, &workspace_bytes);
  if (workspace == nullptr) return false;
  if (pack_a) {
    if (enqueue_pack16(a, workspace, p->stream) != cudaSuccess) return false;
    p->a = workspace;
    p->lda = packed_ld(a);
    p->stride_a = a.stride == 0 ? 0 : packed_ld(a) * a.cols;
    p->a_padded = true;
  }
  if (pack_b) {
    if (enqueue_pack16(b, workspace + a_bytes, p->stream) != cudaSuccess) return false;
    p->b = workspace + a_bytes;
    p->ldb = packed_ld(b);
    p->stride_b = b.stride == 0 ? 0 : packed_ld(b) * b.cols;
  }
  const bool left = workspace_bytes > copies;
  p->workspace = left ? workspace + copies : nullptr;
  p->workspace_bytes = left ? workspace_bytes - copies : 0;
  return true;
}

}  // namespace

LaunchResult launch_planned(const Plan& plan, const GemmProblem& problem, const DeviceCaps& caps) {
  const KernelFamily& family = *plan.family;
  ErrorFlag error_flag{nullptr, 0};
  if (family.guarded) {
    switch (guard_launch(family, caps, problem, &error_flag)) {
      case GuardDecision::kLaunch: break;
      case GuardDecision::kPending:
        return {LaunchStatus::kForward, BWGEMM_REASON_SELF_CHECK_PENDING};
      case GuardDecision::kFailed: return {LaunchStatus::kForward, BWGEMM_REASON_FAMILY_DISABLED};
      case GuardDecision::kProtocolFailure:
        return {LaunchStatus::kEarlierFailure, BWGEMM_REASON_LAUNCH_FAILED};
    }
  }
  GemmProblem p = problem;
  void* graph_room = nullptr;
  if (!pack_unaddressable_operands(&p, plan, caps, &graph_room))
    return {LaunchStatus::kForward, BWGEMM_REASON_UNSUPPORTED_LAYOUT};
  const LaunchResult launched = family.launch(p, caps, plan.config, error_flag);
  if (graph_room != nullptr) release_graph_workspace(graph_room, p.stream);
  return launched;
}

}  // namespace bwgemm
