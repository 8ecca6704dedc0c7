// SPDX-License-Identifier: MIT
#include "support/test_env.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace test {

namespace {

std::string temp_pattern() {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr && dir[0] != '\0' ? dir : "/tmp") + "/bwgemm-unit-XXXXXX";
}

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(EXIT_FAILURE);
}

}  // namespace

void clear_bwgemm_environment() {
  for (const char* name :
       {"BWGEMM_DISABLE", "BWGEMM_LOG", "BWGEMM_LOG_FILE", "BWGEMM_SM90", "BWGEMM_SM100",
        "BWGEMM_CUBLAS_LIBRARY", "BWGEMM_CUBLASLT_LIBRARY", "BWGEMM_POLICY",
        "BWGEMM_WAIT_TIMEOUT_MS"})
    unsetenv(name);
}

TempFile::TempFile() : path_(temp_pattern()) {
  const int fd = mkstemp(path_.data());
  if (fd < 0) die("mkstemp");
  close(fd);
}

TempFile::~TempFile() { unlink(path_.c_str()); }

std::string TempFile::contents() const { return read_file(path_); }

TempDir::TempDir() : path_(temp_pattern()) {
  if (mkdtemp(path_.data()) == nullptr) die("mkdtemp");
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::path(const char* name) const { return path_ + "/" + name; }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string capture_stderr(const std::function<void()>& action) {
  TempFile captured;
  std::fflush(stderr);
  const int saved = dup(STDERR_FILENO);
  const int fd = open(captured.path(), O_WRONLY);
  if (saved < 0 || fd < 0 || dup2(fd, STDERR_FILENO) < 0) die("capture_stderr");
  close(fd);
  action();
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  return captured.contents();
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
