// Command line and --config parsing of pmoe-sim: every TrialSpec parameter under its dotted name,
// the common ones also short, and the run options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pmoe/core/spec.hpp"

namespace pmoe {

struct SimOptions {
  TrialSpec spec;
  int trials = 20;
  uint64_t seed = 1;
  int threads = 0;  // 0: all cores
  bool json = false;
};

// Throws ConfigError (exit status 2) on any bad option, value or config file. Returns nullopt
// when --help was asked for (the help text is printed).
std::optional<SimOptions> ParseSimOptions(int argc, const char* const argv[]);

}  // namespace pmoe
