// Merging the shards of one sweep, as a value: `pmoe-sweep merge` writes it, tests read it. The
// merged rows are what a single machine would have written: files of other sweeps, overlapping
// trials with other results and missing trials are refused (ConfigError saying which).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "pmoe/sweep/store/sweep_identity.hpp"

namespace pmoe {

struct MergeResult {
  ResultMeta meta;  // the merged file's: no shard, the work source's record of its rounds
  std::vector<Cell> cells;
  std::optional<RowSchema> schema;
  std::vector<TrialRow> rows;  // each (cell, trial) once
  size_t files = 0;            // shard files merged
  size_t duplicates = 0;       // rows held by two files with one outcome, kept once
  SweepIdentity identity;      // the shards' sweep (the first file's), shard included
};

// Reads and checks `shard_files` (result files; at least one) and merges their rows.
MergeResult MergeShards(const std::vector<std::string>& shard_files);

// Writes `merged` to `out` (`command_line` recorded). Like `run`, does not overwrite a file of
// another sweep (or no result file at all) unless `force`: a mistyped output name must not
// destroy a finished sweep; a file of the sweep the shards grow is replaced.
void WriteMerged(const std::string& out, MergeResult merged, bool force,
                 const std::string& command_line);

}  // namespace pmoe
