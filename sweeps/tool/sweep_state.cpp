// Reading what a sweep file and its journal hold. A journal alone carries its sweep's identity
// (the cells' canonical keys, seed, trials, shard and row columns), which is enough to rebuild
// the cells, their cost order and so the shard's share, without the config.
#include "sweep_state.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/numerics_history.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/core/version.hpp"
#include "pmoe/sweep/adaptive/adaptive_config.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/store/journal.hpp"
#include "pmoe/sweep/store/result_file.hpp"

namespace pmoe {
namespace {

// The cells an identity names, their parameters parsed back from the canonical keys.
std::vector<Cell> CellsOf(const SweepIdentity& id, const std::string& path) {
  std::vector<Cell> cells;
  for (size_t i = 0; i < id.cells.size(); ++i) {
    Cell c;
    c.key = id.cells[i];
    c.id = HashString(c.key);
    c.label = id.labels[i];
    for (const auto& [name, value] : SplitCanonicalKey(c.key))
      SetParam(c.spec, CurrentParamName(name), value, path);
    cells.push_back(std::move(c));
  }
  return cells;
}

void Count(SweepState& s, const TrialRow& r, StoredRows& stored) {
  if (!s.held.insert({r.cell_id, r.result.trial}).second) return;
  stored.Insert({r});
  ++s.by_status[static_cast<int>(r.result.status) % 4];
  s.successes += r.result.success;
}

// What a run of the sweep would start from: the file's config (without a file, the journal's
// trials), and the adaptive search its identity records, the one kind of source an identity
// names (a file of an older search method is refused here by name, as a run refuses it).
std::shared_ptr<const SweepSetup> SetupOf(const SweepState& s,
                                          const std::optional<SweepConfig>& config) {
  auto setup = std::make_shared<SweepSetup>();
  if (config) setup->config = *config;
  setup->config.trials = s.identity.trials;
  if (!s.identity.adaptive.empty()) {  // its section makes the source from these settings
    setup->config.adaptive = ParseAdaptiveIdentity(s.identity.adaptive);
    setup->config.section = MakeConfigSection("adaptive");
  }
  setup->cells = s.cells;
  setup->shard = s.shard;
  setup->work = ShardOf(PlanWork(s.cells, s.identity.trials), s.shard.index, s.shard.count);
  return setup;
}

}  // namespace

size_t SweepState::Missing() const {
  size_t missing = 0;
  for (const auto& [cell, count] : lacking) missing += static_cast<size_t>(count);
  return missing;
}

SweepState ReadSweepState(const std::string& path) {
  SweepState s;
  s.path = path;
  const std::string journal_path = path + ".journal";
  s.file_exists = std::filesystem::exists(path);
  s.journal_exists = std::filesystem::exists(journal_path);
  if (!s.file_exists && !s.journal_exists)
    throw SchemaError(path + ": no such file, and no journal " + journal_path + " (not run yet?)");
  std::optional<RowSchema> schema;
  std::optional<SweepConfig> config;
  std::vector<TrialRow> file_rows;
  if (s.file_exists) {
    ResultContents contents = ReadResultFile(path);
    const ResultMeta& m = contents.meta;
    s.identity = IdentityOf(contents);
    s.name = m.name;
    s.config_path = m.config_path;
    s.created_utc = m.created_utc;
    s.tool = m.tool_version + " (" + m.git_describe + ")";
    config = ParseSweepConfig(m.config_path, m.config);
    // A file of an older numerics version is read by its own cells (their keys as it recorded
    // them): this build's keys of the same config may differ, and it never grows the file.
    s.cells =
        m.numerics_version == kNumericsVersion ? ExpandGrid(*config) : CellsOf(s.identity, path);
    schema = contents.schema;
    file_rows = std::move(contents.rows);
  } else {
    const JournalContents head = PeekJournal(journal_path, "", RowSchema());
    if (!head.has_identity)
      throw SchemaError(journal_path + ": not a pmoe-sweep journal (no intact identity record)");
    s.identity = SweepIdentity::FromText(head.identity);
    schema = RowSchemaFromText(s.identity.columns, journal_path + ": its identity");
    s.cells = CellsOf(s.identity, journal_path);
  }
  if (!s.identity.shard.empty()) s.shard = ParseShard(s.identity.shard);
  StoredRows stored;
  for (const TrialRow& r : file_rows) Count(s, r, stored);
  if (s.journal_exists) {
    // Rows only of a journal of this very sweep (another identity's are not decoded).
    const JournalContents journal = PeekJournal(journal_path, s.identity.Text(), *schema,
                                                LimitsOf(s.identity.cells, s.identity.trials));
    s.journal_damage = DescribeDamage(journal_path, journal.damage);
    s.journal_of_another = journal.has_identity && journal.identity != s.identity.Text();
    const size_t before = s.held.size();
    for (const TrialRow& r : journal.rows) Count(s, r, stored);
    s.journal_only = s.held.size() - before;
  }
  s.setup = SetupOf(s, config);
  s.source = MakeWorkSource(*s.setup);
  s.planned = s.source->Planned();
  // A source that knows its share is asked for all of it; one decided by rounds for the round
  // the held rows lead to (replayed as a resumed run replays them).
  s.work = s.planned ? s.setup->work : s.source->NextRound(stored);
  for (const WorkItem& item : s.work)
    if (!s.held.count({s.cells[item.cell].id, item.trial})) ++s.lacking[item.cell];
  return s;
}

bool JournalInUse(const std::string& journal_path) {
  const int fd = ::open(journal_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // releases the shared lock if we took it
  return busy;
}

}  // namespace pmoe
