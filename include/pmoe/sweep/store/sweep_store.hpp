// A sweep's rows on disk: the HDF5 result file and the journal beside it
// (notes/hdf5-crash-safety.md). Opening reconciles the two: the rows of either are held, a temp
// file of a killed rebuild is removed, and the journal gets a copy of every row only the file
// had, so that the journal alone can rebuild the file. Only this process writes them (the
// journal's lock).
//
// A file or journal of a sweep that the config grows (more trials per cell, more cells; see
// DescribeGrowthProblem) is taken over: its rows are held, and the file is rewritten at once
// under the grown identity. A shard also takes the rows of its share from the merged file of a
// sweep it grows, so that a grown sweep's shards recompute nothing the merged file holds.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "pmoe/sweep/run/sweep_setup.hpp"
#include "pmoe/sweep/run/work_source.hpp"
#include "pmoe/sweep/store/journal.hpp"

namespace pmoe {

class SweepStore {
 public:
  // Throws ConfigError when the file or the journal holds another sweep (with `force`, starts
  // over instead), IoError when the directory cannot be made. Journal damage and growth are
  // told on `log`. `meta` is what a file rewritten at opening records.
  SweepStore(const SweepSetup& setup, const ResultMeta& meta, bool force, std::ostream& log);

  const StoredRows& rows() const { return rows_; }
  // Durable in the journal before the rows count as held.
  void Append(const std::vector<TrialRow>& batch);
  // Rebuilds the result file from every held row (atomically: temp file and rename).
  void Save(const ResultMeta& meta);
  // Every row of the sweep is in the result file: the journal is no longer needed.
  void RemoveJournal() const;
  // Time spent in appends and saves: what durability costs.
  double seconds() const { return seconds_; }

 private:
  const SweepSetup& setup_;
  std::unique_ptr<Journal> journal_;
  StoredRows rows_;
  double seconds_ = 0;
};

// What a run would start from, without changing any file: the rows held for this sweep (result
// file, journal, and for a shard its share of a merged file), and what the config adds to the
// sweep they were computed for ("" when nothing: DescribeGrowth). Throws ConfigError saying what
// differs when the file or journal holds another sweep.
struct HeldSweep {
  std::vector<TrialRow> rows;
  std::string growth;
};
HeldSweep ReadHeld(const SweepSetup& setup);
std::vector<TrialRow> HeldRows(const SweepSetup& setup);  // ReadHeld(setup).rows

}  // namespace pmoe
