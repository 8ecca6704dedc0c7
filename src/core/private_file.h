// SPDX-License-Identifier: MIT
// Files bwgemm writes for the user (the log, the self-check cache), opened
// so that a symbolic link planted in their place is refused, a new file is
// private to the user, and no descriptor leaks into programs the process
// executes.
#pragma once

namespace bwgemm {

// open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0600): a descriptor or -1.
int open_private_file(const char* path, int flags);

// Makes `path` a directory only the user can enter (0700) if it is missing;
// true when it is, then, a real directory of the user's that no one else can
// write to (not a symbolic link).
bool make_private_directory(const char* path);

}  // namespace bwgemm
