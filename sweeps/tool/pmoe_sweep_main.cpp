// pmoe-sweep: runs grids of cells into crash-safe HDF5 result files. The commands' tables are in
// their files; the shared frame (help, --version, --reference, exit statuses) is cli/.
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pmoe/cli/tool.hpp"
#include "pmoe/core/errors.hpp"
#include "schema_reference.hpp"
#include "slurm_looks.hpp"

namespace pmoe {

double ParseNumber(const std::string& key, const std::string& text, double least,
                   bool least_allowed, double most, const char* expected) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  const bool above = least_allowed ? v >= least : v > least;
  // Finite, and not an underflow (1e-320 would read as a tiny positive number or as 0).
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || !above ||
      !(v <= most))
    throw ConfigError("command line", key, expected, text);
  return v;
}

const std::string& RequireOutPath(const std::string& text) {
  if (text.empty()) throw ConfigError("command line", "--out", "a file name", text);
  return text;
}

double ParsePositive(const std::string& key, const std::string& text) {
  return ParseNumber(key, text, 0, false, INFINITY, "a positive finite number");
}

}  // namespace pmoe

namespace {

pmoe::cli::Tool SweepTool() {
  pmoe::cli::Tool tool;
  tool.name = "pmoe-sweep";
  tool.summary = "Runs grids of cells (a sweep config) into crash-safe HDF5 result files.";
  tool.commands = {pmoe::RunCommand(),     pmoe::PlanCommand(),      pmoe::SlurmCommand(),
                   pmoe::MissingCommand(), pmoe::MergeCommand(),     pmoe::StatusCommand(),
                   pmoe::WatchCommand(),   pmoe::LookShardCommand(), pmoe::LookDecideCommand()};
  tool.references = {{"schema", [] { return pmoe::ResultSchemaMarkdown(); }}};
  return tool;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  // A file-size limit (ulimit -f) then fails the write with EFBIG, which the store reports by
  // path, instead of killing the process without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  return pmoe::cli::Dispatch(
      SweepTool(), args, [&](const pmoe::cli::Command& command, const pmoe::cli::Parsed& parsed) {
        if (command.name == "run") return pmoe::RunRunCommand(parsed, command_line);
        if (command.name == "plan") return pmoe::RunPlanCommand(parsed, command_line);
        if (command.name == "merge") return pmoe::RunMergeCommand(parsed, command_line);
        if (command.name == "status") return pmoe::RunStatusCommand(parsed, command_line);
        if (command.name == "missing") return pmoe::RunMissingCommand(parsed, command_line);
        if (command.name == "watch") return pmoe::RunWatchCommand(parsed, command_line);
        if (command.name == "look-shard") return pmoe::RunLookShardCommand(parsed, command_line);
        if (command.name == "look-decide") return pmoe::RunLookDecideCommand(parsed, command_line);
        return pmoe::RunSlurmCommand(parsed, command_line);
      });
}
