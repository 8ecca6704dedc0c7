// SPDX-License-Identifier: MIT
#include "forward/real_call_scope.h"

namespace bwgemm::detail {

// Initialised statically (no TLS constructor on the hot path).
thread_local int t_real_call_depth = 0;

}  // namespace bwgemm::detail
