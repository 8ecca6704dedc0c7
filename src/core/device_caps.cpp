// SPDX-License-Identifier: MIT
#include "core/device_caps.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <mutex>

#include "core/fork_safe.h"

namespace bwgemm {
namespace {

struct Slot {
  std::atomic<bool> ready{false};
  DeviceCaps caps{};
};
Slot g_slots[kMaxDevices];
std::mutex g_fill_mutex;  // taken only on a device's first query
const bool g_fill_mutex_fork_safe = hold_across_fork(&g_fill_mutex);

// The calling thread's last stream-device answer, valid for its epoch:
// calls on one stream then cost no runtime query. A stream destroyed and its
// address reused on another device would be answered from the old entry; the
// launch on that stream then fails and the call goes to cuBLAS.
struct StreamDevice {
  cudaStream_t stream;
  int device;
  uint64_t epoch;
};
thread_local StreamDevice t_stream_device{nullptr, -1, 0};
// Raised by device_caps_reset: every thread's kept answers are stale.
std::atomic<uint64_t> g_answer_epoch{1};

// The calling thread's last current context and its device: cudaGetDevice
// costs more than the context's id, which the launch needs anyway (host time
// per call, docs/perf.md).
struct ContextDevice {
  uint64_t context_id;
  int device;
  uint64_t epoch;
};
thread_local ContextDevice t_context_device{0, -1, 0};

// The current device, and the current context's id (0: none yet, then the
// runtime is asked every time).
bool current_device(int* device, uint64_t* context_id) {
  const uint64_t context = current_context_id();
  const uint64_t epoch = g_answer_epoch.load(std::memory_order_relaxed);
  *context_id = context;
  if (context != 0 && t_context_device.context_id == context && t_context_device.epoch == epoch) {
    *device = t_context_device.device;
    return true;
  }
  if (cudaGetDevice(device) != cudaSuccess || *device < 0) return false;
  if (context != 0) t_context_device = {context, *device, epoch};
  return true;
}

bool query(int device, DeviceCaps* caps) {
  caps->device = device;
  return cudaDeviceGetAttribute(&caps->cc_major, cudaDevAttrComputeCapabilityMajor, device) ==
             cudaSuccess &&
         cudaDeviceGetAttribute(&caps->cc_minor, cudaDevAttrComputeCapabilityMinor, device) ==
             cudaSuccess &&
         cudaDeviceGetAttribute(&caps->sm_count, cudaDevAttrMultiProcessorCount, device) ==
             cudaSuccess &&
         cudaDeviceGetAttribute(&caps->smem_per_block_optin,
                                cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess;
}

// The driver calls made on every launch, found once. Each is null where the
// driver lacks it.
struct DriverApi {
  CUresult (*get_current)(CUcontext*) = nullptr;
  CUresult (*get_id)(CUcontext, unsigned long long*) = nullptr;
  CUresult (*is_capturing)(CUstream, CUstreamCaptureStatus*) = nullptr;
};

template <class Function>
void find_driver_call(const char* name, Function* out) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &function, 12000, cudaEnableDefault, &found) ==
          cudaSuccess &&
      found == cudaDriverEntryPointSuccess)
    *out = reinterpret_cast<Function>(function);
}

const DriverApi& driver_api() {
  static const DriverApi api = [] {
    DriverApi a;
    find_driver_call("cuCtxGetCurrent", &a.get_current);
    find_driver_call("cuCtxGetId", &a.get_id);
    find_driver_call("cuStreamIsCapturing", &a.is_capturing);
    return a;
  }();
  return api;
}

}  // namespace

bool current_device_caps(DeviceCaps* out) {
  int device = -1;
  uint64_t context_id = 0;
  if (!current_device(&device, &context_id)) return false;
  if (device >= kMaxDevices) {
    if (!query(device, out)) return false;
  } else {
    Slot& slot = g_slots[device];
    if (!slot.ready.load(std::memory_order_acquire)) {
      std::lock_guard<std::mutex> lock(g_fill_mutex);
      if (!slot.ready.load(std::memory_order_relaxed)) {
        if (!query(device, &slot.caps)) return false;
        slot.ready.store(true, std::memory_order_release);
      }
    }
    *out = slot.caps;
  }
  out->context_id = context_id;
  return true;
}

int stream_device(cudaStream_t stream, int current_device) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
    return current_device;
  const uint64_t epoch = g_answer_epoch.load(std::memory_order_relaxed);
  if (t_stream_device.stream == stream && t_stream_device.epoch == epoch)
    return t_stream_device.device;
  // cudaStreamGetDevice on a capturing stream invalidates the capture (seen
  // on an H100, CUDA 13.0): a captured call keeps the current device.
  const int capturing = stream_capturing(stream);
  if (capturing < 0) return -1;
  if (capturing > 0) return current_device;
  int device = -1;
  if (cudaStreamGetDevice(stream, &device) != cudaSuccess) return -1;
  t_stream_device = {stream, device, epoch};
  return device;
}

uint64_t current_context_id() {
  const DriverApi& api = driver_api();
  CUcontext context = nullptr;
  unsigned long long id = 0;
  if (api.get_current == nullptr || api.get_id == nullptr ||
      api.get_current(&context) != CUDA_SUCCESS || context == nullptr ||
      api.get_id(context, &id) != CUDA_SUCCESS)
    return 0;
  return id;
}

int stream_capturing(cudaStream_t stream) {
  const DriverApi& api = driver_api();
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  if (api.is_capturing == nullptr ||
      api.is_capturing(reinterpret_cast<CUstream>(stream), &status) != CUDA_SUCCESS)
    return -1;
  return status != CU_STREAM_CAPTURE_STATUS_NONE ? 1 : 0;
}

void device_caps_reset() {
  g_answer_epoch.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(g_fill_mutex);
  for (Slot& s : g_slots) s.ready.store(false, std::memory_order_relaxed);
}

}  // namespace bwgemm
