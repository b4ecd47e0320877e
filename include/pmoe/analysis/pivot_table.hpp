// A pivot table of result files: one row per value of the row parameters, one column per value
// of the column parameters, and in each cell "mean ± sd (n)" of each chosen metric over the
// cell's trials. Any family's files work; Chen et al.'s Table 3 is one such table (settings by
// model, test accuracy and dispatch entropy).
#pragma once

#include <string>
#include <vector>

#include "pmoe/analysis/results.hpp"
#include "pmoe/analysis/table.hpp"
#include "pmoe/stats/stats.hpp"

namespace pmoe {

struct PivotSpec {
  // Parameter names as the user wrote them (full "data.sigma_p", a short "sigma_p" when only
  // one parameter ends so, or pmoe-analyze's axis shorthands); empty rows and cols take the
  // swept parameters: "model.*" ones as columns, the rest as rows.
  std::vector<std::string> rows, cols;
  // Metric names: test_acc (or test_accuracy), train_acc, success, epochs, steps, or a metric
  // a family declared; a trailing '%' shows it times 100. Empty: test_acc.
  std::vector<std::string> metrics;
  // Cells kept: parameter = value (numeric values compare as numbers).
  std::vector<std::pair<std::string, std::string>> where;
  int digits = 4;  // significant digits of each metric's largest mean in the aligned view
};

struct PivotMetric {
  std::string name;   // the metric as read ("test_acc")
  std::string label;  // as shown ("test_acc (%)")
  double scale = 1;   // 100 for a '%' metric
  int decimals = 4;   // of mean and sd in the aligned view, from the largest mean
};

struct PivotCell {
  bool present = false;          // some cell of the files has this row and column
  int trials = 0;                // every trial of the cell, whatever its status
  std::vector<Moments> metrics;  // per PivotMetric; over ok trials (success: over all trials)
};

struct Pivot {
  std::vector<std::string> row_params, col_params;  // full parameter names
  std::vector<PivotMetric> metrics;
  std::vector<std::vector<std::string>> row_values, col_values;  // as in the files' keys
  std::vector<std::string> row_labels, col_labels;               // readable, e.g. "gamma 0.5..3"
  std::vector<std::vector<PivotCell>> cells;                     // [row][col]
};

// Throws ConfigError naming the argument that is wrong and what was expected: an unknown or
// ambiguous parameter or metric, a parameter in both rows and cols, a --where that keeps no
// cell, or two cells that fall into one table cell (a varying parameter in neither rows nor
// cols).
Pivot BuildPivot(const Results& results, const PivotSpec& spec);

// The cells whose parameter P equals V for every (P, V) of `where` (numeric values compare as
// numbers; P may be a short name, as in --rows), and their trials. A cell that does not read P is
// kept: it is the same cell at every value of P (a CNN under --where model.l=4). Throws
// ConfigError naming P and its values when no cell has V, or when no cell is left.
Results KeepWhere(const Results& results,
                  const std::vector<std::pair<std::string, std::string>>& where);

// The aligned view: one line per row and metric, one column per column value, cells
// "mean ± sd (n)" ("(n/t)" when only n of the cell's t trials count).
Table PivotAlignedTable(const Pivot& pivot);
// One record per row, column and metric: the parameters, metric, mean, sd, n, trials (CSV/JSON).
Table PivotTidyTable(const Pivot& pivot);

}  // namespace pmoe
