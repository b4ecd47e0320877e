// Where a sweep's work comes from. A WorkSource hands out (cell, trial) items in rounds; each
// round is decided from the rows already stored alone (never from timing, thread count or
// which process computed them), so a run is the same on any number of cores and a resumed run
// replays the finished rounds from the file. The runner stores every row of a round before it
// asks for the next one, so a source sees its own rows come back through `stored`.
//
// The grid (grid_source.hpp) and the adaptive N* search (adaptive_source.hpp) are sources;
// MakeWorkSource (sweep_runner.hpp) picks one for a config, or asks the config's registered
// section (config_section.hpp) for its own. A source may add trials to cells
// that already have rows and may choose its next round from any statistic of the stored rows:
// a precision target is a source that asks for more trials where an interval is too wide.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/run/work_plan.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "pmoe/sweep/store/trial_row.hpp"

namespace pmoe {

using RowKey = std::pair<uint64_t, int>;  // (cell id, trial index)

// The rows a sweep holds, one per (cell id, trial): a row is a pure function of the master
// seed, the cell's canonical key and the trial index, so the first copy stored is kept.
class StoredRows {
 public:
  void Insert(const std::vector<TrialRow>& rows);
  const TrialRow* Find(uint64_t cell_id, int trial) const;
  bool Has(uint64_t cell_id, int trial) const { return Find(cell_id, trial) != nullptr; }
  size_t size() const { return rows_.size(); }
  std::vector<TrialRow> Values() const;  // in (cell id, trial) order

 private:
  std::map<RowKey, TrialRow> rows_;
};

class WorkSource {
 public:
  virtual ~WorkSource() = default;

  // The next round: items (indices into the sweep's cells) whose rows `stored` lacks, decided
  // from `stored` alone, in the order they should start (most costly first). Empty: the
  // source has nothing more to run.
  virtual std::vector<WorkItem> NextRound(const StoredRows& stored) = 0;

  // How many items the source hands out in all, when that is known before anything runs (a
  // grid's share); nullopt when it is decided round by round.
  virtual std::optional<size_t> Planned() const { return std::nullopt; }

  // The most the source can ask for before anything runs, by the static cost model
  // (EstimateTrialSeconds): a grid's share exactly; a bound for a source that decides its work
  // round by round (`how` says how the bound was taken, for pmoe-sweep plan).
  struct Bound {
    size_t trials = 0;
    double core_seconds = 0;
    std::string how;
    // A precision target's budget spread evenly over its cells (0: not known): the expected
    // core-seconds by the cost model and the trials a cell gets, which bound the test sets a run
    // holds (cells of one data share trial t's test set), where the bound above is the worst case.
    double expected_core_seconds = 0;
    double trials_per_cell = 0;
  };
  virtual Bound MostWork() const = 0;

  // What the source is, for the run's first line: "240 trials", "adaptive search of N* in 4
  // series".
  virtual std::string Describe() const = 0;

  // Where the source stands after a round, for a progress line ("" for none).
  virtual std::string RoundNote() const { return ""; }

  // What the source records in the result file's metadata at every save.
  virtual void Annotate(ResultMeta& /*meta*/) const {}

  // A table for the end of the run and for `status` ("" for none).
  virtual std::string Summary() const { return ""; }

  // What the source adds to `status --json`'s object of a file (fields inside an open object).
  virtual void WriteJson(JsonWriter& /*w*/) const {}
};

}  // namespace pmoe
