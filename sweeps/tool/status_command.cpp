// `pmoe-sweep status FILE.h5...`: what each result file holds, what its share of the sweep
// still lacks, and what a journal beside it holds that the file does not yet (a run in progress
// or killed; a journal alone, before the first checkpoint, is read too). Exit status 0 when every
// file is complete, 1 when any lacks trials, 2 when one cannot be read.
#include <cstdint>
#include <iostream>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/cli/tool.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/version.hpp"
#include "pmoe/io/json_writer.hpp"
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
  if (id.numerics != kNumericsVersion)
    out << "  (this build computes numerics version " << kNumericsVersion
        << ": it reads the file and never grows it)\n";
  // A source that knows its share (a grid) is counted against it; one whose rounds decide
  // (the adaptive search, a precision target) says what it is.
  if (s.planned)
    out << "  " << s.cells.size() << " cells x " << id.trials << " trials; held " << s.held.size()
        << " of " << *s.planned;
  else
    out << "  " << s.source->Describe() << "; held " << s.held.size() << " trials";
  out << " (" << s.by_status[0] << " ok, " << s.by_status[1] << " diverged, " << s.by_status[2]
      << " infeasible, " << s.by_status[3] << " error; " << s.successes << " successes)\n";
  if (s.file_exists && s.journal_only > 0)
    out << "  journal " << s.path << ".journal: " << s.journal_only << " finished trials not "
        << "yet in the file (a run is going on or was stopped; running again folds them in)\n";
  if (!s.journal_damage.empty()) out << "  warning: " << s.journal_damage << "\n";
  if (s.journal_of_another)
    out << "  journal " << s.path << ".journal holds another sweep (a run would refuse it)\n";
  out << s.source->Summary();
  if (s.lacking.empty()) {
    out << "  complete" << (s.planned ? "" : ": " + s.source->RoundNote()) << "\n";
    return true;
  }
  if (!s.planned) {
    out << "  incomplete: " << s.source->RoundNote() << "; its current rounds lack " << s.Missing()
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

// The same account as one JSON object per file.
void WriteStatusJson(const SweepState& s, JsonWriter& w) {
  const SweepIdentity& id = s.identity;
  w.BeginObject()
      .Field("path", s.path)
      .Field("file_exists", s.file_exists)
      .Field("journal_exists", s.journal_exists)
      .Field("name", s.name)
      .Field("config", s.config_path)
      .Field("seed", static_cast<unsigned long long>(id.seed))
      .Field("shard", id.shard)
      .Field("created_utc", s.created_utc)
      .Field("tool", s.tool)
      .Field("numerics_version", id.numerics)
      .Field("numerics_build", id.build)
      .Field("adaptive", !id.adaptive.empty())  // the identity's: an adaptive search
      .Field("source", s.source->Describe())
      .Field("cells", s.cells.size())
      .Field("trials_per_cell", id.trials)
      .Field("share_trials", s.planned ? *s.planned : s.held.size() + s.Missing())
      .Field("held", s.held.size())
      .Field("ok", s.by_status[0])
      .Field("diverged", s.by_status[1])
      .Field("infeasible", s.by_status[2])
      .Field("error", s.by_status[3])
      .Field("successes", s.successes)
      .Field("journal_only", s.journal_only)
      .Field("journal_damage", s.journal_damage)
      .Field("journal_of_another", s.journal_of_another)
      .Field("missing", s.Missing())
      .Field("complete", s.lacking.empty());
  w.Key("lacking").BeginArray();
  for (const auto& [cell, count] : s.lacking)
    w.BeginObject().Field("cell", s.cells[cell].label).Field("missing", count).EndObject();
  w.EndArray();
  s.source->WriteJson(w);
  w.EndObject();
}

}  // namespace

cli::Command StatusCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "status";
  c.operands = "FILE.h5...";
  c.min_operands = 1;
  c.max_operands = SIZE_MAX;
  c.summary = "what each result file (or its journal) holds and lacks; exit 1 if any lacks";
  c.description =
      "Reads the file and the journal beside it (a run in progress or stopped), or the journal "
      "alone before the first checkpoint. Changes nothing and takes no lock.";
  c.options = {
      {"json",
       "",
       "one JSON object: {\"files\": [...], \"complete\": N, \"incomplete\": N}",
       {},
       ""},
  };
  return c;
}

int RunStatusCommand(const cli::Parsed& args, const std::string& command_line) {
  (void)command_line;
  // Parse.
  const bool json = args.Has("json");
  for (const std::string& path : args.operands) cli::RequireResultFile(path);
  // Compute.
  std::vector<SweepState> states;
  for (const std::string& path : args.operands) states.push_back(ReadSweepState(path));
  // Render.
  size_t incomplete = 0;
  if (json) {
    JsonWriter w(std::cout);
    w.BeginObject().Key("files").BeginArray();
    for (const SweepState& s : states) {
      WriteStatusJson(s, w);
      incomplete += !s.lacking.empty();
    }
    w.EndArray()
        .Field("complete", states.size() - incomplete)
        .Field("incomplete", incomplete)
        .EndObject();
    std::cout << "\n";
  } else {
    for (const SweepState& s : states) incomplete += !PrintStatus(s, std::cout);
    if (states.size() > 1)
      std::cout << states.size() - incomplete << " of " << states.size() << " files complete\n";
  }
  return incomplete > 0 ? cli::kIncomplete : cli::kDone;
}

}  // namespace pmoe
