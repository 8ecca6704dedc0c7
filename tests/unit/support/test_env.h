// SPDX-License-Identifier: MIT
// The process environment and files a test needs around bwgemm.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>

namespace test {

// Unsets every BWGEMM_* variable bwgemm reads, so a test starts from the
// defaults whatever the shell running it exported.
void clear_bwgemm_environment();

// A new empty file (for BWGEMM_LOG_FILE), removed when this goes away.
class TempFile {
 public:
  TempFile();
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const char* path() const { return path_.c_str(); }
  std::string contents() const;

 private:
  std::string path_;
};

// A new empty directory, removed with its contents when this goes away.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // `name` inside the directory (nothing is created).
  std::string path(const char* name) const;

 private:
  std::string path_;
};

// The whole of the file at `path` ("" when it cannot be read).
std::string read_file(const std::string& path);

// What `action` writes to the process's stderr (file descriptor 2).
std::string capture_stderr(const std::function<void()>& action);

// Lines of `text` that contain every one of `needles`.
int count_lines_with(const std::string& text, std::initializer_list<const char*> needles);

}  // namespace test
