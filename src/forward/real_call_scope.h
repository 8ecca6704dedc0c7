// SPDX-License-Identifier: MIT
// Whether the calling thread is inside the real cuBLAS or cuBLASLt because
// bwgemm called it. libcublas calls cublasLtMatmul through its PLT, so a
// preloaded bwgemm also receives cuBLAS's own internal calls; those must go
// straight to cuBLASLt, untouched and not logged as the user's.
#pragma once

namespace bwgemm {

namespace detail {
extern thread_local int t_real_call_depth;
}

// Held around every call bwgemm makes into the real libraries.
class RealCallScope {
 public:
  RealCallScope() { ++detail::t_real_call_depth; }
  ~RealCallScope() { --detail::t_real_call_depth; }
  RealCallScope(const RealCallScope&) = delete;
  RealCallScope& operator=(const RealCallScope&) = delete;
};

inline bool inside_real_call() { return detail::t_real_call_depth > 0; }

}  // namespace bwgemm
