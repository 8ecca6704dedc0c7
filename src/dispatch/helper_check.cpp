// SPDX-License-Identifier: MIT
#include "dispatch/helper_check.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "core/env_config.h"
#include "core/log.h"
#include "core/private_file.h"

extern char** environ;

namespace bwgemm {
namespace {

std::string g_test_helper;  // empty: the one beside the library
int g_time_limit_seconds = 300;

// This library's file as the loader found it, or "".
std::string library_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&start_helper_check), &info) == 0 || info.dli_fname == nullptr)
    return "";
  return info.dli_fname;
}

// The helper beside the library: BWGEMM_HELPER_FROM_LIBDIR (the install
// layout's <libexecdir>/bwgemm relative to its lib directory), else
// libexec/bwgemm under the library's own directory (the build tree).
std::vector<std::string> helper_candidates() {
  if (!g_test_helper.empty()) return {g_test_helper};
  std::string dir = library_file();
  if (dir.find('/') == std::string::npos) return {};
  dir.erase(dir.rfind('/'));
  return {dir + "/" BWGEMM_HELPER_FROM_LIBDIR "/bwgemm-self-check",
          dir + "/libexec/bwgemm/bwgemm-self-check"};
}

std::string find_helper() {
  for (const std::string& path : helper_candidates()) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0)
      return path;
  }
  return "";
}

// The verdict's file: <cache>/bwgemm/self-check-<family>-<uuid>-<driver>-<build>,
// or "" when there is no cache directory (unset, or a setuid process).
std::string cache_file(const char* family, const std::string& uuid) {
  const EnvConfig& env = env_config();
  std::string root;
  if (env.xdg_cache_home != nullptr && env.xdg_cache_home[0] == '/')
    root = env.xdg_cache_home;
  else if (env.home != nullptr && env.home[0] == '/')
    root = std::string(env.home) + "/.cache";
  else
    return "";
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) return "";
  // The build: its id, and this library file's size and time, which change
  // with every rebuild of it (a developer's too).
  struct stat lib {};
  if (stat(library_file().c_str(), &lib) != 0) return "";
  char name[256];
  std::snprintf(name, sizeof name, "/bwgemm/self-check-%s-%s-%d-%s-%llx-%llx", family, uuid.c_str(),
                driver, BWGEMM_BUILD_ID, static_cast<unsigned long long>(lib.st_size),
                static_cast<unsigned long long>(lib.st_mtime));
  return root + name;
}

// "pass" or "fail: why" from an earlier run on this machine.
HelperVerdict read_cached(const std::string& file, const char* family, int device) {
  char text[512] = "";
  const int fd = open_private_file(file.c_str(), O_RDONLY);
  if (fd < 0) return HelperVerdict::kRunning;
  const ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  text[n > 0 ? n : 0] = '\0';
  if (char* end = std::strchr(text, '\n')) *end = '\0';
  if (std::strcmp(text, "pass") == 0) return HelperVerdict::kPass;
  if (std::strncmp(text, "fail", 4) == 0) {
    log_warning(
        "%s self-check on device %d failed on this machine before (%s; delete %s to check "
        "again); cuBLAS computes its calls on this device",
        family, device, text, file.c_str());
    return HelperVerdict::kFail;
  }
  return HelperVerdict::kRunning;  // unreadable: check again
}

void write_cached(const std::string& file, const std::string& text) {
  // <root>/bwgemm, private to the user; the root itself must exist.
  const std::string dir = file.substr(0, file.rfind('/'));
  const std::string root = dir.substr(0, dir.rfind('/'));
  mkdir(root.c_str(), 0700);  // ~/.cache may not exist yet
  if (!make_private_directory(dir.c_str())) return;
  const std::string partial = file + ".partial";
  const int fd = open_private_file(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC);
  if (fd < 0) return;
  const bool written = write(fd, text.data(), text.size()) == ssize_t(text.size());
  close(fd);
  if (!written || rename(partial.c_str(), file.c_str()) != 0) unlink(partial.c_str());
}

// The caller's environment without LD_PRELOAD (bwgemm itself, or anything
// else, in the helper's process) and BWGEMM_* (the helper runs defaults).
std::vector<char*> helper_environment() {
  std::vector<char*> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e)
    if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0 && std::strncmp(*e, "BWGEMM_", 7) != 0)
      env.push_back(*e);
  env.push_back(nullptr);
  return env;
}

struct Run {
  int status = -1;  // waitpid's, or -1: lost (reaped by someone else)
  bool timed_out = false;
  std::string output;
};

