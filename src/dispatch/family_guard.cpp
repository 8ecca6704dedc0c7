// SPDX-License-Identifier: MIT
#include "dispatch/family_guard.h"

#include <cuda_runtime.h>

#include <atomic>
#include <mutex>
#include <string>

#include "core/fork_safe.h"
#include "core/log.h"
#include "core/names.h"
#include "dispatch/gpu_self_check.h"
#include "dispatch/helper_check.h"

namespace bwgemm {
namespace {

SelfCheckRunner g_self_check = gpu_self_check;

// The calls that may have tripped a device's flag: what the warning names.
// Calls made outside and inside a stream capture have a ring each, indexed by
// tag, so that a graph's calls (replayed long after their capture) are not
// overwritten by the direct calls made since. A record is written by its
// call's thread alone (tag 0 while it changes) and read only after a trip.
constexpr uint32_t kRecordsPerRing = 256;
constexpr uint32_t kCapturedTag = 0x80000000u;  // the tag's top bit: a captured call
constexpr uint32_t kSelfCheckTag = ~0u;         // the self-check's launches, never a call's

struct CallRecord {
  std::atomic<uint32_t> tag{0};
  std::atomic<int64_t> m{0}, n{0}, k{0}, batch{0};
  std::atomic<uintptr_t> stream{0};
  std::atomic<uint32_t> types{0};  // ab | c << 8 | trans_a << 16 | trans_b << 17
};

struct CallSnapshot {
  bool found;
  int64_t m, n, k, batch;
  cudaStream_t stream;
  uint32_t types;
};

enum class State { kUnchecked, kChecking, kHealthy, kFailed };

struct DeviceState {
  // Written under g_mutex; read without it once published (release/acquire),
  // so the steady state costs an atomic load, a context query, a capture
  // query, a read of the error flag and one record.
  std::atomic<State> state{State::kUnchecked};
  // The context (cuCtxGetId) the flag was allocated in: after a device reset
  // the runtime has freed it, and it is never touched again.
  std::atomic<uint64_t> context{0};
  uint32_t* host_flag = nullptr;    // pinned, mapped: the kernels write a call's tag
  uint32_t* device_flag = nullptr;  // the same word as the kernels address it
  std::atomic<uint32_t> next_tag[2] = {};
  CallRecord* records = nullptr;  // 2 rings of kRecordsPerRing, made on first use
  // The out-of-process check's answer while the state is kChecking.
  std::atomic<HelperVerdict> verdict{HelperVerdict::kRunning};
};

// One state per device and guarded family (indexed by its path).
constexpr int kPathSlots = BWGEMM_PATH_SM100 + 1;
DeviceState g_devices[kMaxDevices][kPathSlots];
std::mutex g_mutex;  // taken on a device's first launch and on a state change only
const bool g_mutex_fork_safe = hold_across_fork(&g_mutex);

// Allocates the device's error flag. In relaxed capture mode: a capture in
// global mode on another thread would otherwise be invalidated by it.
bool allocate_flag(DeviceState* dev) {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  const bool ok = cudaHostAlloc(reinterpret_cast<void**>(&dev->host_flag), sizeof(uint32_t),
                                cudaHostAllocMapped) == cudaSuccess &&
                  cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev->device_flag),
                                           dev->host_flag, 0) == cudaSuccess;
  cudaThreadExchangeStreamCaptureMode(&mode);
  if (!ok) dev->host_flag = dev->device_flag = nullptr;
  return ok;
}

// The state once the check answered: the helper's verdict, or (no helper)
// the check run in this process (it allocates and synchronizes; the caller
// made sure its stream is not capturing).
State finish_check(const KernelFamily& family, const DeviceCaps& caps, DeviceState* dev,
                   HelperVerdict verdict) {
  if (verdict == HelperVerdict::kFail) return State::kFailed;  // the helper warned
  if (dev->records == nullptr) dev->records = new CallRecord[2 * kRecordsPerRing];
  if (!allocate_flag(dev)) {
    log_warning("%s self-check on device %d: cannot allocate the error flag", family.name,
                caps.device);
    return State::kFailed;
  }
  *dev->host_flag = 0;
  if (verdict == HelperVerdict::kPass) return State::kHealthy;
  std::string failure;
  if (!g_self_check(family, caps, {dev->device_flag, kSelfCheckTag}, dev->host_flag, &failure)) {
    log_warning("%s self-check on device %d failed: %s; cuBLAS computes its calls on this device",
                family.name, caps.device, failure.c_str());
    return State::kFailed;
  }
  return State::kHealthy;
}

