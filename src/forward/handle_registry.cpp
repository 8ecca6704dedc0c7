// SPDX-License-Identifier: MIT
#include "forward/handle_registry.h"

#include <atomic>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/log.h"
#include "forward/real_cublas.h"

namespace bwgemm {
namespace {

using namespace handle_registry;

// A slot holds a handle's address or 0, and the device it was made on. A
// handle's slots are the group its address hashes to; a lookup reads the whole
// group (a removal leaves holes, so there is no end-of-chain marker to stop
// at). A slot's device is written after its address is taken: the handle
// reaches its user (and so any lookup) only after remember_handle returns.
struct alignas(64) Group {
  std::atomic<uintptr_t> slots[kSlotsPerGroup];
  std::atomic<int> devices[kSlotsPerGroup];
};
static_assert(sizeof(Group) == 128, "a group is two cache lines");

// Zero-initialized static storage: every slot empty before any constructor.
Group g_groups[kGroups];
std::atomic<bool> g_full_warned{false};

Group& group_of(uintptr_t address) {
  // Fibonacci hashing; the low bits of a heap address are alignment.
  const uint64_t mixed = (uint64_t{address} >> 4) * 0x9E3779B97F4A7C15ull;
  return g_groups[mixed >> (64 - kGroupBits)];
}

}  // namespace

bool remember_handle(cublasHandle_t handle, int device) {
  const auto key = reinterpret_cast<uintptr_t>(handle);
  if (key == 0) return false;
  Group& group = group_of(key);
  for (int i = 0; i < kSlotsPerGroup; ++i)
    if (group.slots[i].load(std::memory_order_acquire) == key) {
      group.devices[i].store(device, std::memory_order_release);
      return true;
    }
  for (int i = 0; i < kSlotsPerGroup; ++i) {
    uintptr_t empty = 0;
    if (group.slots[i].compare_exchange_strong(empty, key, std::memory_order_acq_rel)) {
      group.devices[i].store(device, std::memory_order_release);
      return true;
    }
  }
  if (!g_full_warned.exchange(true))
    log_warning(
        "more than %d live cuBLAS handles share a slot group; calls on handle %p go to "
        "cuBLAS (further ones are not reported)",
        kSlotsPerGroup, static_cast<void*>(handle));
  return false;
}

// Clears every slot holding the handle (two racing remember_handle calls on
// one handle may have taken two).
void forget_handle(cublasHandle_t handle) {
  const auto key = reinterpret_cast<uintptr_t>(handle);
  if (key == 0) return;
  for (std::atomic<uintptr_t>& slot : group_of(key).slots) {
    uintptr_t expected = key;
    slot.compare_exchange_strong(expected, 0, std::memory_order_acq_rel);
  }
}

int handle_device(cublasHandle_t handle) {
  const auto key = reinterpret_cast<uintptr_t>(handle);
  if (key == 0) return kUnknownHandle;
  const Group& group = group_of(key);
  for (int i = 0; i < kSlotsPerGroup; ++i)
    if (group.slots[i].load(std::memory_order_acquire) == key)
      return group.devices[i].load(std::memory_order_acquire);
  return kUnknownHandle;
}

cublasStatus_t create_handle(cublasHandle_t* handle) {
  const RealCublas* real = real_cublas();
  if (real == nullptr || real->create == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  // cuBLAS binds a handle to the device current when it is made.
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) device = kUnknownHandle;
  const cublasStatus_t status = real->create(handle);
  if (status == CUBLAS_STATUS_SUCCESS && handle != nullptr && device != kUnknownHandle)
    remember_handle(*handle, device);
  return status;
}

cublasStatus_t destroy_handle(cublasHandle_t handle) {
  forget_handle(handle);
  const RealCublas* real = real_cublas();
  if (real == nullptr || real->destroy == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  return real->destroy(handle);
}

}  // namespace bwgemm
