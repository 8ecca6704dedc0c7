// SPDX-License-Identifier: MIT
#include "core/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bwgemm {

int open_private_file(const char* path, int flags) {
  return open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0600);
}

bool make_private_directory(const char* path) {
  mkdir(path, 0700);
  struct stat st {};
  return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
         (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

}  // namespace bwgemm
