// SPDX-License-Identifier: MIT
#include "real_cublas.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>

#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)

namespace bench {
namespace {

// cuBLAS's and cuBLASLt's sonames, which are also the version nodes of their
// exports.
constexpr const char* kSoname = "libcublas.so." BENCH_STR(CUBLAS_VER_MAJOR);
constexpr const char* kLtSoname = "libcublasLt.so." BENCH_STR(CUBLAS_VER_MAJOR);

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "bwgemm-bench: cannot use the real cuBLAS: %s\n", what.c_str());
  std::exit(kExitFailure);
}

void* open_library(const char* soname) {
  // RTLD_NOLOAD finds a copy already in the process, even one loaded RTLD_LOCAL.
  if (void* h = dlopen(soname, RTLD_NOW | RTLD_NOLOAD)) return h;
  if (void* h = dlopen(soname, RTLD_NOW)) return h;
  const std::string first_error = dlerror();
  // The loader's path may not include the toolkit (no ldconfig entry, no
  // LD_LIBRARY_PATH); the toolkit the bench was built with is the next best.
  const std::string fallback = std::string(BENCH_CUBLAS_FALLBACK_DIR) + "/" + soname;
  if (void* h = dlopen(fallback.c_str(), RTLD_NOW)) return h;
  fail("dlopen(\"" + std::string(soname) + "\") failed: " + first_error + "; and dlopen(\"" +
       fallback + "\") failed: " + dlerror());
}

template <class Fn>
void resolve(void* lib, const char* name, Fn* out, const char* node = kSoname) {
  void* sym = dlvsym(lib, name, node);
  if (sym == nullptr) fail(std::string(name) + "@" + node + " not found");
  // libbwgemm defines the GEMM names under the same node; make sure the handle
  // did not lead back to it.
  Dl_info theirs{}, ours{};
  if (dladdr(sym, &theirs) && dladdr(reinterpret_cast<void*>(&bwgemmGemmEx), &ours) &&
      theirs.dli_fbase == ours.dli_fbase)
    fail(std::string(name) + " resolved to libbwgemm itself (" + ours.dli_fname + ")");
  *out = reinterpret_cast<Fn>(sym);
}

}  // namespace

RealCublas load_real_cublas() {
  void* lib = open_library(kSoname);
  RealCublas r{};
  struct link_map* map = nullptr;
  r.path = dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr ? map->l_name : kSoname;

  resolve(lib, "cublasSetStream_v2", &r.set_stream);
  resolve(lib, "cublasSetWorkspace_v2", &r.set_workspace);
  resolve(lib, "cublasGemmEx", &r.gemm_ex);
  resolve(lib, "cublasGemmStridedBatchedEx", &r.gemm_strided_batched_ex);

  decltype(&cublasGetProperty) get_property = nullptr;
  resolve(lib, "cublasGetProperty", &get_property);
  int major = 0, minor = 0, patch = 0;
  BENCH_CUBLAS(get_property(MAJOR_VERSION, &major));
  BENCH_CUBLAS(get_property(MINOR_VERSION, &minor));
  BENCH_CUBLAS(get_property(PATCH_LEVEL, &patch));
  r.version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);

  void* lt = open_library(kLtSoname);
  resolve(lt, "cublasLtMatmul", &r.lt_matmul, kLtSoname);
  resolve(lt, "cublasLtCreate", &r.lt_create, kLtSoname);
  resolve(lt, "cublasLtDestroy", &r.lt_destroy, kLtSoname);
  resolve(lt, "cublasLtMatmulDescCreate", &r.lt_desc_create, kLtSoname);
  resolve(lt, "cublasLtMatmulDescSetAttribute", &r.lt_desc_set, kLtSoname);
  resolve(lt, "cublasLtMatmulDescDestroy", &r.lt_desc_destroy, kLtSoname);
  resolve(lt, "cublasLtMatrixLayoutCreate", &r.lt_layout_create, kLtSoname);
  resolve(lt, "cublasLtMatrixLayoutDestroy", &r.lt_layout_destroy, kLtSoname);
  return r;
}

}  // namespace bench
