// SPDX-License-Identifier: MIT
#include "support/fake_pack.h"

#include "dispatch/workspace.h"

namespace fake {
namespace {

alignas(256) unsigned char g_workspace[1 << 20];
size_t g_limit = sizeof g_workspace;
std::vector<PackCall> g_calls;
std::vector<size_t> g_requests;
bool g_capturing = false;
alignas(256) unsigned char g_graph_workspace[1 << 20];
int g_graph_releases = 0;

}  // namespace

void reset_pack(size_t limit) {
  g_limit = limit < sizeof g_workspace ? limit : sizeof g_workspace;
  g_calls.clear();
  g_requests.clear();
  g_capturing = false;
  g_graph_releases = 0;
}
void set_capturing(bool capturing) { g_capturing = capturing; }
const void* graph_workspace_base() { return g_graph_workspace; }
int graph_workspace_releases() { return g_graph_releases; }
const std::vector<PackCall>& pack_calls() { return g_calls; }
const std::vector<size_t>& workspace_requests() { return g_requests; }
const void* workspace_base() { return g_workspace; }

}  // namespace fake

namespace bwgemm {

void* stream_workspace(cudaStream_t, size_t bytes) {
  fake::g_requests.push_back(bytes);
  return !fake::g_capturing && bytes <= fake::g_limit ? fake::g_workspace : nullptr;
}

void* graph_workspace(cudaStream_t, size_t bytes) {
  return fake::g_capturing && bytes <= sizeof fake::g_graph_workspace ? fake::g_graph_workspace
                                                                      : nullptr;
}

void release_graph_workspace(void* workspace, cudaStream_t) {
  if (workspace == fake::g_graph_workspace) ++fake::g_graph_releases;
}

cudaError_t enqueue_pack16(const Matrix16& m, void* dst, cudaStream_t) {
  fake::g_calls.push_back({m, dst});
  return cudaSuccess;
}

}  // namespace bwgemm
