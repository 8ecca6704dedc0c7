// SPDX-License-Identifier: MIT
#include "dispatch/workspace.h"

#include <cstdint>
#include <mutex>
#include <vector>

#include "core/device_caps.h"
#include "core/fork_safe.h"

namespace bwgemm {
namespace {

struct Buffer {
  unsigned long long stream_id;
  void* ptr;
  size_t bytes;
  uint64_t context;  // the context it was allocated in (current_context_id)
};

std::mutex g_mutex;
const bool g_mutex_fork_safe = hold_across_fork(&g_mutex);
std::vector<Buffer> g_buffers;
size_t g_total = 0;

}  // namespace

void* stream_workspace(cudaStream_t stream, size_t bytes) {
  unsigned long long id = 0;
  if (stream_capturing(stream) != 0 || cudaStreamGetId(stream, &id) != cudaSuccess) return nullptr;
  const uint64_t context = current_context_id();
  if (context == 0) return nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  // A buffer belongs to its stream in its context: after a device reset,
  // which freed it with the old context, it is never used or freed again (the
  // legacy stream keeps its id across the reset). It still counts towards the
  // ceiling.
  Buffer* buffer = nullptr;
  for (Buffer& b : g_buffers)
    if (b.stream_id == id && b.context == context) buffer = &b;
  if (buffer != nullptr && buffer->bytes >= bytes) return buffer->ptr;
  const size_t held = buffer != nullptr ? buffer->bytes : 0;
  // Grow by half again at least, so a slowly growing size does not
  // reallocate on every call.
  const size_t grown = bytes > held + held / 2 ? bytes : held + held / 2;
  if (g_total - held + grown > kWorkspaceCeilingBytes) return nullptr;
  // Stream-ordered: the old buffer is freed after the work already queued on
  // this stream, the new one is ready for the work that follows.
  void* fresh = nullptr;
  if (cudaMallocAsync(&fresh, grown, stream) != cudaSuccess) return nullptr;
  if (buffer != nullptr) {
    cudaFreeAsync(buffer->ptr, stream);
    *buffer = {id, fresh, grown, context};
  } else {
    g_buffers.push_back({id, fresh, grown, context});
  }
  g_total += grown - held;
  return fresh;
}

void* graph_workspace(cudaStream_t stream, size_t bytes) {
  if (stream_capturing(stream) != 1) return nullptr;
  void* room = nullptr;
  return cudaMallocAsync(&room, bytes, stream) == cudaSuccess ? room : nullptr;
}

void release_graph_workspace(void* workspace, cudaStream_t stream) {
  cudaFreeAsync(workspace, stream);
}

}  // namespace bwgemm
