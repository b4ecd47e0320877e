// `pmoe-sweep status FILE.h5...`: what each result file holds, what its share of the sweep
// still lacks, and what a journal beside it holds that the file does not yet (a run in progress
// or killed; a journal alone, before the first checkpoint, is read too). Exit status 0 when every
// file is complete, 1 when any lacks trials, 2 when one cannot be read.
#include <iostream>

#include "commands.hpp"
#include "pmoe/core/errors.hpp"
#include "sweep_state.hpp"

namespace pmoe {
namespace {

// Prints one file's account; returns whether its share is complete.
bool PrintStatus(const SweepState& s, std::ostream& out) {
  const SweepIdentity& id = s.identity;
  out << s.path << ": ";
  if (s.file_exists)
    out << "sweep " << s.name << " (" << s.config_path << "), seed " << id.seed
        << (id.shard.empty() ? "" : ", shard " + id.shard) << "\n  written " << s.created_utc
        << " by pmoe-sweep " << s.tool << "\n";
  else
    out << "no file yet; its journal holds a sweep of seed " << id.seed
        << (id.shard.empty() ? "" : ", shard " + id.shard)
        << " (stopped or still running before its first checkpoint)\n";
  out << "  numerics version " << id.numerics << ", build " << id.build << "\n";
  if (s.adaptive)
    out << "  adaptive search of N* in " << s.adaptive_series.size() << " series (" << id.adaptive
        << "); held " << s.held.size() << " trials (" << s.by_status[0] << " ok, " << s.by_status[1]
        << " diverged, " << s.by_status[2] << " infeasible, " << s.by_status[3] << " error; "
        << s.successes << " successes)\n";
  else
    out << "  " << s.cells.size() << " cells x " << id.trials << " trials; held " << s.held.size()
        << " of " << s.work.size() << " (" << s.by_status[0] << " ok, " << s.by_status[1]
        << " diverged, " << s.by_status[2] << " infeasible, " << s.by_status[3] << " error; "
        << s.successes << " successes)\n";
  if (s.file_exists && s.journal_only > 0)
    out << "  journal " << s.path << ".journal: " << s.journal_only << " finished trials not "
        << "yet in the file (a run is going on or was stopped; running again folds them in)\n";
  if (!s.journal_damage.empty()) out << "  warning: " << s.journal_damage << "\n";
  if (s.journal_of_another)
    out << "  journal " << s.path << ".journal holds another sweep (a run would refuse it)\n";
  if (s.adaptive) PrintSeriesOutcomes(s.adaptive_series, out);
  if (s.lacking.empty()) {
    out << "  complete" << (s.adaptive ? ": every series has stopped" : "") << "\n";
    return true;
  }
  if (s.adaptive) {
    out << "  incomplete: series still searching; their current rounds lack " << s.Missing()
        << " trials (running the sweep again goes on from there)\n";
    return false;
  }
  out << "  incomplete: " << s.Missing() << " trials missing in " << s.lacking.size()
      << " cells:\n";
  int shown = 0;
  for (const auto& [cell, count] : s.lacking) {
    if (++shown > 20) {
      out << "    ... " << s.lacking.size() - 20 << " more\n";
      break;
    }
    out << "    " << s.cells[cell].label << ": " << count << " trials missing\n";
  }
  return false;
}

}  // namespace

int RunStatusCommand(const std::vector<std::string>& args, const std::string& command_line) {
  (void)command_line;
  const std::string usage = "pmoe-sweep status FILE.h5...";
  if (args.empty()) throw ConfigError("status: expected " + usage);
  for (const auto& a : args)
    if (a.rfind("--", 0) == 0) UnexpectedArgument(a, usage);
  size_t incomplete = 0;
  for (const std::string& path : args) incomplete += !PrintStatus(ReadSweepState(path), std::cout);
  if (args.size() > 1)
    std::cout << args.size() - incomplete << " of " << args.size() << " files complete\n";
  return incomplete > 0 ? 1 : 0;
}

}  // namespace pmoe