// Records the call about to be launched; returns its tag.
uint32_t record_call(DeviceState& dev, const GemmProblem& p) {
  // The legacy stream cannot capture (and is not asked: another thread's
  // capture may not allow it).
  const bool captured =
      p.stream != nullptr && p.stream != cudaStreamLegacy && stream_capturing(p.stream) > 0;
  // Tags 1 .. 2^31 - 2 (captured: with the top bit), never 0 or kSelfCheckTag.
  const uint32_t sequence = dev.next_tag[captured].fetch_add(1, std::memory_order_relaxed);
  const uint32_t tag = (sequence % (kCapturedTag - 2) + 1) | (captured ? kCapturedTag : 0);
  CallRecord& r = dev.records[captured * kRecordsPerRing + tag % kRecordsPerRing];
  r.tag.store(0, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  r.m.store(p.m, std::memory_order_relaxed);
  r.n.store(p.n, std::memory_order_relaxed);
  r.k.store(p.k, std::memory_order_relaxed);
  r.batch.store(p.batch, std::memory_order_relaxed);
  r.stream.store(reinterpret_cast<uintptr_t>(p.stream), std::memory_order_relaxed);
  r.types.store(uint32_t(p.ab_type) | uint32_t(p.c_type) << 8 | uint32_t(p.trans_a) << 16 |
                    uint32_t(p.trans_b) << 17,
                std::memory_order_relaxed);
  r.tag.store(tag, std::memory_order_release);
  return tag;
}

CallSnapshot find_call(const DeviceState& dev, uint32_t tag) {
  const CallRecord& r =
      dev.records[((tag & kCapturedTag) != 0) * kRecordsPerRing + tag % kRecordsPerRing];
  CallSnapshot s{};
  if (r.tag.load(std::memory_order_acquire) != tag) return s;
  s = {true,
       r.m.load(std::memory_order_relaxed),
       r.n.load(std::memory_order_relaxed),
       r.k.load(std::memory_order_relaxed),
       r.batch.load(std::memory_order_relaxed),
       reinterpret_cast<cudaStream_t>(r.stream.load(std::memory_order_relaxed)),
       r.types.load(std::memory_order_relaxed)};
  std::atomic_thread_fence(std::memory_order_acquire);
  s.found = r.tag.load(std::memory_order_relaxed) == tag;  // not rewritten meanwhile
  return s;
}

// The flag holds `tag`: says which call failed, switches the family off on
// this device, and tells the caller whether it was its own stream's call.
GuardDecision report_failure(const KernelFamily& family, const DeviceCaps& caps, DeviceState& dev,
                             uint32_t tag, cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (dev.state.load(std::memory_order_relaxed) == State::kFailed)
    return GuardDecision::kFailed;  // another thread reported it
  const CallSnapshot call = find_call(dev, tag);
  const char* graph = (tag & kCapturedTag) != 0 ? ", captured in a CUDA graph" : "";
  if (call.found) {
    const DType ab = DType(call.types & 0xff), c = DType((call.types >> 8) & 0xff);
    log_warning(
        "%s kernel on device %d reported a barrier-protocol failure (a bounded wait gave up) in "
        "the call m=%lld n=%lld k=%lld batch=%lld %s%s %s->%s on stream %p%s: its result is "
        "wrong; cuBLAS computes every later call on this device",
        family.name, caps.device, static_cast<long long>(call.m), static_cast<long long>(call.n),
        static_cast<long long>(call.k), static_cast<long long>(call.batch),
        (call.types >> 16) & 1 ? "T" : "N", (call.types >> 17) & 1 ? "T" : "N", dtype_name(ab),
        dtype_name(c), static_cast<void*>(call.stream), graph);
  } else {
    log_warning(
        "%s kernel on device %d reported a barrier-protocol failure (a bounded wait gave up) in "
        "call #%u%s, whose record later calls have overwritten: its result is wrong; cuBLAS "
        "computes every later call on this device",
        family.name, caps.device, tag & ~kCapturedTag, graph);
  }
  dev.state.store(State::kFailed, std::memory_order_release);
  return call.found && call.stream == stream ? GuardDecision::kProtocolFailure
                                             : GuardDecision::kFailed;
}

}  // namespace

