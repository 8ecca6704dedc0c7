// SPDX-License-Identifier: MIT
// Device memory for operands packed into 16-byte rows (kernels/common/pack.h)
// and a launch's own room (KernelFamily::workspace_room): one buffer per
// stream (by its process-unique id), so calls on different streams never
// share one; grown in stream order to the largest request and kept for the
// life of the process. Never used inside a stream capture (a graph replayed
// on another stream would share the buffer): there a launch's room is the
// graph's own, allocated and freed by nodes of the captured graph.
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

// Inside a capture on `stream`, `bytes` that the graph being captured
// allocates (cudaMallocAsync captured as an allocation node: every graph,
// and every launch of it, has its own), or NULL: not capturing, or refused.
// release_graph_workspace frees it after the work that uses it, in the same
// capture.
void* graph_workspace(cudaStream_t stream, size_t bytes);
void release_graph_workspace(void* workspace, cudaStream_t stream);

}  // namespace bwgemm
