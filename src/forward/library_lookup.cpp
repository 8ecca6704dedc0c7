// SPDX-License-Identifier: MIT
#include "forward/library_lookup.h"

#include <dlfcn.h>
#include <pthread.h>

#include "core/log.h"

namespace bwgemm {
namespace {

enum State { kUnresolved, kResolved, kFailed };

// One lock for every resolution: each runs once per process.
pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
void lock_for_fork() { pthread_mutex_lock(&g_mutex); }
void unlock_after_fork() { pthread_mutex_unlock(&g_mutex); }
pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;
void register_atfork() { pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork); }

bool is_this_library(void* symbol) {
  Dl_info theirs{}, ours{};
  if (!dladdr(symbol, &theirs) || !dladdr(reinterpret_cast<void*>(&is_this_library), &ours))
    return false;
  return theirs.dli_fbase == ours.dli_fbase;
}

}  // namespace

void* open_real_library(const RealLibrary& which, const char* name) {
  if (void* h = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) return h;
  if (void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return h;
  const char* err = dlerror();
  log_warning("cannot forward to %s: dlopen(\"%s\") failed: %s", which.label, name,
              err ? err : "?");
  return nullptr;
}

void* find_real_symbol(const RealLibrary& which, void* lib, const char* name, bool required) {
  void* sym = dlvsym(lib, name, which.node);
  if (sym == nullptr) sym = dlsym(lib, name);
  if (sym == nullptr) {
    if (required) log_warning("cannot forward to %s: symbol %s not found", which.label, name);
    return nullptr;
  }
  if (is_this_library(sym)) {
    if (required)
      log_warning(
          "cannot forward to %s: %s resolves to libbwgemm itself; set %s to the real "
          "library's absolute path",
          which.label, name, which.override_config);
    return nullptr;
  }
  return sym;
}

bool resolve_once(std::atomic<int>* state, bool (*resolve)()) {
  int s = state->load(std::memory_order_acquire);
  if (s == kUnresolved) {
    pthread_once(&g_atfork_once, register_atfork);
    pthread_mutex_lock(&g_mutex);
    s = state->load(std::memory_order_relaxed);
    if (s == kUnresolved) {
      s = resolve() ? kResolved : kFailed;
      state->store(s, std::memory_order_release);
    }
    pthread_mutex_unlock(&g_mutex);
  }
  return s == kResolved;
}

}  // namespace bwgemm
