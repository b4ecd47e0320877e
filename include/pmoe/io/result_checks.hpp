// The one validating reader of a result file's core (issue 28): every tool that reads result
// files (pmoe-sweep's store, pmoe-analyze) reads the root attributes, /cells and the core
// /trials columns through ReadCheckedResult, so what one refuses the other refuses too. It
// checks shapes (1-D columns of one length per group), types (integers where integers belong),
// references (every trial row names a cell of /cells; every cell id is the hash of its key; no
// cell or (cell, trial) twice) and physically possible values (trial index in 0..trials_per_cell-1,
// known status and stop codes, flags 0 or 1, accuracies in [0, 1] and not NaN for an ok trial,
// epochs and steps not negative, success only for an ok trial), and every column trial_columns
// lists: there, stored in its listed type, one value per row, rates in [0, 1], times and loss not
// negative, integer metrics and class counts -1 or more. Anything else is a SchemaError naming
// the file, the column, the row and what was expected. The Python reader (pmoe.results.read)
// makes the same checks: tests/support/damaged_files.tsv lists the damaged files every reader
// must refuse, and tests/analysis/damaged_files_test.py gives each to all of them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/io/h5_file.hpp"

namespace pmoe {

// The fields of one /trials row that every result file has, as the rules see them.
struct CoreTrialFields {
  int64_t trial = 0, status = 0, stop_reason = 0, success = 0, zero_train_error = 0;
  int64_t epochs = 0, steps = 0;
  double test_acc = 0, train_acc = 0;
};

// "" when the row is possible in a sweep of `trials_per_cell` trials per cell (0: the trial
// index is not checked); else what is wrong ("status 7 (expected 0..3: ...)").
std::string CoreTrialProblem(const CoreTrialFields& row, int64_t trials_per_cell);

// What ReadCheckedResult read and checked.
struct CheckedResult {
  int64_t schema_version = 0, trials_per_cell = 0;
  int64_t shard_count = 0;  // K of the shard attribute "I/K"; 0: not a shard's file
  std::string config;       // the sweep config's text (present: a file without it is refused)
  std::vector<uint64_t> cell_ids;
  std::vector<std::string> keys, labels;
  // /theory, one entry per model kind (none in files written before it): the bound its family
  // declares ("" where none), as text.
  std::vector<std::string> theory_kinds, theory_samples, theory_multiclass;
  // /theory/ratio_baseline ("true"/"false" per kind); empty in files written before it.
  std::vector<std::string> theory_baseline;
  // /trials, one entry per row.
  std::vector<uint64_t> cell;
  std::vector<int32_t> trial, epochs;
  std::vector<uint8_t> status, success, zero_train_error, stop_reason;
  std::vector<double> test_acc, train_acc;
  std::vector<int64_t> steps;
};

// K of a file's `shard` attribute "I/K" (1 <= I <= K), 0 when it is empty. One mapping for
// every tool (issue 44): anything else is a SchemaError naming the file and the attribute, so
// pmoe-sweep and pmoe-analyze refuse a damaged one alike (exit 2), never with a bare "stoll".
int64_t ShardAttributeCount(const std::string& path, const std::string& shard);

// Reads and checks the file's core; throws SchemaError naming the file for anything wrong.
CheckedResult ReadCheckedResult(const H5File& file);

}  // namespace pmoe
