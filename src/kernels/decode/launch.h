// SPDX-License-Identifier: MIT
// The decode kernel's host side: its parameter block and its launch.
#pragma once

#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/common/kernel_view.h"
#include "kernels/decode/params.h"
#include "kernels/kernel_family.h"

namespace bwgemm::decode {

// The parameter block of a view check() accepted, for a shape of config.h
// (exposed for unit tests).
DecodeParams make_params(const KernelView& v, int shape);

// Whether launch() has a kernel for `p` (check()ed): one is built for its
// type pair. Callers that must know before enqueuing anything else ask this.
bool has_kernel(const GemmProblem& p);

// Whether a call follows this thread's previous decode call on its stream
// directly, as far as can be told here: the same stream and the same tokens
// (a model's k projection after its q, v after k). Records the call.
bool follows_last_call(cudaStream_t stream, const void* tokens);

// Enqueues the kernel on p.stream: kEnqueued, or kForward with LAUNCH_FAILED
// (nothing enqueued; the caller decides where the call goes).
// `after_own_grid`: the caller has just enqueued a grid of this library on
// p.stream (a ragged edge after its body).
LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, bool after_own_grid);

}  // namespace bwgemm::decode
