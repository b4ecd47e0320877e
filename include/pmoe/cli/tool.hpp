// What the three tools share around their commands: the exit statuses, --version, the main
// wrapper that maps exceptions to exit statuses, and the tool-level help and reference.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "pmoe/cli/command.hpp"

namespace pmoe::cli {

// The exit statuses of all three tools (docs/guide/command-line.md).
enum ExitStatus : int {
  kDone = 0,
  kIncomplete = 1,     // status, missing: some trials or shards lack
  kBadInput = 2,       // bad command line, config or file; infeasible cell; unswept axis
  kWriteFailed = 3,    // a file could not be written (disk full, read-only, not a directory)
  kCpuLacks = 4,       // the CPU lacks the build's instruction set (sim/core/build_info.cpp)
  kInterrupted = 130,  // Ctrl-C or SIGTERM: what finished is saved
};

// The exit-status paragraph printed by --help and the reference.
std::string ExitStatusText();

// `TOOL --version`: the tool version (git describe), the numerics version and the build.
std::string VersionText(const std::string& tool);

// A tool with commands (pmoe-sweep, pmoe-analyze).
struct Tool {
  std::string name;
  std::string summary;
  std::vector<Command> commands;
  std::string description;  // after the command list in --help (exit statuses are added)
  // `TOOL --reference TOPIC` topics beyond "markdown" (the commands), e.g. the HDF5 schema.
  std::vector<std::pair<std::string, std::function<std::string()>>> references;

  const Command* Find(const std::string& command) const;
  std::string Help() const;      // `TOOL --help`: every command's usage and summary
  std::string Markdown() const;  // the whole reference page
};

// Runs `body` and maps what it throws to an exit status, printing "TOOL: error: ..." on stderr:
// ConfigError, InfeasibleError, SchemaError -> 2; IoError, filesystem_error -> 3; anything
// else -> 1 (an unexpected failure, reported as such).
int RunMain(const std::string& tool, const std::function<int()>& body);

// Dispatches `TOOL COMMAND ARGS...` inside RunMain: `TOOL --help`, `--version`, `--reference
// TOPIC`, `TOOL COMMAND --help`, an unknown command (exit 2, "did you mean"). `run` gets the
// command's table and its parsed arguments.
int Dispatch(const Tool& tool, const std::vector<std::string>& args,
             const std::function<int(const Command&, const Parsed&)>& run);
// The same, each command run by its own `run` (the tool's one table says what runs what).
int Dispatch(const Tool& tool, const std::vector<std::string>& args,
             const std::string& command_line);

}  // namespace pmoe::cli
