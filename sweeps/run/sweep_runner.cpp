// The sweep runner: rounds of a work source, each run by the executor into the store, until
// the source has nothing more or the user interrupts; then the result file is saved.
#include "pmoe/sweep/run/sweep_runner.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <set>

#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/grid/config_section.hpp"
#include "pmoe/sweep/run/grid_source.hpp"
#include "trial_executor.hpp"

namespace pmoe {
namespace {

// The round without the items already stored or listed twice: a source that handed those out
// would otherwise be asked again and again, and a row is never computed twice.
std::vector<WorkItem> Unstored(const std::vector<WorkItem>& round, const StoredRows& stored,
                               const std::vector<Cell>& cells) {
  std::vector<WorkItem> out;
  std::set<RowKey> seen;
  for (const WorkItem& item : round) {
    const RowKey key{cells.at(item.cell).id, item.trial};
    if (!stored.Has(key.first, key.second) && seen.insert(key).second) out.push_back(item);
  }
  return out;
}

using RunClock = std::chrono::steady_clock;

// What the steps of one run share.
struct SweepRun {
  const SweepSetup& setup;
  WorkSource& source;
  const RunOptions& options;
  std::ostream& log;
  std::optional<size_t> planned;  // the source's share, when it knows it
};

// The run's first line, and what the store held before it: of a planned share, the part done
// (a source that knows its share hands out all it lacks in its first round); otherwise every
// stored row.
void LogStart(const SweepRun& run, size_t stored, size_t todo, RunReport& report) {
  const std::string where = run.setup.shard.count ? " in shard " + run.setup.shard.Text() : "";
  run.log << "pmoe-sweep: " << run.setup.config.name << ": " << run.source.Describe() << where
          << ", ";
  if (run.planned) {
    report.shard_trials = *run.planned;
    report.held = *run.planned - todo;
    run.log << report.held << " already done, " << todo << " to run";
  } else {
    report.held = stored;
    run.log << report.held << " trials already done";
  }
  run.log << " -> " << run.setup.out_path << "\n";
}

// Rounds until the source has nothing more or the user interrupts; returns what was left to run
// (nothing: the source is done).
std::vector<WorkItem> RunRounds(const SweepRun& run, const SweepStore& store,
                                TrialExecutor& executor, std::vector<WorkItem> todo, size_t held) {
  auto last_line = RunClock::now();
  for (int round = 1; !todo.empty(); ++round) {
    try {
      // A known share draws a bar; short rounds decided as they go get a line per round.
      executor.Run(todo, run.planned.has_value(), held);
    } catch (const std::exception& e) {
      const size_t ran = executor.ran();
      throw IoError(std::string(e.what()) + "; stopped after " + std::to_string(ran) +
                    " new trials, " + std::to_string(held + ran) +
                    (run.planned ? " of " + std::to_string(*run.planned) : "") + " held in " +
                    run.setup.journal_path +
                    " (run again once the cause is fixed: it resumes from there)");
    }
    if (executor.interrupted()) break;
    todo = Unstored(run.source.NextRound(store.rows()), store.rows(), run.setup.cells);
    const std::string note = run.source.RoundNote();
    if (!note.empty() && run.options.progress &&
        std::chrono::duration<double>(RunClock::now() - last_line).count() >= 2) {
      run.log << "pmoe-sweep: round " << round << ": " << held + executor.ran() << " trials, "
              << note << "\n";
      last_line = RunClock::now();
    }
  }
  return todo;
}

// The run's counts once its rounds are over; whether they complete the shard's share (a share
// decided as it went is complete when the source had nothing more).
bool CountRun(const SweepRun& run, const TrialExecutor& executor, bool source_done,
              RunReport& report) {
  report.ran = executor.ran();
  report.interrupted = executor.interrupted();
  if (run.planned) return report.held + report.ran == report.shard_trials;
  report.shard_trials = report.held + report.ran;
  return !report.interrupted && source_done;
}

// The file saved from the journal, which goes once the share is complete.
void SaveAtEnd(const SweepRun& run, SweepStore& store, const std::function<void()>& save,
               bool complete) {
  try {
    save();
  } catch (const std::exception& e) {
    throw IoError(std::string(e.what()) + "; every trial is held in " + run.setup.journal_path +
                  " (run again once the cause is fixed: it rebuilds the file from there)");
  }
  if (complete) store.RemoveJournal();
}

}  // namespace

std::unique_ptr<WorkSource> MakeWorkSource(const SweepSetup& setup) {
  if (setup.config.section) return setup.config.section->MakeSource(setup);  // registered
  return std::make_unique<GridSource>(setup.cells, setup.work);
}

RunReport RunSweep(const SweepSetup& setup, const RunOptions& options, std::ostream& log) {
  const std::unique_ptr<WorkSource> source = MakeWorkSource(setup);
  return RunSweep(setup, *source, options, log);
}

RunReport RunSweep(const SweepSetup& setup, WorkSource& source, const RunOptions& options,
                   std::ostream& log) {
  const auto run_start = RunClock::now();
  ResultMeta meta = MetaFor(setup, options.command_line);
  SweepStore store(setup, meta, options.force, log);
  std::vector<WorkItem> todo = Unstored(source.NextRound(store.rows()), store.rows(), setup.cells);
  const SweepRun run{setup, source, options, log, source.Planned()};
  RunReport report;
  LogStart(run, store.rows().size(), todo.size(), report);
  auto save = [&] {
    source.Annotate(meta);
    store.Save(meta);
  };
  TrialExecutor executor(setup, options, store, save, log);
  todo = RunRounds(run, store, executor, std::move(todo), report.held);
  SaveAtEnd(run, store, save, CountRun(run, executor, todo.empty(), report));
  report.summary = source.Summary();
  report.wall_seconds = std::chrono::duration<double>(RunClock::now() - run_start).count();
  report.store_seconds = store.seconds();
  const TestSetCache::Counts cached = executor.cache_counts();
  report.test_sets_kept = cached.kept;
  report.test_set_reuses = cached.hits;
  report.test_cache_peak_bytes = cached.peak_bytes;
  return report;
}

}  // namespace pmoe
