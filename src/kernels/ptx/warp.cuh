// SPDX-License-Identifier: MIT
// Warp-level helpers: leader election and register reallocation.
#pragma once

#include "kernels/ptx/device.cuh"

namespace bwgemm::ptx {

// elect.sync: true in exactly one lane of the (converged) warp.
BWGEMM_DEVICE bool elect_one() {
  uint32_t elected;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "elect.sync _|p, 0xffffffff;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}"
      : "=r"(elected));
  return elected != 0;
}

// Reconverges the warp (bar.warp.sync) before a .aligned instruction.
BWGEMM_DEVICE void sync_warp() { asm volatile("bar.warp.sync 0xffffffff;" ::: "memory"); }

// setmaxnreg: every warp of the warpgroup executes the same one.
template <uint32_t kRegisters>
BWGEMM_DEVICE void increase_registers() {
  static_assert(kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256);
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegisters));
}

template <uint32_t kRegisters>
BWGEMM_DEVICE void decrease_registers() {
  static_assert(kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256);
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegisters));
}

}  // namespace bwgemm::ptx
