// SPDX-License-Identifier: MIT
// Qualifiers for code shared by the device build and host-side users (unit
// tests, the launcher, and the CPU emulation backend).
//
// BWGEMM_EMU selects the emulation backend: the kernel bodies are compiled by
// the host compiler and every primitive of this layer calls src/emu/ instead
// of executing inline PTX. Nothing changes for the device build.
#pragma once

#include <cstdint>

#if defined(BWGEMM_EMU)
#if defined(__CUDACC__)
#error "BWGEMM_EMU is a host build of the kernels: compile it with the host compiler"
#endif
#include "emu/api.h"
#endif

#if defined(__CUDACC__)
#define BWGEMM_HOST_DEVICE __host__ __device__ __forceinline__
#define BWGEMM_DEVICE __device__ __forceinline__
#else
#define BWGEMM_HOST_DEVICE inline
#define BWGEMM_DEVICE inline
#endif