// Waits for the helper (its output on `fd`), up to the time limit.
Run wait_for(pid_t pid, int fd) {
  Run run;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(g_time_limit_seconds);
  bool open_pipe = true, exited = false;
  while (open_pipe || !exited) {
    if (std::chrono::steady_clock::now() > deadline) {
      // Never signal a pid already reaped (it may be another process's now).
      if (!exited) {
        kill(pid, SIGKILL);
        run.timed_out = true;
        waitpid(pid, &run.status, 0);
      }
      break;
    }
    if (open_pipe) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) > 0) {
        char chunk[512];
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n > 0 && run.output.size() < 4096) run.output.append(chunk, size_t(n));
        if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) open_pipe = false;
      }
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!exited) {
      const pid_t r = waitpid(pid, &run.status, WNOHANG);
      exited = r == pid || (r < 0 && errno == ECHILD);
      if (r < 0 && errno == ECHILD) run.status = -1;
    }
  }
  close(fd);
  return run;
}

std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "no output" : line;
}

// The helper's answer, with a warning for a failure (*reason: why).
HelperVerdict judge(const Run& run, const char* family, int device, std::string* reason) {
  const std::string said = first_line(run.output);
  char why[160] = "";
  if (run.timed_out) {
    std::snprintf(why, sizeof why, "did not finish in %d s", g_time_limit_seconds);
  } else if (run.status != -1 && WIFSIGNALED(run.status)) {
    std::snprintf(why, sizeof why, "was killed by signal %d (a crash or a trap)",
                  WTERMSIG(run.status));
  } else if (run.status != -1 && WIFEXITED(run.status) &&
             WEXITSTATUS(run.status) == kHelperCannotCheck) {
    log_warning("%s self-check helper could not check device %d (%s); checking in this process",
                family, device, said.c_str());
    return HelperVerdict::kNoHelper;
  } else if ((run.status == -1 || (WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0)) &&
             said == "pass") {
    return HelperVerdict::kPass;  // (-1: reaped by the application, but it said so)
  }
  *reason = why[0] != '\0' ? said + "; the helper " + why : said;
  log_warning(
      "%s self-check on device %d failed in the helper process: %s; cuBLAS computes its "
      "calls on this device",
      family, device, reason->c_str());
  return HelperVerdict::kFail;
}

}  // namespace

std::string device_uuid(int device) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "";
  std::string hex;
  char two[3];
  for (int i = 0; i < 16; ++i) {
    std::snprintf(two, sizeof two, "%02x", static_cast<unsigned char>(prop.uuid.bytes[i]));
    hex += two;
  }
  return hex;
}

void start_helper_check(const char* family_name, const DeviceCaps& caps,
                        std::atomic<HelperVerdict>* verdict) {
  const std::string uuid = device_uuid(caps.device);
  const std::string helper = find_helper();
  if (uuid.empty() || helper.empty()) {
    if (!uuid.empty())
      log_warning(
          "%s self-check helper bwgemm-self-check not found beside the library: checking "
          "device %d in this process, where a crash would end it",
          family_name, caps.device);
    verdict->store(HelperVerdict::kNoHelper, std::memory_order_release);
    return;
  }
  const std::string cache = cache_file(family_name, uuid);
  if (!cache.empty()) {
    const HelperVerdict cached = read_cached(cache, family_name, caps.device);
    if (cached != HelperVerdict::kRunning) {
      verdict->store(cached, std::memory_order_release);
      return;
    }
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    verdict->store(HelperVerdict::kNoHelper, std::memory_order_release);
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
  // None of the caller's other descriptors reach the helper.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  const std::string device = std::to_string(caps.device);
  char* argv[] = {const_cast<char*>(helper.c_str()),  const_cast<char*>(family_name),
                  const_cast<char*>(device.c_str()),  const_cast<char*>(uuid.c_str()),
                  const_cast<char*>(BWGEMM_BUILD_ID), nullptr};
  std::vector<char*> env = helper_environment();
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, helper.c_str(), &actions, nullptr, argv, env.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    verdict->store(HelperVerdict::kNoHelper, std::memory_order_release);
    return;
  }
  const std::string family = family_name;
  const int ordinal = caps.device;
  std::thread([pid, fd = pipe_fds[0], family, ordinal, cache, verdict] {
    const Run run = wait_for(pid, fd);
    std::string reason;
    const HelperVerdict v = judge(run, family.c_str(), ordinal, &reason);
    if (!cache.empty() && v != HelperVerdict::kNoHelper)
      write_cached(cache, v == HelperVerdict::kPass ? "pass\n" : "fail: " + reason + "\n");
    verdict->store(v, std::memory_order_release);
  }).detach();
}

void set_helper_for_tests(const char* path, int time_limit_seconds) {
  g_test_helper = path != nullptr ? path : "";
  g_time_limit_seconds = time_limit_seconds;
}

}  // namespace bwgemm
