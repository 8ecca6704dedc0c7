// SPDX-License-Identifier: MIT
// The fake stream_workspace() and enqueue_pack16() the unit tests link
// instead of dispatch/workspace.cpp and kernels/common/pack.cu (both need a
// GPU): a host buffer handed out up to a size the test sets, and a recorder
// of the copies.
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/common/pack.h"

namespace fake {

struct PackCall {
  bwgemm::Matrix16 source;
  void* dst;
};

// Workspaces of up to `limit` bytes (0: none, as inside a capture), no
// copies or requests recorded.
void reset_pack(size_t limit = size_t{1} << 20);
const std::vector<PackCall>& pack_calls();
// The sizes stream_workspace() was asked for, in order.
const std::vector<size_t>& workspace_requests();
// The start of the workspace handed out.
const void* workspace_base();
// Inside a capture (reset_pack ends it): stream_workspace() hands out none,
// graph_workspace() its own buffer, whose releases are counted.
void set_capturing(bool capturing);
const void* graph_workspace_base();
int graph_workspace_releases();

}  // namespace fake
