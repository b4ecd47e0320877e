// The HDF5 result file, schema version 1 (DESIGN.md): root attributes with provenance, /cells
// (one row per cell, one column per parameter) and /trials (one row per finished trial, one
// column per field of the sweep's RowSchema, listed in order by the root attribute
// trial_columns). Written whole into a temp file and renamed over the old
// one: a published result file is never modified in place (notes/hdf5-crash-safety.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/store/trial_row.hpp"

namespace pmoe {

inline constexpr int64_t kSchemaVersion = 1;

struct ResultMeta {
  int numerics_version = 0;    // kNumericsVersion of the tool that computed the trials
  std::string numerics_build;  // NumericsBuild() of that tool ("" in files older than it)
  std::string name;
  std::string config;  // the sweep config's full text
  std::string config_path;
  uint64_t master_seed = 0;
  int trials_per_cell = 0;
  std::string shard;  // "I/K" for a shard's file, empty otherwise
  std::string command_line;
  std::string created_utc;  // ISO 8601
  std::string tool_version;
  std::string git_describe;
  // Adaptive sweeps: AdaptiveIdentity(), and one line per series of this file's search:
  // "label<TAB>state<TAB>rounds<TAB>trials<TAB>N*<TAB>lo<TAB>hi" (state: running, precise,
  // budget, below_range, above_range). Both "" otherwise.
  std::string adaptive;
  std::string adaptive_series;
  // Precision sweeps: PrecisionIdentity() of the run that last wrote the file (not part of the
  // sweep's identity: rows do not depend on it, so a grown budget resumes), and one line per look
  // of every target: "target<TAB>look<TAB>trials<TAB>alpha<TAB>estimate<TAB>lo<TAB>hi<TAB>verdict"
  // (verdict: running, above, below, undecided; the last look's is the target's). Both ""
  // otherwise.
  std::string precision;
  std::string precision_looks;
};

struct StoredCell {
  uint64_t id = 0;
  std::string key;    // canonical "name=value;..."
  std::string label;  // the swept values
};

struct ResultContents {
  ResultMeta meta;
  std::vector<StoredCell> cells;
  std::optional<RowSchema> schema;  // the file's /trials columns
  std::vector<TrialRow> rows;
};

// Rows are written sorted by (position of their cell in `cells`, trial), so the file's /trials
// does not depend on the order trials finished in. Atomic: temp file, close, fsync, rename,
// fsync of the directory.
void WriteResultFile(const std::string& path, const ResultMeta& meta,
                     const std::vector<Cell>& cells, const RowSchema& schema,
                     std::vector<TrialRow> rows);

// Throws SchemaError naming the file when it is not a result file of a schema we can read.
ResultContents ReadResultFile(const std::string& path);

// "2026-11-22T01:57:03Z"
std::string UtcNow();

}  // namespace pmoe
