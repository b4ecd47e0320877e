// Result files as the analysis sees them: cells with their parameters as text, trials with the
// measured fields. Read from the HDF5 columns alone (schema version 1), never from simulator code,
// so analysis works on any file that follows the schema.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "pmoe/analysis/theory_orders.hpp"
#include "pmoe/core/axis_name.hpp"  // AxisName: the short names (n, l, p, ...)

namespace pmoe {

struct CellRecord {
  uint64_t id = 0;
  std::string label;                          // the swept values of its sweep
  std::map<std::string, std::string> params;  // every parameter, from the canonical key
  std::string source;                         // the file it came from (the first, if several)

  double Number(const std::string& name) const;  // NaN when absent or not numeric
  std::string Text(const std::string& name) const;
};

struct TrialRecord {
  size_t cell = 0;  // index into Results::cells
  int trial = 0;
  int status = 0;  // 0 ok, 1 diverged, 2 infeasible, 3 error
  bool success = false;
  bool zero_train_error = false;
  int stop_reason = 0;  // /trials/stop_reason: 1 zero_train_error, 2 epoch_cap, 3 step_cap, ...
  double test_acc = 0, train_acc = 0;
  // The router metrics when the files declare them (NaN otherwise): also in `metrics`.
  double router_hit = NAN, router_hit_pos = NAN, router_hit_neg = NAN;
  int epochs = 0;
  long long steps = 0;
  std::vector<double> metrics;  // (Results::metrics.size()) NaN where the trial has none
};

// A /trials column a family declared (its "metric" attribute), with its meaning.
struct MetricColumnInfo {
  std::string name, description;
  bool rate = false;  // a rate in [0, 1], plotted against N
};

struct Results {
  std::vector<CellRecord> cells;  // in file order, files in the order given
  std::vector<TrialRecord> trials;
  std::vector<std::string> files;
  std::vector<MetricColumnInfo> metrics;  // every declared metric of any file, first seen first
  DeclaredBounds theory;  // the files' /theory by model kind (first seen); none in older files

  // Index into metrics and TrialRecord::metrics; -1 when no file declares `name`.
  int MetricIndex(const std::string& name) const;

  // Parameters that take more than one value across the cells, in table order of first sight.
  std::vector<std::string> SweptParameters() const;
};

// Reads and unites the files: cells with the same id are one cell; a (cell, trial) held by two
// files of one master seed is counted once (throws SchemaError when the copies differ); files
// of other seeds are other draws, pooled with their trials numbered after the earlier seeds'.
// Throws SchemaError naming the file for anything unreadable.
Results LoadResults(const std::vector<std::string>& paths);

// The cells whose numeric `axis` value lies in [lo, hi], and their trials.
// The cells `keep` accepts, with their trials (renumbered to the kept cells).
Results KeepCells(const Results& results, const std::function<bool(const CellRecord&)>& keep);

Results KeepAxisRange(const Results& results, const std::string& axis, double lo, double hi);

}  // namespace pmoe
