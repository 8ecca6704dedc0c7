// SPDX-License-Identifier: MIT
// Warp-level helpers: leader election and register reallocation.
#pragma once

#include "kernels/ptx/device.cuh"

namespace bwgemm::ptx {

// elect.sync: true in exactly one lane of the (converged) warp.
BWGEMM_DEVICE bool elect_one() {
#if defined(BWGEMM_EMU)
  return emu::elect_one();
#else
  uint32_t elected;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "elect.sync _|p, 0xffffffff;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}"
      : "=r"(elected));
  return elected != 0;
#endif
}

// Reconverges the warp (bar.warp.sync) before a .aligned instruction.
BWGEMM_DEVICE void sync_warp() {
#if defined(BWGEMM_EMU)
  emu::sync_warp();
#else
  asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
#endif
}

// shfl.sync.idx over the whole warp: `value` of lane `src_lane`.
BWGEMM_DEVICE uint32_t shfl_idx(uint32_t value, uint32_t src_lane) {
#if defined(BWGEMM_EMU)
  return emu::shfl_idx(value, src_lane);
#else
  uint32_t out;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;"
               : "=r"(out)
               : "r"(value), "r"(src_lane)
               : "memory");
  return out;
#endif
}

// setmaxnreg: every warp of the warpgroup executes the same one.
template <uint32_t kRegisters>
BWGEMM_DEVICE void increase_registers() {
  static_assert(kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256);
#if defined(BWGEMM_EMU)
  emu::setmaxnreg(kRegisters, true);
#else
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegisters));
#endif
}

template <uint32_t kRegisters>
BWGEMM_DEVICE void decrease_registers() {
  static_assert(kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256);
#if defined(BWGEMM_EMU)
  emu::setmaxnreg(kRegisters, false);
#else
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegisters));
#endif
}

}  // namespace bwgemm::ptx
