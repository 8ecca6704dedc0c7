// SPDX-License-Identifier: MIT
// The benchmark's named suites, the shapes in them, and the column-major
// geometry (leading dimensions, element counts) each shape implies.
#ifndef BWGEMM_BENCH_SUITES_H
#define BWGEMM_BENCH_SUITES_H

#include <cstdint>
#include <string>
#include <vector>

#include "common.h"

namespace bench {

// kMin: every leading dimension is the smallest cuBLAS accepts (the row count
// of the stored matrix), which is unaligned whenever that count is not a
// multiple of 8 elements. kPad8: rounded up to a multiple of 8 elements (16
// bytes), the layout a caller would choose to stay on the fast paths.
enum class LdMode { kMin, kPad8 };

// The sizes of the aligned call an odd shape is held to (GPT-2's logits at
// vocabulary 50257 against 50304, 4095x4097x4096 against 4096^3); all zero
// where there is none. See baseline_of().
struct BaselineDims {
  int64_t m = 0, n = 0, k = 0;
};

// One column-major GEMM, C[m x n] = op(A)[m x k] * op(B)[k x n], in cuBLAS's
// terms. batch > 1 runs the strided-batched entry point with packed batches.
struct Shape {
  int64_t m = 0, n = 0, k = 0;
  cublasOperation_t op_a = CUBLAS_OP_T, op_b = CUBLAS_OP_N;
  DType dtype = DType::kF16;
  int64_t batch = 1;
  LdMode ld = LdMode::kMin;
  // Through cublasLtMatmul with a bias epilogue (PyTorch's Linear with bias)
  // instead of cublasGemmEx; non-batched only.
  bool lt = false;
  BaselineDims baseline;
  std::string note;  // what the shape stands for, shown by --list
};

bool has_baseline(const Shape& s);
// The baseline call: `s` with the baseline's sizes and minimal leading
// dimensions (aligned by choice of sizes), no baseline of its own.
Shape baseline_of(const Shape& s);

// What a suite measures. kThroughput: device time per call of the three paths,
// interleaved (plus eager and CUDA-graph rates when `rates` is set).
// kHostCost: host time per call on a tiny GEMM (see measure.h).
enum class SuiteKind { kThroughput, kHostCost };

struct Suite {
  std::string name;
  std::string summary;
  SuiteKind kind = SuiteKind::kThroughput;
  bool rates = false;
  std::vector<Shape> shapes;
};

// Per batch entry; batches are packed, so the batch strides are the counts.
struct Layout {
  int64_t lda, ldb, ldc;
  int64_t a_elems, b_elems, c_elems;
};

Layout layout_of(const Shape& s);

// The built-in suites, in the order `--suite all` runs them.
const std::vector<Suite>& builtin_suites();

// Parses "seed,llm" or "all" into suites; on an unknown name returns false and
// says which names exist.
bool select_suites(const std::string& list, std::vector<Suite>* out, std::string* error);

// Parses "m,n,k[,op][,dtype][,batch]" (op NN|NT|TN|TT, default TN; dtype
// fp16|bf16, default fp16; batch default 1).
bool parse_shape(const std::string& text, Shape* out, std::string* error);

std::string op_name(const Shape& s);    // "TN": op(A) then op(B), as cuBLAS orders them
std::string dims_name(const Shape& s);  // "4096x8192x4096" (m x n x k), "64x64x64-lt"
const char* ld_name(LdMode mode);       // "min" | "pad8"
double flop_count(const Shape& s);      // 2 m n k batch

}  // namespace bench

#endif  // BWGEMM_BENCH_SUITES_H
