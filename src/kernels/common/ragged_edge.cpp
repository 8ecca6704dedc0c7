// SPDX-License-Identifier: MIT
#include "kernels/common/ragged_edge.h"

#include <type_traits>

#include "kernels/common/tile_scheduler.h"

namespace bwgemm {
namespace {

template <class T>
T* advance(T* p, int64_t bytes) {
  using Byte = std::conditional_t<std::is_const_v<T>, const char, char>;
  return p == nullptr ? nullptr : static_cast<T*>(static_cast<Byte*>(p) + bytes);
}

}  // namespace

EdgeSplit split_rows(const GemmProblem& p, int64_t keep) {
  const int64_t ab = int64_t(dtype_size(p.ab_type)), cd = int64_t(dtype_size(p.c_type));
  EdgeSplit s{p, p};
  s.body.n = keep;
  s.edge.n = p.n - keep;
  s.edge.b = advance(p.b, (p.trans_b ? keep : keep * p.ldb) * ab);
  s.edge.c = advance(p.c, keep * p.ldc * cd);
  s.edge.d = advance(p.d, keep * p.ldd * cd);
  return s;
}

EdgeSplit split_cols(const GemmProblem& p, int64_t keep) {
  const int64_t ab = int64_t(dtype_size(p.ab_type)), cd = int64_t(dtype_size(p.c_type));
  EdgeSplit s{p, p};
  s.body.m = keep;
  s.edge.m = p.m - keep;
  s.edge.a = advance(p.a, (p.trans_a ? keep * p.lda : keep) * ab);
  s.edge.c = advance(p.c, keep * cd);
  s.edge.d = advance(p.d, keep * cd);
  s.edge.epilogue.bias = advance(p.epilogue.bias, keep * int64_t(dtype_size(p.epilogue.bias_type)));
  return s;
}

bool split_ragged_edge(const GemmProblem& p, const TileShape& shape, int64_t clusters,
                       EdgeSplit* out) {
  if (p.batch != 1 || p.k < kMinEdgeDepth || clusters <= 0) return false;
  // The view's rows are cuBLAS's n (kernel_view.h).
  const int64_t tile_rows = int64_t{shape.row_ctas()} * shape.block_rows;
  const int64_t row_blocks = ceil_div(p.n, tile_rows), col_blocks = ceil_div(p.m, shape.block_cols);
  const int64_t rows_left = p.n % tile_rows;
  if (row_blocks < 2 || rows_left == 0 || rows_left > tile_rows / 4 ||
      waves((row_blocks - 1) * col_blocks, clusters) == waves(row_blocks * col_blocks, clusters))
    return false;
  *out = split_rows(p, p.n - rows_left);
  return true;
}

}  // namespace bwgemm
