// SPDX-License-Identifier: MIT
// The cuBLAS handles bwgemm saw created: cublasCreate_v2 and cublasDestroy_v2
// are interposed (src/api/handle_exports.cpp), forwarded to the real cuBLAS
// and recorded here. Only a recorded handle is ever read by bwgemm (its
// pointer mode, stream, SM count target) or run on a kernel: any other handle
// may have been made by another copy of cuBLAS in the process, whose object
// the real cuBLAS's getters would misread, so its calls are forwarded unread.
//
// Every recorded handle was made by real_cublas(), the copy bwgemm forwards
// to: so a recorded handle's calls go to the copy that made it. Which copy made
// an unrecorded handle cannot be known (a handle is an opaque heap address, and
// asking a copy about a handle it did not make is the fault itself); its calls
// go to real_cublas() too, the copy the caller's own reference would have
// reached without bwgemm (the loader's soname rule, see README).
//
// Lock-free (atomic slots), so thread-safe and fork-safe; a lookup reads one
// group: a cache line of addresses and one of devices.
#pragma once

#include <cublas_api.h>

namespace bwgemm {

// cublasCreate_v2 of the real cuBLAS; a handle it makes is recorded.
// CUBLAS_STATUS_NOT_INITIALIZED when cuBLAS cannot be found.
cublasStatus_t create_handle(cublasHandle_t* handle);

// Forgets `handle`, then cublasDestroy_v2 of the real cuBLAS (forgotten first:
// once destroyed, its address may be handed out again at once).
cublasStatus_t destroy_handle(cublasHandle_t handle);

// The device current when `handle` was created through create_handle (cuBLAS
// binds a handle to it), or kUnknownHandle if it was not, or was destroyed
// since. A call made with another device current is cuBLAS's to refuse.
constexpr int kUnknownHandle = -1;
int handle_device(cublasHandle_t handle);

// The table itself. remember_handle records (or re-records) the handle's
// device; it returns false when the handle's slot group is full
// (handle_registry::kSlotsPerGroup handles that hash alike): the handle then
// stays unknown (forwarded, never misread) and a warning says so once.
bool remember_handle(cublasHandle_t handle, int device);
void forget_handle(cublasHandle_t handle);

namespace handle_registry {
constexpr int kGroupBits = 10;
constexpr int kGroups = 1 << kGroupBits;
constexpr int kSlotsPerGroup = 8;  // one 64-byte cache line of addresses
constexpr int kCapacity = kGroups * kSlotsPerGroup;
}  // namespace handle_registry

}  // namespace bwgemm
