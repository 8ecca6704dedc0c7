// SPDX-License-Identifier: MIT
// Facts about a device that dispatch and launch need, read once per device.
#pragma once

#include <driver_types.h>

#include <cstdint>

namespace bwgemm {

// Per-device state (caches, guards) is kept in arrays of this many slots;
// devices past it are served without a cache.
constexpr int kMaxDevices = 64;

struct DeviceCaps {
  int device;
  int cc_major, cc_minor;
  int sm_count;
  int smem_per_block_optin;  // bytes a block may use after opting in
  // The calling thread's current context (current_device_caps; 0: none or
  // not known): the key of state kept per context.
  uint64_t context_id = 0;
};

// The caps of the calling thread's current device. The first call for a
// device queries the CUDA runtime; later calls read the cache. The device is
// asked of the runtime once per current context (a context's device never
// changes). False when the runtime cannot tell (no device, no driver).
bool current_device_caps(DeviceCaps* out);

// The device whose context `stream` belongs to; `current_device` for the
// default streams (legacy, per-thread), which follow the current device. -1
// when the runtime cannot tell. A cuBLAS handle has no device getter: its
// stream is the only sign of the device it was made for. The calling thread's
// last answer is kept, so a run of calls on one stream queries the runtime
// once.
int stream_device(cudaStream_t stream, int current_device);

// The unique id (cuCtxGetId) of the calling thread's current context, or 0
// when it has none or the driver cannot say. Ids are never reused in a
// process: after cudaDeviceReset the device's new primary context has a new
// one, so per-device state made in the old context (mapped memory, function
// attributes) is known to be gone.
uint64_t current_context_id();

// Whether `stream` is capturing into a graph: 1 yes, 0 no, -1 when the driver
// cannot say. Asked of the driver directly, as the context is: the guard asks
// on every launch (host time per call, docs/perf.md).
int stream_capturing(cudaStream_t stream);

// Tests only: forget every cached device and stream answer.
void device_caps_reset();

}  // namespace bwgemm
