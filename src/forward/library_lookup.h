// SPDX-License-Identifier: MIT
// Finding a real NVIDIA library bwgemm forwards to (cuBLAS, cuBLASLt) and its
// functions: the copy the process already loaded under the soname first, never
// libbwgemm itself, resolved once per process.
#pragma once

#include <cublas_api.h>

#include <atomic>

// "libcublas.so.13": the soname of an NVIDIA BLAS library of the cuBLAS
// major version this build serves, which is also its exports' version node.
#define BWGEMM_STR_(x) #x
#define BWGEMM_STR(x) BWGEMM_STR_(x)
#define BWGEMM_SONAME(stem) stem ".so." BWGEMM_STR(CUBLAS_VER_MAJOR)

namespace bwgemm {

// Which library a lookup is for, as its warnings name it.
struct RealLibrary {
  const char* label;            // "cuBLAS"
  const char* node;             // the version node of its exports, also its soname
  const char* override_config;  // the environment variable that names another file
};

// The library already loaded under `name` (RTLD_NOLOAD, which also finds a
// copy loaded RTLD_LOCAL, where dlsym(RTLD_NEXT, ...) returns NULL), else a
// fresh RTLD_LOCAL dlopen of it. NULL (with a warning) when neither works.
void* open_real_library(const RealLibrary& which, const char* name);

// `name` in `lib` at the library's version node (else unversioned). NULL when
// absent or when it is libbwgemm's own definition; a `required` miss is
// warned about.
void* find_real_symbol(const RealLibrary& which, void* lib, const char* name, bool required);

template <class Fn>
bool resolve_required(const RealLibrary& which, void* lib, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(find_real_symbol(which, lib, name, true));
  return *out != nullptr;
}

template <class Fn>
void resolve_optional(const RealLibrary& which, void* lib, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(find_real_symbol(which, lib, name, false));
}

// Runs `resolve` once per process for `state` (which starts 0) and returns
// what it returned, then and on every later call. Thread-safe; a fork while
// another thread resolves leaves the child's lock free.
bool resolve_once(std::atomic<int>* state, bool (*resolve)());

}  // namespace bwgemm
