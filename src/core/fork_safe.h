// SPDX-License-Identifier: MIT
// Locks bwgemm owns, kept consistent across fork(): the forking thread takes
// every registered mutex before the fork and releases them on both sides, so
// a child never inherits one held by a thread that does not exist there.
#pragma once

#include <mutex>

namespace bwgemm {

// Registers `mutex` (a global that lives as long as the process) once;
// returns true so that a namespace-scope initializer can call it.
bool hold_across_fork(std::mutex* mutex);

// Tests only: the registered mutexes, in the order of registration.
int fork_safe_mutex_count();
std::mutex* fork_safe_mutex(int index);

}  // namespace bwgemm
