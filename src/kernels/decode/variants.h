// SPDX-License-Identifier: MIT
// The decode kernel's instantiations, by type pair and shape (config.h), and
// its launch: variants.cu and enqueue.cpp on the GPU, src/emu/ in the
// emulation build.
#pragma once

#include <cuda_runtime_api.h>

#include "core/problem.h"
#include "kernels/decode/params.h"

namespace bwgemm::decode {

using DecodeKernel = void (*)(DecodeParams);

// NULL for a type pair the kernel is not built for.
DecodeKernel kernel_for(DType ab, DType out, int shape);

// Enqueues `ctas` CTAs of kThreads threads with `smem_bytes` of dynamic
// shared memory; with `programmatic`, as a programmatic dependent of the
// previous grid (the kernel waits for that grid either way).
cudaError_t enqueue_decode(DecodeKernel kernel, unsigned ctas, uint32_t smem_bytes,
                           const DecodeParams& params, bool programmatic, cudaStream_t stream);

}  // namespace bwgemm::decode
