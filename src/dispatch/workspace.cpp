// SPDX-License-Identifier: MIT
#include "dispatch/workspace.h"

#include <cstdint>
#include <mutex>
#include <vector>

#include "core/fork_safe.h"

namespace bwgemm {
namespace {

struct Buffer {
  unsigned long long stream_id;
  void* ptr;
  size_t bytes;
};

std::mutex g_mutex;
const bool g_mutex_fork_safe = hold_across_fork(&g_mutex);
std::vector<Buffer> g_buffers;
size_t g_total = 0;

}  // namespace

void* stream_workspace(cudaStream_t stream, size_t bytes) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
      capture != cudaStreamCaptureStatusNone || cudaStreamGetId(stream, &id) != cudaSuccess)
    return nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  Buffer* buffer = nullptr;
  for (Buffer& b : g_buffers)
    if (b.stream_id == id) buffer = &b;
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
    *buffer = {id, fresh, grown};
  } else {
    g_buffers.push_back({id, fresh, grown});
  }
  g_total += grown - held;
  return fresh;
}

}  // namespace bwgemm
