// SPDX-License-Identifier: MIT
#include "forward/real_cublas.h"

#include <dlfcn.h>
#include <pthread.h>

#include <atomic>

#include "core/env_config.h"
#include "core/log.h"

#define BWGEMM_STR_(x) #x
#define BWGEMM_STR(x) BWGEMM_STR_(x)

namespace bwgemm {
namespace {

// The version node cuBLAS puts on every export, and its soname.
constexpr const char* kCublasNode = "libcublas.so." BWGEMM_STR(CUBLAS_VER_MAJOR);

enum State { kUnresolved, kResolved, kFailed };

pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
std::atomic<int> g_state{kUnresolved};
RealCublas g_real;

// A fork while another thread resolves must not leave the child's mutex held.
void lock_for_fork() { pthread_mutex_lock(&g_mutex); }
void unlock_after_fork() { pthread_mutex_unlock(&g_mutex); }
pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;
void register_atfork() { pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork); }

bool is_this_library(void* symbol) {
  Dl_info theirs{}, ours{};
  if (!dladdr(symbol, &theirs) || !dladdr(reinterpret_cast<void*>(&real_cublas), &ours))
    return false;
  return theirs.dli_fbase == ours.dli_fbase;
}

void* open_library(const char* name) {
  // RTLD_NOLOAD finds a copy the process already loaded, even RTLD_LOCAL (as
  // PyTorch does), where dlsym(RTLD_NEXT, ...) would return NULL.
  if (void* h = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) return h;
  return dlopen(name, RTLD_NOW | RTLD_LOCAL);
}

template <class Fn>
bool resolve(void* lib, const char* name, Fn* out) {
  void* sym = dlvsym(lib, name, kCublasNode);
  if (sym == nullptr) sym = dlsym(lib, name);
  if (sym == nullptr) {
    log_warning("cannot forward to cuBLAS: symbol %s not found", name);
    return false;
  }
  if (is_this_library(sym)) {
    log_warning(
        "cannot forward to cuBLAS: %s resolves to libbwgemm itself; set "
        "BWGEMM_CUBLAS_LIBRARY to the real library's absolute path",
        name);
    return false;
  }
  *out = reinterpret_cast<Fn>(sym);
  return true;
}

template <class Fn>
void resolve_optional(void* lib, const char* name, Fn* out) {
  void* sym = dlvsym(lib, name, kCublasNode);
  if (sym == nullptr) sym = dlsym(lib, name);
  *out = sym != nullptr && !is_this_library(sym) ? reinterpret_cast<Fn>(sym) : nullptr;
}

bool resolve_all() {
  const char* override_name = env_config().cublas_library;
  const char* name = override_name != nullptr ? override_name : kCublasNode;
  void* lib = open_library(name);
  if (lib == nullptr) {
    const char* err = dlerror();
    log_warning("cannot forward to cuBLAS: dlopen(\"%s\") failed: %s", name, err ? err : "?");
    return false;
  }
  RealCublas r{};
  bool ok = resolve(lib, "cublasGemmEx", &r.gemm_ex) &&
            resolve(lib, "cublasGemmEx_64", &r.gemm_ex_64) &&
            resolve(lib, "cublasGemmStridedBatchedEx", &r.gemm_strided_batched_ex) &&
            resolve(lib, "cublasGemmStridedBatchedEx_64", &r.gemm_strided_batched_ex_64) &&
            resolve(lib, "cublasGemmBatchedEx", &r.gemm_batched_ex) &&
            resolve(lib, "cublasGemmBatchedEx_64", &r.gemm_batched_ex_64) &&
            resolve(lib, "cublasGetPointerMode_v2", &r.get_pointer_mode) &&
            resolve(lib, "cublasGetStream_v2", &r.get_stream);
  if (!ok) return false;
  resolve_optional(lib, "cublasCreate_v2", &r.create);
  resolve_optional(lib, "cublasDestroy_v2", &r.destroy);
  resolve_optional(lib, "cublasSetStream_v2", &r.set_stream);
  resolve_optional(lib, "cublasGetSmCountTarget", &r.get_sm_count_target);
  g_real = r;
  return true;
}

}  // namespace

const RealCublas* real_cublas() {
  int state = g_state.load(std::memory_order_acquire);
  if (state == kUnresolved) {
    pthread_once(&g_atfork_once, register_atfork);
    pthread_mutex_lock(&g_mutex);
    state = g_state.load(std::memory_order_relaxed);
    if (state == kUnresolved) {
      state = resolve_all() ? kResolved : kFailed;
      g_state.store(state, std::memory_order_release);
    }
    pthread_mutex_unlock(&g_mutex);
  }
  return state == kResolved ? &g_real : nullptr;
}

cublasStatus_t forward_call(const RawCall& c) {
  const RealCublas* r = real_cublas();
  if (r == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  // Narrow entry points get their int arguments back exactly as passed.
  const int m = static_cast<int>(c.m), n = static_cast<int>(c.n), k = static_cast<int>(c.k);
  const int lda = static_cast<int>(c.lda), ldb = static_cast<int>(c.ldb),
            ldc = static_cast<int>(c.ldc), batch = static_cast<int>(c.batch);
  switch (c.entry) {
    case EntryPoint::GemmEx:
      return r->gemm_ex(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.A, c.Atype, lda, c.B,
                        c.Btype, ldb, c.beta, c.C, c.Ctype, ldc, c.compute, c.algo);
    case EntryPoint::GemmEx_64:
      return r->gemm_ex_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A, c.Atype,
                           c.lda, c.B, c.Btype, c.ldb, c.beta, c.C, c.Ctype, c.ldc, c.compute,
                           c.algo);
    case EntryPoint::GemmStridedBatchedEx:
      return r->gemm_strided_batched_ex(
          c.handle, c.transa, c.transb, m, n, k, c.alpha, c.A, c.Atype, lda, c.strideA, c.B,
          c.Btype, ldb, c.strideB, c.beta, c.C, c.Ctype, ldc, c.strideC, batch, c.compute, c.algo);
    case EntryPoint::GemmStridedBatchedEx_64:
      return r->gemm_strided_batched_ex_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha,
                                           c.A, c.Atype, c.lda, c.strideA, c.B, c.Btype, c.ldb,
                                           c.strideB, c.beta, c.C, c.Ctype, c.ldc, c.strideC,
                                           c.batch, c.compute, c.algo);
    case EntryPoint::GemmBatchedEx:
      return r->gemm_batched_ex(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.Aarray, c.Atype,
                                lda, c.Barray, c.Btype, ldb, c.beta, c.Carray, c.Ctype, ldc, batch,
                                c.compute, c.algo);
    case EntryPoint::GemmBatchedEx_64:
      return r->gemm_batched_ex_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.Aarray,
                                   c.Atype, c.lda, c.Barray, c.Btype, c.ldb, c.beta, c.Carray,
                                   c.Ctype, c.ldc, c.batch, c.compute, c.algo);
  }
  return CUBLAS_STATUS_INTERNAL_ERROR;
}

}  // namespace bwgemm
