// SPDX-License-Identifier: MIT
#include "support/test_env.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace test {

void clear_bwgemm_environment() {
  for (const char* name : {"BWGEMM_DISABLE", "BWGEMM_LOG", "BWGEMM_LOG_FILE", "BWGEMM_SM90",
                           "BWGEMM_SM100", "BWGEMM_CUBLAS_LIBRARY", "BWGEMM_POLICY"})
    unsetenv(name);
}

TempFile::TempFile() {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern =
      std::string(dir != nullptr && dir[0] != '\0' ? dir : "/tmp") + "/bwgemm-unit-XXXXXX";
  const int fd = mkstemp(pattern.data());
  if (fd < 0) {
    std::perror("mkstemp");
    std::exit(EXIT_FAILURE);
  }
  close(fd);
  path_ = pattern;
}

TempFile::~TempFile() { unlink(path_.c_str()); }

std::string TempFile::contents() const {
  std::ifstream in(path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int count_lines_with(const std::string& text, std::initializer_list<const char*> needles) {
  std::istringstream lines(text);
  int count = 0;
  for (std::string line; std::getline(lines, line);) {
    bool all = true;
    for (const char* needle : needles) all = all && line.find(needle) != std::string::npos;
    count += all;
  }
  return count;
}

}  // namespace test
