// SPDX-License-Identifier: MIT
// Global memory shared between CTAs of one grid (PTX ISA 9.7.9.8-9.7.9.9,
// 9.7.12.4, 9.7.13.4): 16-byte stores and L2 loads of fp32 quads, a
// device-scope counter and fence. The emulator's threads are fibers of one
// host thread, so there they are plain memory operations.
#pragma once

#include "kernels/ptx/device.cuh"

namespace bwgemm::ptx {

struct Float4 {
  float x, y, z, w;
};

BWGEMM_DEVICE void store_global(float* dst, const Float4& v) {
#if defined(BWGEMM_EMU)
  dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
#else
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(dst), "f"(v.x), "f"(v.y), "f"(v.z),
               "f"(v.w)
               : "memory");
#endif
}

// ld.global.cg: from L2, where other SMs' stores are seen (this SM's L1 is
// not coherent with them).
BWGEMM_DEVICE Float4 load_global_l2(const float* src) {
#if defined(BWGEMM_EMU)
  return {src[0], src[1], src[2], src[3]};
#else
  Float4 v;
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(src)
               : "memory");
  return v;
#endif
}

// atom.add at device scope, relaxed (order it with fence_gpu); the old value.
BWGEMM_DEVICE uint32_t atomic_add_gpu(uint32_t* word, uint32_t value) {
#if defined(BWGEMM_EMU)
  const uint32_t old = *word;
  *word = old + value;
  return old;
#else
  uint32_t old;
  asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;"
               : "=r"(old)
               : "l"(word), "r"(value)
               : "memory");
  return old;
#endif
}

// fence.acq_rel.gpu: this thread's memory operations (and, after a CTA
// barrier, those of the threads it synchronized with) before and after it
// are ordered for every thread of the device.
BWGEMM_DEVICE void fence_gpu() {
#if !defined(BWGEMM_EMU)
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
#endif
}

}  // namespace bwgemm::ptx
