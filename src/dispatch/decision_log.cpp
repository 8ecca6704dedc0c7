// SPDX-License-Identifier: MIT
#include "dispatch/decision_log.h"

#include <cinttypes>
#include <cstdint>
#include <cstring>
#include <mutex>

#include <cuda_runtime_api.h>

#include "core/env_config.h"
#include "core/fork_safe.h"
#include "core/log.h"
#include "core/names.h"

namespace bwgemm {
namespace {

struct Decision {
  bwgemmPath_t path;
  bwgemmReason_t reason;
  const char* kernel;
  const char* rule;
};
thread_local Decision t_last{BWGEMM_PATH_NONE, BWGEMM_REASON_KERNEL_SELECTED, "", nullptr};

// Decisions already logged at BWGEMM_LOG=1, as hashes in an open-addressed
// table. When it fills up, further decisions are logged every time.
constexpr size_t kSeenSlots = 4096;
uint64_t g_seen[kSeenSlots];
std::mutex g_seen_mutex;
const bool g_seen_mutex_fork_safe = hold_across_fork(&g_seen_mutex);

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

// A decoded cublasLtMatmul's epilogue as one number: activation * 2 + bias;
// 0 for the cuBLAS entry points and for a call forwarded before its epilogue
// was understood (logged without one).
uint64_t epilogue_code(const RawCall& c) {
  const LtDecoded* lt = c.lt_decoded;
  return lt == nullptr ? 0 : uint64_t(lt->epilogue.activation) * 2 + lt->bias_epilogue;
}

const char* epilogue_name(const RawCall& c) {
  static const char* const kNames[] = {"none", "bias", "relu", "relu+bias", "gelu", "gelu+bias"};
  return kNames[epilogue_code(c)];
}

uint64_t decision_key(const RawCall& c, const Decision& d) {
  uint64_t h = 0;
  for (uint64_t v : {uint64_t(c.entry),
                     uint64_t(c.called_as),
                     uint64_t(c.transa),
                     uint64_t(c.transb),
                     uint64_t(c.m),
                     uint64_t(c.n),
                     uint64_t(c.k),
                     uint64_t(c.Atype),
                     uint64_t(c.Btype),
                     uint64_t(c.Ctype),
                     uint64_t(c.lda),
                     uint64_t(c.ldb),
                     uint64_t(c.ldc),
                     uint64_t(c.batch),
                     uint64_t(c.compute),
                     uint64_t(c.algo),
                     epilogue_code(c),
                     uint64_t(d.path),
                     uint64_t(d.reason),
                     uint64_t(reinterpret_cast<uintptr_t>(d.kernel)),
                     uint64_t(reinterpret_cast<uintptr_t>(d.rule))})
    h = mix(h, v);
  return h | 1;  // 0 marks an empty slot
}

bool first_time(uint64_t key) {
  std::lock_guard<std::mutex> lock(g_seen_mutex);
  for (size_t i = 0, slot = key % kSeenSlots; i < kSeenSlots; ++i, slot = (slot + 1) % kSeenSlots) {
    if (g_seen[slot] == key) return false;
    if (g_seen[slot] == 0) {
      g_seen[slot] = key;
      return true;
    }
  }
  return true;
}

// The line names the device current for the call (the one a kernel runs
// on), so the decisions of a process driving several GPUs can be told apart;
// -1 if the runtime cannot say. Asked only when a line is written, and only
// for a call with a handle: making one initialised CUDA, while a call
// without one is refused by cuBLAS before it touches CUDA, and the first
// runtime call would initialise it (a process that forks next could then
// not use CUDA in its child).
void log_decision(const RawCall& c, const Decision& d) {
  const bool has_handle = c.lt != nullptr ? c.lt->handle != nullptr : c.handle != nullptr;
  int device = -1;
  if (!has_handle || cudaGetDevice(&device) != cudaSuccess) device = -1;
  log_line("%s transa=%d transb=%d m=%" PRId64 " n=%" PRId64 " k=%" PRId64
           " Atype=%d Btype=%d Ctype=%d lda=%" PRId64 " ldb=%" PRId64 " ldc=%" PRId64
           " strideA=%lld strideB=%lld strideC=%lld batch=%" PRId64
           " compute=%d algo=%d%s%s device=%d -> %s%s%s (%s%s%s)",
           entry_point_name(c.entry, c.called_as), int(c.transa), int(c.transb), c.m, c.n, c.k,
           int(c.Atype), int(c.Btype), int(c.Ctype), c.lda, c.ldb, c.ldc, c.strideA, c.strideB,
           c.strideC, c.batch, int(c.compute), int(c.algo),
           c.lt_decoded != nullptr ? " epilogue=" : "",
           c.lt_decoded != nullptr ? epilogue_name(c) : "", device, path_name(d.path),
           d.kernel[0] ? " " : "", d.kernel, reason_name(d.reason), d.rule ? ": " : "",
           d.rule ? d.rule : "");
}

}  // namespace

void record_decision(const RawCall& call, bwgemmPath_t path, bwgemmReason_t reason,
                     const char* kernel, const char* rule) {
  t_last = Decision{path, reason, kernel, rule};
  const int level = env_config().log_level;
  if (level >= 2 || (level == 1 && first_time(decision_key(call, t_last))))
    log_decision(call, t_last);
}

void last_decision(bwgemmDispatchInfo_t* info) {
  info->path = t_last.path;
  info->reason = t_last.reason;
  info->reason_name = reason_name(t_last.reason);
  info->reason_message = t_last.rule != nullptr ? t_last.rule : reason_message(t_last.reason);
  info->kernel = t_last.kernel;
}

void decision_log_reset() {
  std::lock_guard<std::mutex> lock(g_seen_mutex);
  std::memset(g_seen, 0, sizeof g_seen);
}

}  // namespace bwgemm
