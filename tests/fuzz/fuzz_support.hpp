// Shared by the fuzz targets: a private scratch file per process, and the rule that a target may
// only end in the errors the tools report to users (anything else escapes and is a finding).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace pmoe::fuzz {

// A file path private to this process, in /dev/shm when it exists (no disk traffic).
inline const std::string& ScratchPath(const std::string& name) {
  static const std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  static thread_local std::string path;
  path = dir + "/pmoe-fuzz-" + std::to_string(getpid()) + "-" + name;
  return path;
}

inline void WriteFile(const std::string& path, const uint8_t* data, size_t size) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

// An invariant a target checks on what a reader accepted: a bug when false.
#define PMOE_FUZZ_REQUIRE(condition)    \
  do {                                  \
    if (!(condition)) __builtin_trap(); \
  } while (0)

}  // namespace pmoe::fuzz