GuardDecision guard_launch(const KernelFamily& family, const DeviceCaps& caps,
                           const GemmProblem& problem, ErrorFlag* error_flag) {
  if (caps.device < 0 || caps.device >= kMaxDevices || family.path >= kPathSlots)
    return GuardDecision::kFailed;
  DeviceState& dev = g_devices[caps.device][family.path];
  State state = dev.state.load(std::memory_order_acquire);
  if (state == State::kFailed) return GuardDecision::kFailed;
  // No context yet (the runtime makes it lazily, e.g. after a reset): let
  // cuBLAS make it; the next call finds it.
  const uint64_t context = caps.context_id;
  if (context == 0) return GuardDecision::kPending;
  if (context != dev.context.load(std::memory_order_acquire)) {
    // First use, or a device reset freed the flag with its context: the
    // device is checked again in the new one (the old flag is not touched).
    std::lock_guard<std::mutex> lock(g_mutex);
    if (dev.context.load(std::memory_order_relaxed) != context) {
      if (dev.state.load(std::memory_order_relaxed) == State::kHealthy)
        dev.state.store(State::kUnchecked, std::memory_order_relaxed);
      dev.host_flag = dev.device_flag = nullptr;
      dev.context.store(context, std::memory_order_release);
    }
    state = dev.state.load(std::memory_order_acquire);
  }
  if (state == State::kUnchecked) {
    // The helper process checks the device; this call goes to cuBLAS
    // unless the answer is at hand (cached, or no helper).
    std::lock_guard<std::mutex> lock(g_mutex);
    if (dev.state.load(std::memory_order_relaxed) == State::kUnchecked) {
      dev.verdict.store(HelperVerdict::kRunning, std::memory_order_relaxed);
      dev.state.store(State::kChecking, std::memory_order_release);
      start_helper_check(family.name, caps, &dev.verdict);
    }
    state = dev.state.load(std::memory_order_acquire);
  }
  if (state == State::kChecking) {
    const HelperVerdict verdict = dev.verdict.load(std::memory_order_acquire);
    if (verdict == HelperVerdict::kRunning) return GuardDecision::kPending;
    // The check in this process allocates and synchronizes: never inside a
    // stream capture.
    if (verdict == HelperVerdict::kNoHelper && stream_capturing(problem.stream) != 0)
      return GuardDecision::kPending;
    std::lock_guard<std::mutex> lock(g_mutex);
    state = dev.state.load(std::memory_order_relaxed);
    if (state == State::kChecking) {
      state = finish_check(family, caps, &dev, verdict);
      dev.state.store(state, std::memory_order_release);
    }
  }
  if (state == State::kFailed) return GuardDecision::kFailed;
  // The host-mapped flag is read without synchronising: a failure is seen by
  // the first call on the device after the failed kernel wrote it.
  const uint32_t tripped = *static_cast<volatile uint32_t*>(dev.host_flag);
  if (tripped != 0) return report_failure(family, caps, dev, tripped, problem.stream);
  *error_flag = {dev.device_flag, record_call(dev, problem)};
  return GuardDecision::kLaunch;
}

void set_self_check_runner(SelfCheckRunner check) {
  g_self_check = check != nullptr ? check : gpu_self_check;
}

void family_guard_reset() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& device : g_devices) {
    for (DeviceState& dev : device) {
      dev.state.store(State::kUnchecked, std::memory_order_relaxed);
      dev.verdict.store(HelperVerdict::kRunning, std::memory_order_relaxed);
      dev.context.store(0, std::memory_order_relaxed);
      dev.host_flag = dev.device_flag = nullptr;
    }
  }
}

}  // namespace bwgemm
