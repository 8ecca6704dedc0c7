// SPDX-License-Identifier: MIT
#include "core/env_config.h"

#include <fcntl.h>
#include <pthread.h>
#include <strings.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "core/log.h"
#include "core/private_file.h"

namespace bwgemm {
namespace {

EnvConfig g_config;
pthread_once_t g_once = PTHREAD_ONCE_INIT;

bool kernel_says_secure() { return getauxval(AT_SECURE) != 0; }
bool (*g_secure_probe)() = kernel_says_secure;

// The variables a setuid/setgid process still honours: neither names a file
// nor a library, so neither lets the invoking user steer the process.
bool honoured_when_secure(const char* name) {
  return std::strcmp(name, "BWGEMM_LOG") == 0 || std::strcmp(name, "BWGEMM_DISABLE") == 0;
}

// The one place bwgemm reads its environment. NULL for unset or empty.
const char* env_value(const char* name, bool secure) {
  const char* v =
      secure ? (honoured_when_secure(name) ? std::getenv(name) : nullptr) : secure_getenv(name);
  return v != nullptr && v[0] != '\0' ? v : nullptr;
}

bool equals_any(const char* value, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (strcasecmp(value, w) == 0) return true;
  return false;
}

// Reads a boolean variable into *out; leaves it (the default) when the
// variable is unset or its value is not one of the accepted words.
void read_switch(const char* name, bool secure, std::FILE* log, bool* out) {
  const char* v = env_value(name, secure);
  if (v == nullptr) return;
  if (equals_any(v, {"1", "on", "true", "yes"})) {
    *out = true;
  } else if (equals_any(v, {"0", "off", "false", "no"})) {
    *out = false;
  } else {
    log_warning_to(log, "%s=%s ignored: accepted values are 1/on/true/yes and 0/off/false/no", name,
                   v);
  }
}

int read_log_level(bool secure, std::FILE* log) {
  const char* v = env_value("BWGEMM_LOG", secure);
  if (v == nullptr) return 0;
  if (equals_any(v, {"0", "off", "false", "no"})) return 0;
  if (equals_any(v, {"1", "on", "true", "yes"})) return 1;
  if (equals_any(v, {"2"})) return 2;
  log_warning_to(log, "BWGEMM_LOG=%s ignored: accepted values are 0/off, 1/on, 2", v);
  return 0;
}

bwgemmPolicy_t read_policy(bool secure, std::FILE* log) {
  const char* v = env_value("BWGEMM_POLICY", secure);
  if (v == nullptr || equals_any(v, {"auto"})) return BWGEMM_POLICY_AUTO;
  if (equals_any(v, {"kernel"})) return BWGEMM_POLICY_FORCE_KERNEL;
  if (equals_any(v, {"cublas"})) return BWGEMM_POLICY_FORCE_CUBLAS;
  log_warning_to(log, "BWGEMM_POLICY=%s ignored: accepted values are auto, kernel, cublas", v);
  return BWGEMM_POLICY_AUTO;
}

// Appends to `path` without following a symbolic link, creating it private
// to the user, and keeps it out of programs the process executes.
std::FILE* open_log_file(const char* path) {
  const int fd = open_private_file(path, O_WRONLY | O_APPEND | O_CREAT);
  std::FILE* f = fd >= 0 ? fdopen(fd, "a") : nullptr;
  if (f == nullptr) {
    const int error = errno;
    if (fd >= 0) close(fd);
    log_warning_to(stderr, "cannot open BWGEMM_LOG_FILE=%s (%s); logging to stderr", path,
                   std::strerror(error));
    return stderr;
  }
  std::setvbuf(f, nullptr, _IOLBF, 0);
  return f;
}

// In a secure process, says once which of the variables it set were ignored.
void note_ignored_when_secure() {
  char ignored[256] = "";
  for (const char* name :
       {"BWGEMM_LOG_FILE", "BWGEMM_POLICY", "BWGEMM_POLICY_FILE", "BWGEMM_SM90", "BWGEMM_SM100",
        "BWGEMM_SM90_CONFIG", "BWGEMM_SM100_CONFIG", "BWGEMM_CUBLAS_LIBRARY",
        "BWGEMM_CUBLASLT_LIBRARY", "BWGEMM_WAIT_TIMEOUT_MS"}) {
    if (std::getenv(name) == nullptr) continue;
    if (ignored[0] != '\0') std::strncat(ignored, " ", sizeof ignored - std::strlen(ignored) - 1);
    std::strncat(ignored, name, sizeof ignored - std::strlen(ignored) - 1);
  }
  if (ignored[0] != '\0')
    log_warning_to(stderr,
                   "setuid/setgid process: only BWGEMM_LOG and BWGEMM_DISABLE are "
                   "honoured; ignored: %s",
                   ignored);
}

uint32_t read_wait_timeout(bool secure, std::FILE* log) {
  const char* v = env_value("BWGEMM_WAIT_TIMEOUT_MS", secure);
  if (v == nullptr) return kDefaultWaitTimeoutMs;
  char* end = nullptr;
  errno = 0;
  const unsigned long ms = std::strtoul(v, &end, 10);
  if (errno != 0 || end == v || *end != '\0' || v[0] == '-' || ms < 1 || ms > 600000) {
    log_warning_to(log, "BWGEMM_WAIT_TIMEOUT_MS=%s ignored: accepted values are 1 to 600000 (ms)",
                   v);
    return kDefaultWaitTimeoutMs;
  }
  return uint32_t(ms);
}

void read_environment() {
  const bool secure = g_secure_probe();
  EnvConfig c{};
  c.log_file = stderr;
  if (const char* path = env_value("BWGEMM_LOG_FILE", secure)) c.log_file = open_log_file(path);
  if (secure) note_ignored_when_secure();
  c.log_level = read_log_level(secure, c.log_file);
  read_switch("BWGEMM_DISABLE", secure, c.log_file, &c.disable);
  c.policy = read_policy(secure, c.log_file);
  bool sm90_on = true, sm100_on = true;
  read_switch("BWGEMM_SM90", secure, c.log_file, &sm90_on);
  read_switch("BWGEMM_SM100", secure, c.log_file, &sm100_on);
  c.sm90_off = !sm90_on;
  c.sm100_off = !sm100_on;
  c.sm90_config = env_value("BWGEMM_SM90_CONFIG", secure);
  c.sm100_config = env_value("BWGEMM_SM100_CONFIG", secure);
  c.policy_file = env_value("BWGEMM_POLICY_FILE", secure);
  c.cublas_library = env_value("BWGEMM_CUBLAS_LIBRARY", secure);
  c.cublaslt_library = env_value("BWGEMM_CUBLASLT_LIBRARY", secure);
  c.wait_timeout_ms = read_wait_timeout(secure, c.log_file);
  c.xdg_cache_home = env_value("XDG_CACHE_HOME", secure);
  c.home = env_value("HOME", secure);
  g_config = c;
}

}  // namespace

const EnvConfig& env_config() {
  pthread_once(&g_once, read_environment);
  return g_config;
}

void env_config_reload() {
  // Marks the first read done without reading, so the environment is read
  // (and warned about) once here.
  pthread_once(&g_once, [] {});
  if (g_config.log_file != nullptr && g_config.log_file != stderr) std::fclose(g_config.log_file);
  read_environment();
}

void set_secure_execution_probe(bool (*probe)()) {
  g_secure_probe = probe != nullptr ? probe : kernel_says_secure;
}

}  // namespace bwgemm
