// What one sweep file holds of its share of the sweep, read from the HDF5 result file and the
// journal beside it, or from the journal alone when a run was stopped before its first
// checkpoint. Used by `status` and `missing`; changes nothing and takes no lock.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"
#include "pmoe/sweep/run/work_plan.hpp"
#include "pmoe/sweep/run/work_source.hpp"
#include "pmoe/sweep/store/sweep_identity.hpp"

namespace pmoe {

struct SweepState {
  std::string path;  // the .h5 (which may not exist yet)
  bool file_exists = false;
  bool journal_exists = false;
  SweepIdentity identity;  // of the file, or of the journal when there is no file
  std::string name, config_path, created_utc, tool;  // from the file; empty from a journal
  std::vector<Cell> cells;                           // the whole sweep's, grid order
  ShardSpec shard;
  std::vector<WorkItem> work;               // this file's share, most costly first
  std::set<std::pair<uint64_t, int>> held;  // (cell id, trial) in the file or the journal
  size_t journal_only = 0;                  // of them, only in the journal (not yet checkpointed)
  std::string journal_damage;          // what the journal lost (DescribeDamage), "" when intact
  bool journal_of_another = false;     // the journal beside the file holds another sweep
  size_t by_status[4] = {0, 0, 0, 0};  // ok, diverged, infeasible, error
  size_t successes = 0;
  std::map<size_t, int> lacking;  // cell index -> trials of this share missing
  // The work source a run of this sweep uses (MakeWorkSource, from the file's config or the
  // journal's identity), fed the held rows: status asks it rather than knowing its kind.
  // `planned` is the share's size when the source knows it before anything runs (a grid);
  // nullopt when rounds decide it (the adaptive search, a precision target), and `work` and
  // `lacking` are then those of its current round.
  std::shared_ptr<const SweepSetup> setup;  // what the source reads (its own cells)
  std::shared_ptr<WorkSource> source;
  std::optional<size_t> planned;

  size_t Missing() const;  // trials of this share held nowhere
};

// Throws SchemaError when neither `path` nor `path.journal` is there, or either is unreadable.
SweepState ReadSweepState(const std::string& path);

// Whether a process holds the lock of this journal now (a run is writing it).
bool JournalInUse(const std::string& journal_path);

}  // namespace pmoe
