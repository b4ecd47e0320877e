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
#include "pmoe/precision/precision_section.hpp"
#include "pmoe/sweep/adaptive/adaptive_section.hpp"
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

using Runner = int (*)(const pmoe::cli::Parsed&, const std::string&);

pmoe::cli::Command Runs(pmoe::cli::Command command, Runner run) {
  command.run = run;
  return command;
}

// The one table of the tool's commands: each command's options (its file) and what runs it.
pmoe::cli::Tool SweepTool() {
  pmoe::cli::Tool tool;
  tool.name = "pmoe-sweep";
  tool.summary = "Runs grids of cells (a sweep config) into crash-safe HDF5 result files.";
  tool.commands = {
      Runs(pmoe::RunCommand(), pmoe::RunRunCommand),
      Runs(pmoe::PlanCommand(), pmoe::RunPlanCommand),
      Runs(pmoe::SlurmCommand(), pmoe::RunSlurmCommand),
      Runs(pmoe::MissingCommand(), pmoe::RunMissingCommand),
      Runs(pmoe::MergeCommand(), pmoe::RunMergeCommand),
      Runs(pmoe::StatusCommand(), pmoe::RunStatusCommand),
      Runs(pmoe::WatchCommand(), pmoe::RunWatchCommand),
      Runs(pmoe::LookShardCommand(), pmoe::RunLookShardCommand),
      Runs(pmoe::LookDecideCommand(), pmoe::RunLookDecideCommand),
  };
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
  // The work sources the engine runs without naming them (config_section.hpp): [adaptive] and
  // [precision].
  pmoe::RegisterAdaptiveSearch();
  pmoe::RegisterPrecisionTargets();
  return pmoe::cli::Dispatch(SweepTool(), args, command_line);
}
