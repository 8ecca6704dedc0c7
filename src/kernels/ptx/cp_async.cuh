// SPDX-License-Identifier: MIT
// Non-bulk asynchronous copies from global to shared memory (PTX ISA 9.7.9.3
// cp.async): 16 bytes at a time, for operand rows the TMA cannot address
// (kernels/common/line_load.cuh). Each thread's copies form groups of its
// own; a thread sees a group's bytes once it has waited for the group.
#pragma once

#include "kernels/ptx/index.cuh"

namespace bwgemm::ptx {

// Copies the first `src_bytes` (0 to 16) of the 16 bytes at `src` into the
// 16 bytes at `dst` and zero-fills the rest; the bytes past src_bytes are not
// read. Both addresses 16-byte aligned. .cg: cached in L2 only, since the
// bytes are read once, from shared memory. Joins this thread's open group.
BWGEMM_DEVICE void cp_async_16(void* dst, const void* src, uint32_t src_bytes) {
#if defined(BWGEMM_EMU)
  emu::cp_async_16(dst, src, src_bytes);
#else
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_address(dst)), "l"(src),
               "r"(src_bytes)
               : "memory");
#endif
}

// Closes this thread's open group (an empty group is complete at once).
BWGEMM_DEVICE void cp_async_commit() {
#if defined(BWGEMM_EMU)
  emu::cp_async_commit();
#else
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Waits until at most kPending of this thread's committed groups are
// incomplete; the bytes of the others are then visible to this thread.
template <int kPending>
BWGEMM_DEVICE void cp_async_wait() {
#if defined(BWGEMM_EMU)
  emu::cp_async_wait(kPending);
#else
  asm volatile("cp.async.wait_group %0;" ::"n"(kPending) : "memory");
#endif
}

}  // namespace bwgemm::ptx
