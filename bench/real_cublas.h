// SPDX-License-Identifier: MIT
// The real cuBLAS, reached by dlopen/dlvsym. The bench links libbwgemm, which
// exports cublasGemmEx itself (under cuBLAS's version node); calling the name
// would measure bwgemm twice. Looking the symbols up in the library handle of
// libcublas.so.<major> is what makes the baseline unambiguous.
#ifndef BWGEMM_BENCH_REAL_CUBLAS_H
#define BWGEMM_BENCH_REAL_CUBLAS_H

#include <cublasLt.h>

#include <string>

#include "common.h"

namespace bench {

struct RealCublas {
  std::string path;     // file the library was loaded from
  std::string version;  // "13.1.0", from cublasGetProperty
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasSetWorkspace_v2) set_workspace;
  // bwgemm's entry points have exactly cuBLAS's signatures, and unlike
  // cublasGemmEx (which C++ overloads with its _64 form) name one function.
  decltype(&bwgemmGemmEx) gemm_ex;
  decltype(&bwgemmGemmStridedBatchedEx) gemm_strided_batched_ex;
  // The real cuBLASLt (libcublasLt.so.<major>, found the same way): its
  // cublasLtMatmul is the -lt rows' baseline; libbwgemm's is called by name.
  decltype(&cublasLtMatmul) lt_matmul;
  decltype(&cublasLtCreate) lt_create;
  decltype(&cublasLtDestroy) lt_destroy;
  decltype(&cublasLtMatmulDescCreate) lt_desc_create;
  decltype(&cublasLtMatmulDescSetAttribute) lt_desc_set;
  decltype(&cublasLtMatmulDescDestroy) lt_desc_destroy;
  decltype(&cublasLtMatrixLayoutCreate) lt_layout_create;
  decltype(&cublasLtMatrixLayoutDestroy) lt_layout_destroy;
};

// Loads the real cuBLAS and cuBLASLt (the copy already in the process if any,
// else by soname, else from the toolkit the bench was built against). Aborts with a
// message if it cannot, or if a symbol resolves into libbwgemm.
RealCublas load_real_cublas();

}  // namespace bench

#endif  // BWGEMM_BENCH_REAL_CUBLAS_H
