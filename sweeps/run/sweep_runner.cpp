// The sweep runner. One writer (this thread) owns the journal and the result file; TBB workers
// only run trials and hand finished rows over, so no file is ever written concurrently.
#include "pmoe/sweep/sweep_runner.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "pmoe/core/build_info.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/version.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/sweep/adaptive_config.hpp"
#include "pmoe/sweep/adaptive_work.hpp"
#include "pmoe/sweep/journal.hpp"
#include "pmoe/trial/test_set_cache.hpp"
#include "pmoe/trial/trial.hpp"
#include "progress.hpp"

namespace pmoe {
namespace {

using RowKey = std::pair<uint64_t, int>;  // (cell_id, trial)

RowKey KeyOf(const TrialRow& r) { return {r.cell_id, r.result.trial}; }

// Rows of the result file at out_path when it holds this sweep; throws when it holds another.
std::vector<TrialRow> FileRows(const SweepSetup& setup, bool force) {
  if (!std::filesystem::exists(setup.out_path)) return {};
  ResultContents contents;
  try {
    contents = ReadResultFile(setup.out_path);
  } catch (const SchemaError& e) {
    if (force) return {};
    throw ConfigError(std::string(e.what()) + " (--force overwrites it)");
  }
  const std::string diff =
      DescribeDifference(IdentityOf(contents), setup.identity, "the file", "the config");
  if (diff.empty()) return std::move(contents.rows);
  if (force) return {};
  throw ConfigError(setup.out_path + " holds another sweep: " + diff +
                    " (--force starts over; --out writes elsewhere)");
}

void Insert(std::map<RowKey, TrialRow>& rows, const std::vector<TrialRow>& more) {
  for (const TrialRow& r : more) rows.emplace(KeyOf(r), r);
}

std::vector<TrialRow> Values(const std::map<RowKey, TrialRow>& rows) {
  std::vector<TrialRow> out;
  out.reserve(rows.size());
  for (const auto& [key, row] : rows) out.push_back(row);
  return out;
}

}  // namespace

SweepSetup PrepareSweep(const std::string& config_path, const std::string& out,
                        const ShardSpec& shard) {
  SweepSetup s;
  s.config = LoadSweepConfig(config_path);
  s.cells = ExpandGrid(s.config);
  s.shard = shard;
  std::vector<const TrialSpec*> specs;
  int classes = 0;
  for (const Cell& c : s.cells) {
    specs.push_back(&c.spec);
    classes = std::max(classes, DataFamilyOf(c.spec).Shape(c.spec).classes);
  }
  s.schema = RowSchema(MetricsOf(specs), classes);
  s.identity.columns = s.schema.Text();
  s.identity.numerics = kNumericsVersion;
  s.identity.build = NumericsBuild();
  s.identity.seed = s.config.seed;
  s.identity.trials = s.config.trials;
  s.identity.shard = shard.Text();
  if (s.config.adaptive) s.identity.adaptive = AdaptiveIdentity(*s.config.adaptive);
  for (const Cell& c : s.cells) {
    s.identity.cells.push_back(c.key);
    s.identity.labels.push_back(c.label);
  }
  s.merged_path = out.empty() ? "results/" + s.config.name + ".h5" : out;
  s.out_path = shard.count > 0 ? ShardPath(s.merged_path, shard) : s.merged_path;
  s.journal_path = s.out_path + ".journal";
  // An adaptive sweep's work is decided round by round while it runs (AdaptiveWork).
  // Before anything runs: a directory as --out would be found only at the first checkpoint.
  for (const std::string& path : {s.out_path, s.journal_path, s.out_path + ".tmp"})
    if (const std::string problem = OutputFileProblem(path); !problem.empty())
      throw ConfigError(path + ": " + problem +
                        " (--out names the result file; its journal and "
                        "temp file go beside it)");
  if (!s.config.adaptive)
    s.work = ShardOf(PlanWork(s.cells, s.config.trials), shard.index, shard.count);
  return s;
}

SweepIdentity IdentityOf(const ResultContents& contents) {
  SweepIdentity id;
  id.numerics = contents.meta.numerics_version;
  id.build = contents.meta.numerics_build;
  id.seed = contents.meta.master_seed;
  id.trials = contents.meta.trials_per_cell;
  id.shard = contents.meta.shard;
  id.adaptive = contents.meta.adaptive;
  if (contents.schema) id.columns = contents.schema->Text();
  for (const StoredCell& c : contents.cells) {
    id.cells.push_back(c.key);
    id.labels.push_back(c.label);
  }
  return id;
}

std::vector<TrialRow> HeldRows(const SweepSetup& setup) {
  std::map<RowKey, TrialRow> rows;
  Insert(rows, FileRows(setup, /*force=*/false));
  const JournalContents journal =
      PeekJournal(setup.journal_path, setup.identity.Text(), setup.schema,
                  LimitsOf(setup.identity.cells, setup.identity.trials));
  if (journal.has_identity && journal.identity != setup.identity.Text())
    throw ConfigError(setup.journal_path + " belongs to another sweep: " +
                      DescribeDifference(SweepIdentity::FromText(journal.identity), setup.identity,
                                         "the journal", "the config"));
  Insert(rows, journal.rows);
  return Values(rows);
}

ResultMeta MetaFor(const SweepSetup& setup, const std::string& command_line) {
  ResultMeta meta;
  meta.numerics_version = kNumericsVersion;
  meta.numerics_build = NumericsBuild();
  meta.name = setup.config.name;
  meta.config = setup.config.text;
  meta.config_path = setup.config.path;
  meta.master_seed = setup.config.seed;
  meta.trials_per_cell = setup.config.trials;
  meta.shard = setup.shard.Text();
  meta.command_line = command_line;
  meta.created_utc = UtcNow();
  meta.tool_version = kToolVersion;
  meta.git_describe = kGitDescribe;
  meta.adaptive = setup.identity.adaptive;
  return meta;
}

RunReport RunSweep(const SweepSetup& setup, const RunOptions& options, std::ostream& log) {
  using Clock = std::chrono::steady_clock;
  const auto run_start = Clock::now();
  double store_seconds = 0;
  // Times the store's own work, to report what durability costs.
  auto timed = [&store_seconds](auto&& work) {
    const auto start = Clock::now();
    work();
    store_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  };
  const auto parent = std::filesystem::path(setup.out_path).parent_path();
  std::error_code error;
  if (!parent.empty() && !std::filesystem::create_directories(parent, error) && error)
    throw IoError(parent.string() + ": cannot create the directory: " + error.message());
  std::map<RowKey, TrialRow> rows;
  Insert(rows, FileRows(setup, options.force));

  Journal journal(setup.journal_path, setup.identity.Text(), setup.schema,
                  LimitsOf(setup.identity.cells, setup.identity.trials));
  if (const std::string damage = DescribeDamage(setup.journal_path, journal.damage());
      !damage.empty())
    log << "pmoe-sweep: warning: " << damage << "\n";
  // A temp file left by a run killed while rebuilding the result file: never published, and
  // this process now owns the sweep (the journal's lock).
  std::filesystem::remove(setup.out_path + ".tmp", error);
  if (!journal.matches()) {
    if (!options.force)
      throw ConfigError(setup.journal_path + " belongs to another sweep: " +
                        DescribeDifference(SweepIdentity::FromText(journal.stored_identity()),
                                           setup.identity, "the journal", "the config") +
                        " (--force starts over)");
    journal.Reset();
  }
  // The journal must hold every finished row: copy in what only the result file had.
  std::map<RowKey, TrialRow> journaled;
  Insert(journaled, journal.recovered());
  std::vector<TrialRow> missing_from_journal;
  for (const auto& [key, row] : rows)
    if (!journaled.count(key)) missing_from_journal.push_back(row);
  journal.Append(missing_from_journal);
  Insert(rows, journal.recovered());

  RunReport report;
  std::optional<AdaptiveWork> adaptive;
  auto held_success = [&](size_t cell, int trial) -> std::optional<bool> {
    const auto it = rows.find({setup.cells[cell].id, trial});
    if (it == rows.end()) return std::nullopt;
    return it->second.result.success;
  };
  std::vector<WorkItem> todo;
  if (setup.config.adaptive) {
    adaptive.emplace(setup.cells, *setup.config.adaptive, setup.shard);
    todo = adaptive->Next(held_success);
    report.held = rows.size();
    log << "pmoe-sweep: " << setup.config.name << ": adaptive search of N* in "
        << adaptive->series() << " series"
        << (setup.shard.count ? " in shard " + setup.shard.Text() : "") << ", " << report.held
        << " trials already done -> " << setup.out_path << "\n";
  } else {
    for (const WorkItem& item : setup.work)
      if (!rows.count({setup.cells[item.cell].id, item.trial})) todo.push_back(item);
    report.shard_trials = setup.work.size();
    report.held = setup.work.size() - todo.size();
    log << "pmoe-sweep: " << setup.config.name << ": " << report.shard_trials << " trials"
        << (setup.shard.count ? " in shard " + setup.shard.Text() : "") << ", " << report.held
        << " already done, " << todo.size() << " to run -> " << setup.out_path << "\n";
  }

  ResultMeta meta = MetaFor(setup, options.command_line);
  TestSetCache test_cache(options.test_cache_bytes);
  std::ostream null_stream(nullptr);
  auto last_checkpoint = Clock::now();
  std::atomic<bool> stop{false};
  auto save = [&] {
    if (adaptive) meta.adaptive_series = SeriesTable(adaptive->Outcomes());
    timed([&] { WriteResultFile(setup.out_path, meta, setup.cells, setup.schema, Values(rows)); });
  };
  // Runs `todo` on the workers; this thread appends finished rows to the journal.
  auto run_items = [&](const std::vector<WorkItem>& items) {
    std::vector<std::string> data_keys(setup.cells.size());
    for (const WorkItem& item : items) {
      const TrialSpec& spec = setup.cells[item.cell].spec;
      std::string& key = data_keys[item.cell];
      if (key.empty()) key = CanonicalKey(spec, "data.");
      test_cache.ExpectUses(key, DeriveSeeds(setup.config.seed, spec, item.trial).data, spec.N_test,
                            1);
    }
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::condition_variable ready;
    std::vector<TrialRow> pending;
    bool workers_done = false;
    std::thread workers([&] {
      tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
      arena.execute([&] {
        // One loop per worker over a shared counter keeps the costly-first order.
        tbb::parallel_for(0, arena.max_concurrency(), [&](int) {
          for (size_t i; !stop && (i = next++) < items.size();) {
            const Cell& cell = setup.cells[items[i].cell];
            TrialRow row{cell.id,
                         RunTrial(cell.spec, items[i].trial, setup.config.seed, &test_cache)};
            std::lock_guard<std::mutex> lock(mutex);
            pending.push_back(std::move(row));
            ready.notify_one();
          }
        });
      });
      std::lock_guard<std::mutex> lock(mutex);
      workers_done = true;
      ready.notify_one();
    });

    // An adaptive round is short: its progress is the loop's line per round instead.
    // The ETA's cost model: modelled seconds per trial of each cell, summed as trials finish.
    std::map<uint64_t, double> cost_of;
    double total_cost = 0, done_cost = 0;
    for (const WorkItem& item : items) {
      cost_of[setup.cells[item.cell].id] = item.cost;
      total_cost += item.cost;
    }
    Progress progress(options.progress && !adaptive ? std::cerr : null_stream, options.terminal,
                      report.ran + items.size(), report.held, total_cost);
    std::vector<TrialRow> batch;
    try {
      for (bool finished = false; !finished;) {
        {
          std::unique_lock<std::mutex> lock(mutex);
          ready.wait_for(lock, std::chrono::milliseconds(250),
                         [&] { return !pending.empty() || workers_done; });
          batch.swap(pending);
          finished = workers_done && pending.empty();
        }
        timed([&] { journal.Append(batch); });  // durable before it counts
        Insert(rows, batch);
        report.ran += batch.size();
        for (const TrialRow& r : batch) done_cost += cost_of[r.cell_id];
        batch.clear();
        progress.Update(report.ran, done_cost);
        if (options.interrupted() && !stop) {
          stop = true;
          report.interrupted = true;
          log << "\npmoe-sweep: interrupted: finishing the trials in flight, then saving\n";
        }
        const auto now = Clock::now();
        if (std::chrono::duration<double>(now - last_checkpoint).count() >=
            options.checkpoint_seconds) {
          save();
          last_checkpoint = now;
        }
      }
    } catch (const std::exception& e) {
      // The store failed: stop the workers (the trials in flight are lost, nothing
      // acknowledged is), join them, and say what failed. The journal holds every row
      // appended before.
      stop = true;
      workers.join();
      progress.Finish(report.ran);
      throw IoError(std::string(e.what()) + "; stopped after " + std::to_string(report.ran) +
                    " new trials, " + std::to_string(report.held + report.ran) +
                    (adaptive ? "" : " of " + std::to_string(report.shard_trials)) + " held in " +
                    setup.journal_path +
                    " (run again once the cause is fixed: it resumes from there)");
    }
    workers.join();
    progress.Finish(report.ran);
  };

  // A fixed grid is one batch; an adaptive sweep one batch per round of its running series,
  // each chosen from the rows held once the previous one has finished.
  auto last_line = Clock::now();
  for (int round = 1; !todo.empty(); ++round) {
    run_items(todo);
    if (!adaptive || stop) break;
    todo = adaptive->Next(held_success);
    if (options.progress && std::chrono::duration<double>(Clock::now() - last_line).count() >= 2) {
      size_t searching = 0;
      for (const SeriesOutcome& o : adaptive->Outcomes())
        searching += o.state == SearchState::kRunning;
      log << "pmoe-sweep: round " << round << ": " << report.held + report.ran << " trials, "
          << searching << " of " << adaptive->series() << " series still searching\n";
      last_line = Clock::now();
    }
  }
  bool complete = report.held + report.ran == report.shard_trials;
  if (adaptive) {
    complete = !stop && todo.empty();
    report.shard_trials = report.held + report.ran;
    report.adaptive = adaptive->Outcomes();
  }
  try {
    save();
  } catch (const std::exception& e) {
    throw IoError(std::string(e.what()) + "; every trial is held in " + setup.journal_path +
                  " (run again once the cause is fixed: it rebuilds the file from there)");
  }
  if (complete) Journal::Remove(setup.journal_path);
  report.wall_seconds = std::chrono::duration<double>(Clock::now() - run_start).count();
  report.store_seconds = store_seconds;
  const TestSetCache::Counts cached = test_cache.counts();
  report.test_sets_kept = cached.kept;
  report.test_set_reuses = cached.hits;
  report.test_cache_peak_bytes = cached.peak_bytes;
  return report;
}

}  // namespace pmoe
