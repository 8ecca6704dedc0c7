// SPDX-License-Identifier: MIT
// The self-check of a guarded family run on a GPU (self_check.h's cases, then
// the index pattern, in each of the family's configurations), in this
// process: on the calling thread's current device, with the family's kernel
// and the real cuBLAS. It allocates device memory and synchronizes a stream
// of its own. The helper executable runs it in a process of its own
// (helper_check.h); the library itself only when the helper is missing.
#pragma once

#include <cstdint>
#include <string>

#include "core/device_caps.h"
#include "kernels/kernel_family.h"

namespace bwgemm {

// True when every case matched cuBLAS and the index pattern came out in
// place in every configuration; otherwise false with the first failure. The
// kernels report failed waits to `flag`; `host_flag` is the same word as the
// host reads it.
bool gpu_self_check(const KernelFamily& family, const DeviceCaps& caps, ErrorFlag flag,
                    const volatile uint32_t* host_flag, std::string* failure);

}  // namespace bwgemm
