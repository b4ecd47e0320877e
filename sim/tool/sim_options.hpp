// Command line and --config parsing of pmoe-sim: every TrialSpec parameter under its kebab-case
// name (the table's dotted name as an alias), the common ones also short, and the run options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pmoe/cli/command.hpp"
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
// when --help, --version, --list-params or --reference was asked for (the text is printed).
std::optional<SimOptions> ParseSimOptions(int argc, const char* const argv[]);

// pmoe-sim's option table (the reference and --help print it).
const cli::Command& SimCommand();

// The parameter table as text, or as docs/reference/parameters.md.
std::string ParamReference(bool markdown);

// docs/reference/pmoe-sim.md.
std::string SimReferenceMarkdown();

}  // namespace pmoe
