// SPDX-License-Identifier: MIT
// Proxy fences (PTX ISA 9.7.13.4).
#pragma once

#include "kernels/ptx/device.cuh"

namespace bwgemm::ptx {

// Orders this thread's generic-proxy shared-memory writes before later
// async-proxy (TMA, wgmma) accesses; executed by the writing threads before
// the barrier that hands the buffer over.
BWGEMM_DEVICE void fence_proxy_async_smem() {
#if defined(BWGEMM_EMU)
  emu::fence_proxy_async_smem();
#else
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

}  // namespace bwgemm::ptx
