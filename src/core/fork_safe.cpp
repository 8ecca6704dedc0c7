// SPDX-License-Identifier: MIT
#include "core/fork_safe.h"

#include <pthread.h>

#include <atomic>
#include <cstdlib>

namespace bwgemm {
namespace {

// Constant-initialized, so registrations from other files' static
// initializers find them ready whatever the initialization order.
constexpr int kMaxMutexes = 8;
std::mutex* g_mutexes[kMaxMutexes];
std::atomic<int> g_count{0};
pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;

// Always in registration order, so two forking threads cannot deadlock.
void lock_all() {
  for (int i = 0; i < g_count.load(); ++i) g_mutexes[i]->lock();
}
void unlock_all() {
  for (int i = g_count.load() - 1; i >= 0; --i) g_mutexes[i]->unlock();
}
void register_atfork() { pthread_atfork(lock_all, unlock_all, unlock_all); }

}  // namespace

bool hold_across_fork(std::mutex* mutex) {
  pthread_once(&g_atfork_once, register_atfork);
  const int index = g_count.load();
  if (index >= kMaxMutexes) std::abort();  // a fixed, small set: a programming error
  g_mutexes[index] = mutex;
  g_count.store(index + 1);
  return true;
}

int fork_safe_mutex_count() { return g_count.load(); }
std::mutex* fork_safe_mutex(int index) { return g_mutexes[index]; }

}  // namespace bwgemm
