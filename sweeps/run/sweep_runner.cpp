// The sweep runner: rounds of a work source, each run by the executor into the store, until
// the source has nothing more or the user interrupts; then the result file is saved.
#include "pmoe/sweep/run/sweep_runner.hpp"

#include <chrono>
#include <set>

#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/adaptive/adaptive_source.hpp"
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

}  // namespace

std::unique_ptr<WorkSource> MakeWorkSource(const SweepSetup& setup) {
  if (setup.config.adaptive)
    return std::make_unique<AdaptiveSource>(setup.cells, *setup.config.adaptive, setup.shard);
  if (setup.config.section) return setup.config.section->MakeSource(setup);  // registered
  return std::make_unique<GridSource>(setup.cells, setup.work);
}

RunReport RunSweep(const SweepSetup& setup, const RunOptions& options, std::ostream& log) {
  const std::unique_ptr<WorkSource> source = MakeWorkSource(setup);
  return RunSweep(setup, *source, options, log);
}

RunReport RunSweep(const SweepSetup& setup, WorkSource& source, const RunOptions& options,
                   std::ostream& log) {
  using Clock = std::chrono::steady_clock;
  const auto run_start = Clock::now();
  ResultMeta meta = MetaFor(setup, options.command_line);
  SweepStore store(setup, meta, options.force, log);
  RunReport report;
  std::vector<WorkItem> todo = Unstored(source.NextRound(store.rows()), store.rows(), setup.cells);
  // A source that knows its share hands out all it lacks in its first round.
  const std::optional<size_t> planned = source.Planned();
  const std::string where = setup.shard.count ? " in shard " + setup.shard.Text() : "";
  log << "pmoe-sweep: " << setup.config.name << ": " << source.Describe() << where << ", ";
  if (planned) {
    report.shard_trials = *planned;
    report.held = *planned - todo.size();
    log << report.held << " already done, " << todo.size() << " to run";
  } else {
    report.held = store.rows().size();
    log << report.held << " trials already done";
  }
  log << " -> " << setup.out_path << "\n";

  auto save = [&] {
    source.Annotate(meta);
    store.Save(meta);
  };
  TrialExecutor executor(setup, options, store, save, log);
  auto last_line = Clock::now();
  for (int round = 1; !todo.empty(); ++round) {
    try {
      // A known share draws a bar; short rounds decided as they go get a line per round.
      executor.Run(todo, planned.has_value(), report.held);
    } catch (const std::exception& e) {
      const size_t ran = executor.ran();
      throw IoError(std::string(e.what()) + "; stopped after " + std::to_string(ran) +
                    " new trials, " + std::to_string(report.held + ran) +
                    (planned ? " of " + std::to_string(*planned) : "") + " held in " +
                    setup.journal_path +
                    " (run again once the cause is fixed: it resumes from there)");
    }
    if (executor.interrupted()) break;
    todo = Unstored(source.NextRound(store.rows()), store.rows(), setup.cells);
    const std::string note = source.RoundNote();
    if (!note.empty() && options.progress &&
        std::chrono::duration<double>(Clock::now() - last_line).count() >= 2) {
      log << "pmoe-sweep: round " << round << ": " << report.held + executor.ran() << " trials, "
          << note << "\n";
      last_line = Clock::now();
    }
  }
  report.ran = executor.ran();
  report.interrupted = executor.interrupted();
  bool complete = report.held + report.ran == report.shard_trials;
  if (!planned) {
    complete = !report.interrupted && todo.empty();
    report.shard_trials = report.held + report.ran;
  }
  try {
    save();
  } catch (const std::exception& e) {
    throw IoError(std::string(e.what()) + "; every trial is held in " + setup.journal_path +
                  " (run again once the cause is fixed: it rebuilds the file from there)");
  }
  if (complete) store.RemoveJournal();
  report.summary = source.Summary();
  report.wall_seconds = std::chrono::duration<double>(Clock::now() - run_start).count();
  report.store_seconds = store.seconds();
  const TestSetCache::Counts cached = executor.cache_counts();
  report.test_sets_kept = cached.kept;
  report.test_set_reuses = cached.hits;
  report.test_cache_peak_bytes = cached.peak_bytes;
  return report;
}

}  // namespace pmoe
