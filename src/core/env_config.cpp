// SPDX-License-Identifier: MIT
#include "core/env_config.h"

#include <pthread.h>

#include <cstdlib>
#include <cstring>

namespace bwgemm {
namespace {

EnvConfig g_config;
pthread_once_t g_once = PTHREAD_ONCE_INIT;

bool flag_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

bool switched_off(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && (std::strcmp(v, "off") == 0 || std::strcmp(v, "0") == 0);
}

bwgemmPolicy_t policy_from(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return BWGEMM_POLICY_AUTO;
  if (std::strcmp(v, "kernel") == 0) return BWGEMM_POLICY_FORCE_KERNEL;
  if (std::strcmp(v, "cublas") == 0) return BWGEMM_POLICY_FORCE_CUBLAS;
  return BWGEMM_POLICY_AUTO;
}

void read_environment() {
  EnvConfig c{};
  c.disable = flag_set("BWGEMM_DISABLE");
  if (const char* v = std::getenv("BWGEMM_LOG")) c.log_level = std::atoi(v);
  c.log_file = stderr;
  if (const char* path = std::getenv("BWGEMM_LOG_FILE")) {
    if (path[0] != '\0') {
      if (std::FILE* f = std::fopen(path, "a")) {
        std::setvbuf(f, nullptr, _IOLBF, 0);
        c.log_file = f;
      }
    }
  }
  c.policy = policy_from("BWGEMM_POLICY");
  c.sm90_off = switched_off("BWGEMM_SM90");
  c.sm100_off = switched_off("BWGEMM_SM100");
  const char* lib = std::getenv("BWGEMM_CUBLAS_LIBRARY");
  c.cublas_library = (lib != nullptr && lib[0] != '\0') ? lib : nullptr;
  g_config = c;
}

}  // namespace

const EnvConfig& env_config() {
  pthread_once(&g_once, read_environment);
  return g_config;
}

void env_config_reload() {
  pthread_once(&g_once, read_environment);
  if (g_config.log_file != nullptr && g_config.log_file != stderr) std::fclose(g_config.log_file);
  read_environment();
}

}  // namespace bwgemm
