// SPDX-License-Identifier: MIT
// Device memory for operands packed into 16-byte rows (kernels/common/pack.h):
// one buffer per stream (by its process-unique id), so calls on different
// streams never share one; grown in stream order to the largest request and
// kept for the life of the process. Never used inside a stream capture (a
// graph replayed on another stream would share the buffer).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace bwgemm {

// The most device memory all workspaces together may hold.
constexpr size_t kWorkspaceCeilingBytes = size_t{4} << 30;

// A buffer of at least `bytes` for work enqueued on `stream` (of the current
// device), or NULL: the stream is capturing, the ceiling would be passed, or
// the runtime refused. Library: dispatch/workspace.cpp; the unit tests fake it.
void* stream_workspace(cudaStream_t stream, size_t bytes);

}  // namespace bwgemm
