// SPDX-License-Identifier: MIT
// Facts about a device that dispatch and launch need, read once per device.
#pragma once

namespace bwgemm {

// Per-device state (caches, guards) is kept in arrays of this many slots;
// devices past it are served without a cache.
constexpr int kMaxDevices = 64;

struct DeviceCaps {
  int device;
  int cc_major, cc_minor;
  int sm_count;
  int smem_per_block_optin;  // bytes a block may use after opting in
};

// The caps of the calling thread's current device. The first call for a
// device queries the CUDA runtime; later calls read the cache. False when the
// runtime cannot tell (no device, no driver).
bool current_device_caps(DeviceCaps* out);

// Tests only: forget every cached device.
void device_caps_reset();

}  // namespace bwgemm
