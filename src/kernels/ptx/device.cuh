// SPDX-License-Identifier: MIT
// Qualifiers for code shared by the device build and host-side users (unit
// tests, the launcher, and later the CPU emulation backend).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define BWGEMM_HOST_DEVICE __host__ __device__ __forceinline__
#define BWGEMM_DEVICE __device__ __forceinline__
#else
#define BWGEMM_HOST_DEVICE inline
#define BWGEMM_DEVICE inline
#endif

// True while compiling device code for the GPU (not the host pass, not the
// emulation backend): inline PTX may be used.
#if defined(__CUDA_ARCH__)
#define BWGEMM_PTX 1
#else
#define BWGEMM_PTX 0
#endif
