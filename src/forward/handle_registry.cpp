// SPDX-License-Identifier: MIT
#include "forward/handle_registry.h"

#include <atomic>
#include <cstdint>

#include "core/log.h"
#include "forward/real_cublas.h"

namespace bwgemm {
namespace {

using namespace handle_registry;

// A slot holds a handle's address or 0. A handle's slots are the group its
// address hashes to; a lookup reads the whole group (a removal leaves holes,
// so there is no end-of-chain marker to stop at).
struct alignas(64) Group {
  std::atomic<uintptr_t> slots[kSlotsPerGroup];
};
static_assert(sizeof(Group) == 64, "a group is one cache line");

// Zero-initialized static storage: every slot empty before any constructor.
Group g_groups[kGroups];
std::atomic<bool> g_full_warned{false};

Group& group_of(uintptr_t address) {
  // Fibonacci hashing; the low bits of a heap address are alignment.
  const uint64_t mixed = (uint64_t{address} >> 4) * 0x9E3779B97F4A7C15ull;
  return g_groups[mixed >> (64 - kGroupBits)];
}

}  // namespace

bool remember_handle(cublasHandle_t handle) {
  const auto key = reinterpret_cast<uintptr_t>(handle);
  if (key == 0) return false;
  Group& group = group_of(key);
  for (std::atomic<uintptr_t>& slot : group.slots)
    if (slot.load(std::memory_order_acquire) == key) return true;
  for (std::atomic<uintptr_t>& slot : group.slots) {
    uintptr_t empty = 0;
    if (slot.compare_exchange_strong(empty, key, std::memory_order_acq_rel)) return true;
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

bool is_known_handle(cublasHandle_t handle) {
  const auto key = reinterpret_cast<uintptr_t>(handle);
  if (key == 0) return false;
  for (const std::atomic<uintptr_t>& slot : group_of(key).slots)
    if (slot.load(std::memory_order_acquire) == key) return true;
  return false;
}

cublasStatus_t create_handle(cublasHandle_t* handle) {
  const RealCublas* real = real_cublas();
  if (real == nullptr || real->create == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  const cublasStatus_t status = real->create(handle);
  if (status == CUBLAS_STATUS_SUCCESS && handle != nullptr) remember_handle(*handle);
  return status;
}

cublasStatus_t destroy_handle(cublasHandle_t handle) {
  forget_handle(handle);
  const RealCublas* real = real_cublas();
  if (real == nullptr || real->destroy == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  return real->destroy(handle);
}

}  // namespace bwgemm
