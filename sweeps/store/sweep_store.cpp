// Reconciling the result file and the journal of one sweep, and writing both.
#include "pmoe/sweep/store/sweep_store.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

// What a file or journal holds, when the config is its sweep or grows it.
struct Found {
  std::vector<TrialRow> rows;
  std::string growth;    // DescribeGrowth from its identity to the config's
  bool retitle = false;  // its identity is not the config's: rewrite it under the config's
};

// The result file at out_path; throws when it holds another sweep (unless `force`: nothing).
Found FileRows(const SweepSetup& setup, bool force) {
  if (!std::filesystem::exists(setup.out_path)) return {};
  ResultContents contents;
  try {
    contents = ReadResultFile(setup.out_path);
  } catch (const SchemaError& e) {
    if (force) return {};
    throw ConfigError(std::string(e.what()) + " (--force overwrites it)");
  }
  const SweepIdentity held = IdentityOf(contents);
  // A precision file's trials per cell are its budget, mostly unspent: its rows say how many a
  // fixed grid must keep.
  int used = -1;
  if (!contents.meta.precision.empty()) {
    used = 0;
    for (const TrialRow& r : contents.rows) used = std::max(used, r.result.trial + 1);
  }
  const std::string problem =
      DescribeGrowthProblem(held, setup.identity, "the file", "the config", used);
  if (!problem.empty()) {
    if (force) return {};
    throw ConfigError(setup.out_path + " holds another sweep: " + problem +
                      " (--force starts over; --out writes elsewhere)");
  }
  return {std::move(contents.rows),
          DescribeGrowth(held, setup.identity, TrialsDecidedByRounds(setup.config)),
          held.Text() != setup.identity.Text()};
}

// The rows of a journal whose identity `stored` is not the config's: of a sweep the config
// grows (decoded under the journal's own identity), else a ConfigError (unless `force`).
Found GrownJournalRows(const SweepSetup& setup, const std::string& stored, bool force) {
  const SweepIdentity held = SweepIdentity::FromText(stored);
  const std::string problem =
      DescribeGrowthProblem(held, setup.identity, "the journal", "the config");
  if (!problem.empty()) {
    if (force) return {};
    throw ConfigError(setup.journal_path + " belongs to another sweep: " + problem +
                      " (--force starts over)");
  }
  JournalContents journal =
      PeekJournal(setup.journal_path, stored, setup.schema, LimitsOf(held.cells, held.trials));
  return {std::move(journal.rows),
          DescribeGrowth(held, setup.identity, TrialsDecidedByRounds(setup.config)), true};
}

// A shard's items held by the merged file of a sweep this one grows (or is); nothing when there
// is no such file, or it holds another sweep (the shard then computes its share itself).
std::vector<TrialRow> MergedRows(const SweepSetup& setup) {
  if (setup.shard.count == 0 || setup.work.empty() || !std::filesystem::exists(setup.merged_path))
    return {};
  ResultContents merged;
  try {
    merged = ReadResultFile(setup.merged_path);
  } catch (const SchemaError&) {
    return {};
  }
  SweepIdentity whole = setup.identity;
  whole.shard.clear();
  if (!DescribeGrowthProblem(IdentityOf(merged), whole, "", "").empty()) return {};
  std::set<RowKey> share;
  for (const WorkItem& item : setup.work) share.insert({setup.cells[item.cell].id, item.trial});
  std::vector<TrialRow> rows;
  for (TrialRow& r : merged.rows)
    if (share.count({r.cell_id, r.result.trial})) rows.push_back(std::move(r));
  return rows;
}

RowLimits SetupLimits(const SweepSetup& setup) {
  return LimitsOf(setup.identity.cells, setup.identity.trials);
}

}  // namespace

SweepStore::SweepStore(const SweepSetup& setup, const ResultMeta& meta, bool force,
                       std::ostream& log)
    : setup_(setup) {
  const auto parent = std::filesystem::path(setup.out_path).parent_path();
  std::error_code error;
  if (!parent.empty() && !std::filesystem::create_directories(parent, error) && error)
    throw IoError(parent.string() + ": cannot create the directory: " + error.message());
  Found file = FileRows(setup, force);
  rows_.Insert(file.rows);

  journal_ = std::make_unique<Journal>(setup.journal_path, setup.identity.Text(), setup.schema,
                                       SetupLimits(setup));
  if (const std::string damage = DescribeDamage(setup.journal_path, journal_->damage());
      !damage.empty())
    log << "pmoe-sweep: warning: " << damage << "\n";
  // A temp file left by a run killed while rebuilding the result file: never published, and
  // this process now owns the sweep (the journal's lock).
  std::filesystem::remove(setup.out_path + ".tmp", error);
  if (!journal_->matches()) {
    const Found journaled = GrownJournalRows(setup, journal_->stored_identity(), force);
    rows_.Insert(journaled.rows);
    if (!journaled.rows.empty()) {
      // The file holds every row before the journal starts over: a kill between loses none.
      Save(meta);
      file.retitle = false;
    }
    if (file.growth.empty()) file.growth = journaled.growth;
    journal_->Reset();
  }
  const std::vector<TrialRow> merged = MergedRows(setup);
  rows_.Insert(merged);
  if (!file.growth.empty())
    log << "pmoe-sweep: " << setup.config.name << ": grows the sweep held in " << setup.out_path
        << ": " << file.growth << "\n";
  if (!merged.empty())
    log << "pmoe-sweep: " << merged.size() << " trials of this shard taken from "
        << setup.merged_path << "\n";
  // The journal must hold every finished row: copy in what only the files had.
  StoredRows journaled;
  journaled.Insert(journal_->recovered());
  std::vector<TrialRow> missing_from_journal;
  for (const TrialRow& row : rows_.Values())
    if (!journaled.Has(row.cell_id, row.result.trial)) missing_from_journal.push_back(row);
  journal_->Append(missing_from_journal);
  rows_.Insert(journal_->recovered());
  // A grown sweep's file says so at once (status, merge and analysis read its identity).
  if (file.retitle || !merged.empty()) Save(meta);
}

void SweepStore::Append(const std::vector<TrialRow>& batch) {
  const auto start = std::chrono::steady_clock::now();
  journal_->Append(batch);
  rows_.Insert(batch);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void SweepStore::Save(const ResultMeta& meta) {
  const auto start = std::chrono::steady_clock::now();
  WriteResultFile(setup_.out_path, meta, setup_.cells, setup_.schema, rows_.Values());
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void SweepStore::RemoveJournal() const { Journal::Remove(setup_.journal_path); }

HeldSweep ReadHeld(const SweepSetup& setup) {
  StoredRows rows;
  Found file = FileRows(setup, /*force=*/false);
  rows.Insert(file.rows);
  const JournalContents journal =
      PeekJournal(setup.journal_path, setup.identity.Text(), setup.schema, SetupLimits(setup));
  if (journal.has_identity && journal.identity != setup.identity.Text()) {
    const Found grown = GrownJournalRows(setup, journal.identity, /*force=*/false);
    rows.Insert(grown.rows);
    if (file.growth.empty()) file.growth = grown.growth;
  }
  rows.Insert(journal.rows);
  rows.Insert(MergedRows(setup));
  return {rows.Values(), file.growth};
}

std::vector<TrialRow> HeldRows(const SweepSetup& setup) { return ReadHeld(setup).rows; }

}  // namespace pmoe
