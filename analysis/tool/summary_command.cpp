// pmoe-analyze summary (summary_command.hpp).
#include "summary_command.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "pmoe/analysis/cell_summary.hpp"

namespace pmoe {
namespace {

Table FullTable(const Results& results) {
  const std::vector<std::string> swept = results.SweptParameters();
  std::vector<std::string> columns = swept;
  if (swept.empty()) columns.push_back("cell");
  for (const char* c : {"trials", "ok", "diverged", "infeasible", "error", "successes",
                        "success_rate", "success_lo", "success_hi", "test_acc", "test_acc_sd",
                        "converged", "stop_epoch_cap", "stop_step_cap", "stop_other"})
    columns.push_back(c);
  // Every metric the files' families declared (a rate with its sd), then epochs.
  for (const MetricColumnInfo& m : results.metrics) {
    columns.push_back(m.name);
    if (m.rate) columns.push_back(m.name + "_sd");
  }
  columns.push_back("epochs");
  Table table(columns);
  const auto summaries = SummarizeCells(results);
  for (size_t c = 0; c < results.cells.size(); ++c) {
    const CellSummary& s = summaries[c];
    std::vector<TableValue> row;
    for (const auto& p : swept) {
      const double v = results.cells[c].Number(p);
      row.push_back(std::isnan(v) ? TableValue::Text(results.cells[c].Text(p))
                                  : TableValue::Number(v, 6));
    }
    if (swept.empty()) row.push_back(TableValue::Text(results.cells[c].label));
    for (int v : {s.trials, s.ok, s.diverged, s.infeasible, s.error, s.successes})
      row.push_back(TableValue::Number(v));
    row.push_back(TableValue::Number(s.trials ? double(s.successes) / s.trials : NAN, 3));
    row.push_back(TableValue::Number(s.success_interval.lo, 3));
    row.push_back(TableValue::Number(s.success_interval.hi, 3));
    row.push_back(TableValue::Number(s.test_acc.mean, 4));
    row.push_back(TableValue::Number(s.test_acc.sd, 2));
    row.push_back(TableValue::Number(s.ok ? double(s.converged) / s.ok : NAN, 3));
    for (int v : {s.stopped_epoch_cap, s.stopped_step_cap, s.stopped_other})
      row.push_back(TableValue::Number(v));
    for (size_t m = 0; m < results.metrics.size(); ++m) {
      row.push_back(TableValue::Number(s.metrics[m].mean, 4));
      if (results.metrics[m].rate) row.push_back(TableValue::Number(s.metrics[m].sd, 2));
    }
    row.push_back(TableValue::Number(s.epochs.mean, 4));
    table.Add(row);
  }
  return table;
}

size_t PrintedWidth(const Table& table) {
  std::ostringstream out;
  table.Print(out, Table::Format::kAligned);
  size_t width = 0;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) width = std::max(width, line.size());
  return width;
}

// The columns a reader needs first: what the cell is, how many trials, how often they succeeded
// (with the interval) and the accuracy; the rest (convergence and caps first) as they fit.
bool IsCore(const std::string& column, size_t index, size_t swept) {
  static const std::vector<std::string> core = {
      "cell", "trials", "ok", "success_rate", "success_lo", "success_hi", "test_acc"};
  return index < swept || std::find(core.begin(), core.end(), column) != core.end();
}

// Which of the other columns come first when they fit: how training ended, then the metrics
// (rank 2, in their order), then counts the core's already imply.
int Rank(const std::string& column) {
  static const std::vector<std::string> first = {"converged", "stop_step_cap", "stop_epoch_cap",
                                                 "test_acc_sd"};
  static const std::vector<std::string> last = {"successes", "diverged",   "infeasible",
                                                "error",     "stop_other", "epochs"};
  if (std::find(first.begin(), first.end(), column) != first.end()) return 1;
  if (std::find(last.begin(), last.end(), column) != last.end()) return 3;
  return 2;
}

}  // namespace

void PrintSummary(const Results& results, Table::Format format, bool wide) {
  const Table full = FullTable(results);
  if (wide || format != Table::Format::kAligned) {
    full.Print(std::cout, format);
    return;
  }
  const size_t swept = results.SweptParameters().size();
  std::vector<size_t> keep;
  for (size_t i = 0; i < full.columns().size(); ++i)
    if (IsCore(full.columns()[i], i, swept)) keep.push_back(i);
  std::vector<size_t> rest;
  for (size_t i = 0; i < full.columns().size(); ++i)
    if (!IsCore(full.columns()[i], i, swept)) rest.push_back(i);
  std::stable_sort(rest.begin(), rest.end(), [&](size_t a, size_t b) {
    return Rank(full.columns()[a]) < Rank(full.columns()[b]);
  });
  std::vector<std::string> left;  // the columns left out
  for (size_t i : rest) {
    std::vector<size_t> trial = keep;
    trial.insert(std::upper_bound(trial.begin(), trial.end(), i), i);
    // By rank until the first that does not fit: a narrow column of low rank never takes the
    // place of a wide one before it.
    if (left.empty() && PrintedWidth(full.Select(trial)) <= kSummaryWidth)
      keep = trial;
    else
      left.push_back(full.columns()[i]);
  }
  full.Select(keep).Print(std::cout, format);
  if (left.empty()) return;
  // The columns left out, named on lines that fit too.
  std::string line =
      "(" + std::to_string(left.size()) + " more columns, shown by --wide, --csv and --json:";
  for (size_t i = 0; i < left.size(); ++i) {
    const std::string word = " " + left[i] + (i + 1 < left.size() ? "," : ")");
    if (line.size() + word.size() > kSummaryWidth) {
      std::cout << line << "\n";
      line.clear();
    }
    line += word;
  }
  std::cout << line << "\n";
}

}  // namespace pmoe
