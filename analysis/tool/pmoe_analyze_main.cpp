// pmoe-analyze: success rates, sample complexity, scaling exponents and pivot tables from result
// files.
// Reads the HDF5 files only. Exit status: 0 done, 2 bad arguments or unreadable files.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pmoe/analysis/cell_summary.hpp"
#include "pmoe/analysis/completeness.hpp"
#include "pmoe/analysis/pivot_table.hpp"
#include "pmoe/analysis/results.hpp"
#include "pmoe/analysis/sample_complexity.hpp"
#include "pmoe/analysis/table.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "report_command.hpp"

namespace pmoe {
namespace {

constexpr const char* kUsage =
    "usage: pmoe-analyze COMMAND FILE.h5... [options]\n"
    "  summary            per cell: trials, statuses, success rate with its 95% Wilson interval,\n"
    "                     mean ± sd of test accuracy, the fraction that reached zero training\n"
    "                     error and how the others stopped, every declared metric, epochs\n"
    "  sample-complexity  per series and axis value, both readings with paired bootstrap\n"
    "                     intervals: N* where the logistic fit of success against log N reaches\n"
    "                     the threshold, and N_acc where mean test accuracy reaches the target;\n"
    "                     outside the N grid a bound (> N_max, < N_min), never a number; beside\n"
    "                     each, the converged fraction of the trials near it (flagged when low)\n"
    "  exponent           slope of log N* (and log N_acc) against log axis per series, beside\n"
    "                     MODEL.md §9's order, and N*(CNN)/N*(pMoE) ratios when the files hold\n"
    "                     both (a bound, or n/a, where a side lies outside its grid)\n"
    "  report             a self-contained HTML page of any sweep: what was swept, training\n"
    "                     budget and convergence, phase maps, N* and N_acc, exponents beside\n"
    "                     the theory's order, rates against every axis, 2-D N* map, config\n"
    "                     (pmoe-analyze report FILE.h5... [--out PAGE.html]; --help for more)\n"
    "  table              a pivot table: one row per value of --rows, one column per value\n"
    "                     of --cols, cells \"mean ± sd (n)\" of each --metrics over the cell's\n"
    "                     trials (ok trials; success over all); Chen et al.'s Table 3:\n"
    "                       pmoe-analyze table results/chen_table.h5 \\\n"
    "                           --metrics test_acc%,dispatch_entropy\n"
    "options:\n"
    "  --over AXIS        the axis (l, k, n, m, d, p or any parameter name, e.g. data.delta_r);\n"
    "                     required by exponent; without it sample-complexity uses N alone\n"
    "  --from X, --to Y   keep only axis values in [X, Y] (e.g. --over l --from 4: l >= l*,\n"
    "                     where the theory's scaling applies)\n"
    "  --threshold P      success probability that defines N* (default 0.5)\n"
    "  --target-accuracy A  mean test accuracy that defines N_acc (default 0.95: 1 - epsilon)\n"
    "  --min-converged F  flag estimates whose nearby trials reached zero training error less\n"
    "                     often than F (default 0.9)\n"
    "  --bootstrap B      bootstrap replicates (default 1000)\n"
    "  --level L          confidence level of the intervals (default 0.95)\n"
    "  --seed S           bootstrap seed (default 1)\n"
    "  --csv | --json     machine-readable output (default: aligned table; for table one record\n"
    "                     per row, column and metric: parameters, metric, mean, sd, n, trials)\n"
    "table options:\n"
    "  --rows P1,P2,...   parameters down the side (full names like data.sigma_p, or a short\n"
    "                     name when one parameter ends so: sigma_p); default: the swept ones\n"
    "                     that are not model.*\n"
    "  --cols P1,P2,...   parameters across the top; default: the swept model.* ones\n"
    "  --metrics M1,...   test_acc (test_accuracy), train_acc, success, epochs, steps or any\n"
    "                     metric the families declared (see summary); M% shows it times 100;\n"
    "                     default test_acc\n"
    "  --where P=V,...    keep the cells with these values (repeatable); --N V is --where N=V\n"
    "  --digits D         significant digits of each metric's largest mean (default 4)\n";

struct Arguments {
  std::string command;
  std::vector<std::string> files;
  std::string axis;
  double from = -INFINITY, to = INFINITY;  // axis range kept
  SampleComplexityOptions options;
  Table::Format format = Table::Format::kAligned;
  PivotSpec pivot;
  bool pivot_options = false;  // any table option given (refused by the other commands)
};

// "a,b,c" -> {"a", "b", "c"}; refuses empty items ("a,,b", a trailing comma).
std::vector<std::string> CommaList(const std::string& option, const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    if (item.empty())
      throw ConfigError("command line", option, "a comma-separated list of names", text);
    items.push_back(item);
    if (end == text.size()) return items;
    start = end + 1;
  }
}

std::pair<std::string, std::string> WherePair(const std::string& item) {
  const size_t eq = item.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
    throw ConfigError("command line", "--where", "NAME=VALUE, e.g. data.sigma_p=1", item);
  return {item.substr(0, eq), item.substr(eq + 1)};
}

double NumberOption(const std::string& key, const std::string& text, double lo, double hi) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= lo && v <= hi))
    throw ConfigError("command line", key,
                      "a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", text);
  return v;
}

// The table command's options; false when `arg` is none of them.
template <typename Value>
bool ParsePivotOption(const std::string& arg, Value&& value, PivotSpec& pivot) {
  if (arg == "--rows") {
    pivot.rows = CommaList(arg, value());
  } else if (arg == "--cols") {
    pivot.cols = CommaList(arg, value());
  } else if (arg == "--metrics") {
    pivot.metrics = CommaList(arg, value());
  } else if (arg == "--where") {
    for (const std::string& item : CommaList(arg, value())) pivot.where.push_back(WherePair(item));
  } else if (arg == "--N") {
    pivot.where.push_back({"N", value()});
  } else if (arg == "--digits") {
    pivot.digits = static_cast<int>(ParseIntegerInRange("command line", arg, value(), 1, 12));
  } else {
    return false;
  }
  return true;
}

Arguments Parse(const std::vector<std::string>& args) {
  Arguments a;
  a.command = args.at(0);
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw ConfigError("command line: " + arg + " needs a value");
      return args[++i];
    };
    if (arg == "--over")
      a.axis = AxisName(value());
    else if (arg == "--from")
      a.from = NumberOption(arg, value(), -1e300, 1e300);
    else if (arg == "--to")
      a.to = NumberOption(arg, value(), -1e300, 1e300);
    else if (arg == "--threshold")
      a.options.threshold = NumberOption(arg, value(), 1e-6, 1 - 1e-6);
    else if (arg == "--target-accuracy")
      a.options.target_accuracy = NumberOption(arg, value(), 0, 1);
    else if (arg == "--min-converged")
      a.options.min_converged = NumberOption(arg, value(), 0, 1);
    else if (arg == "--bootstrap")
      a.options.bootstrap =
          static_cast<int>(ParseIntegerInRange("command line", arg, value(), 0, 1000000));
    else if (arg == "--level")
      a.options.level = NumberOption(arg, value(), 0.5, 0.999);
    else if (arg == "--seed")
      a.options.seed =
          static_cast<uint64_t>(ParseIntegerInRange("command line", arg, value(), 0, INT64_MAX));
    else if (ParsePivotOption(arg, value, a.pivot))
      a.pivot_options = true;
    else if (arg == "--csv")
      a.format = Table::Format::kCsv;
    else if (arg == "--json")
      a.format = Table::Format::kJson;
    else if (arg.rfind("--", 0) == 0)
      throw ConfigError("command line: unknown option " + arg + "\n" + kUsage);
    else
      a.files.push_back(arg);
  }
  if (a.files.empty())
    throw ConfigError("command line: no result files given\n" + std::string(kUsage));
  return a;
}

void Summary(const Results& results, const Arguments& a) {
  std::vector<std::string> swept = results.SweptParameters();
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
  table.Print(std::cout, a.format);
}

// An estimate or interval end that may be a bound: +inf "> N_max", -inf "< N_min" in the aligned
// view, empty in CSV and null in JSON (the grid column and N_min, N_max say which bound).
TableValue Bounded(double v, double N_min, double N_max) {
  if (std::isfinite(v) || std::isnan(v)) return TableValue::Number(v, 4);
  TableValue t = TableValue::Number(NAN);
  t.text =
      v > 0 ? "> " + TableValue::Number(N_max, 6).text : "< " + TableValue::Number(N_min, 6).text;
  return t;
}

const char* GridWord(const NStar& n) {
  return std::isnan(n.estimate) ? "-" : n.below_grid ? "below" : n.above_grid ? "above" : "inside";
}

Table NStarTable(const SampleComplexity& sc) {
  Table table({"series", sc.axis.empty() ? "axis" : sc.axis, "N_star", "lo", "hi", "grid",
               "converged", "flag", "N_acc", "acc_lo", "acc_hi", "acc_grid", "acc_converged",
               "acc_flag", "N_min", "N_max", "trials"});
  const auto& success = sc.Of(Reading::kSuccess);
  const auto& accuracy = sc.Of(Reading::kMeanAccuracy);
  for (size_t s = 0; s < sc.series.size(); ++s)
    for (size_t i = 0; i < sc.series[s].points.size(); ++i) {
      const NStar& n = success[s][i];
      const NStar& a = accuracy[s][i];
      const AxisPoint& p = sc.series[s].points[i];
      auto flag = [](const NStar& e) {
        return TableValue::Text(e.low_convergence ? "low_convergence" : "");
      };
      table.Add({TableValue::Text(sc.series[s].label),
                 std::isnan(p.value) ? TableValue::Text(p.text.empty() ? "-" : p.text)
                                     : TableValue::Number(p.value, 6),
                 Bounded(n.estimate, n.N_min, n.N_max), Bounded(n.lo, n.N_min, n.N_max),
                 Bounded(n.hi, n.N_min, n.N_max), TableValue::Text(GridWord(n)),
                 TableValue::Number(n.converged_near, 3), flag(n),
                 Bounded(a.estimate, a.N_min, a.N_max), Bounded(a.lo, a.N_min, a.N_max),
                 Bounded(a.hi, a.N_min, a.N_max), TableValue::Text(GridWord(a)),
                 TableValue::Number(a.converged_near, 3), flag(a), TableValue::Number(n.N_min, 6),
                 TableValue::Number(n.N_max, 6), TableValue::Number(n.trials)});
    }
  return table;
}

Table ExponentTable(const std::vector<std::pair<Reading, Exponent>>& exponents) {
  Table table({"series", "reading", "exponent", "lo", "hi", "intercept", "points", "theory",
               "theory_formula"});
  for (const auto& [reading, e] : exponents)
    table.Add({TableValue::Text(e.label), TableValue::Text(ReadingName(reading)),
               TableValue::Number(e.slope, 3), TableValue::Number(e.lo, 3),
               TableValue::Number(e.hi, 3), TableValue::Number(e.intercept, 4),
               TableValue::Number(e.points), TableValue::Number(e.theory, 3),
               TableValue::Text(e.theory_formula)});
  return table;
}

Table RatioTable(const std::vector<std::pair<Reading, Ratio>>& ratios, const std::string& axis) {
  Table table({"ratio", "reading", axis, "N_star_ratio", "lo", "hi", "bound", "censored", "flag"});
  for (const auto& [reading, r] : ratios)
    for (size_t i = 0; i < r.axis_values.size(); ++i) {
      TableValue estimate = TableValue::Number(r.estimate[i], 4);
      if (r.censored[i]) estimate.text = r.bound[i];  // the aligned view shows the bound
      table.Add({TableValue::Text(r.label), TableValue::Text(ReadingName(reading)),
                 TableValue::Number(r.axis_values[i], 6), estimate, TableValue::Number(r.lo[i], 4),
                 TableValue::Number(r.hi[i], 4), TableValue::Text(r.bound[i]),
                 TableValue::Text(r.censored[i] ? "yes" : "no"),
                 TableValue::Text(r.low_convergence[i] ? "low_convergence" : "")});
    }
  return table;
}

void PrintSection(const char* key, const Table& table, const Arguments& a, bool first) {
  if (a.format == Table::Format::kJson) {
    std::cout << (first ? "{" : ",") << "\"" << key << "\":";
  } else if (!first) {
    std::cout << "\n";
  }
  if (a.format == Table::Format::kAligned) std::cout << "# " << key << "\n";
  table.Print(std::cout, a.format);
}

int Run(const std::vector<std::string>& args) {
  const Arguments a = Parse(args);
  Results results = LoadResults(a.files);
  const std::string missing = DescribeMissingTrials(results);  // issue 17: say when incomplete
  if (!missing.empty()) std::cerr << "pmoe-analyze: " << missing << "\n";
  if (std::isfinite(a.from) || std::isfinite(a.to)) {
    if (a.axis.empty()) throw ConfigError("command line: --from/--to need --over AXIS");
    results = KeepAxisRange(results, a.axis, a.from, a.to);
    if (results.cells.empty())
      throw ConfigError("command line: no cell has " + a.axis + " in [--from, --to]");
  }
  if (a.pivot_options && a.command != "table")
    throw ConfigError(
        "command line: --rows, --cols, --metrics, --where, --N and --digits are "
        "options of the table command, not of " +
        a.command);
  if (a.command == "summary") {
    Summary(results, a);
    return 0;
  }
  if (a.command == "table") {
    const Pivot pivot = BuildPivot(results, a.pivot);
    (a.format == Table::Format::kAligned ? PivotAlignedTable(pivot) : PivotTidyTable(pivot))
        .Print(std::cout, a.format);
    return 0;
  }
  if (a.command != "sample-complexity" && a.command != "exponent")
    throw ConfigError("command line: unknown command \"" + a.command + "\"\n" + kUsage);
  if (a.command == "exponent" && a.axis.empty())
    throw ConfigError("command line: exponent needs --over AXIS (l, k, n, ...)");
  SampleComplexity sc;
  try {
    sc = EstimateSampleComplexity(results, a.axis, a.options);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("cannot estimate sample complexity: ") + e.what());
  }
  std::vector<std::pair<Reading, Exponent>> exponents;
  std::vector<std::pair<Reading, Ratio>> ratios;
  for (Reading reading : {Reading::kSuccess, Reading::kMeanAccuracy}) {
    if (a.command == "exponent") {
      for (const Exponent& e : FitExponents(sc, a.options, reading))
        exponents.push_back({reading, e});
      for (const Exponent& e : RatioExponents(sc, a.options, reading))
        exponents.push_back({reading, e});
    }
    for (const Ratio& r : ModelRatios(sc, a.options, reading)) ratios.push_back({reading, r});
  }
  if (a.format == Table::Format::kCsv) {  // one table per CSV: the command's own
    (a.command == "exponent" ? ExponentTable(exponents) : NStarTable(sc))
        .Print(std::cout, a.format);
    return 0;
  }
  PrintSection("nstar", NStarTable(sc), a, true);
  if (a.command == "exponent") PrintSection("exponents", ExponentTable(exponents), a, false);
  if (!ratios.empty() || a.format == Table::Format::kJson)
    PrintSection("ratios", RatioTable(ratios, a.axis.empty() ? "axis" : a.axis), a, false);
  if (a.format == Table::Format::kJson) {
    std::cout << "}\n";
    return 0;
  }
  std::cout << "\nN_star: success probability " << a.options.threshold
            << " (logistic fit in log N); N_acc: mean test accuracy " << a.options.target_accuracy
            << " (interpolated in log N); > and <: outside the N grid, a bound\n";
  bool flagged = false;
  for (int r = 0; r < 2; ++r)
    for (const auto& series : sc.estimates[r])
      for (const NStar& n : series) flagged = flagged || n.low_convergence;
  if (flagged)
    std::cout << "low_convergence: fewer than " << a.options.min_converged
              << " of the trials near the estimate reached zero training error; it measures the "
                 "training budget as much as the data (MODEL.md §5)\n";
  if (a.command == "exponent")
    std::cout << "exponent: slope of log N* against log " << a.axis
              << " over the axis values whose N* lies inside the N grid; theory: the order of "
              << (a.axis == "data.c" ? "MODEL.md §7's (appendix M) multiclass" : "MODEL.md §9's")
              << " sufficient sample complexity (an upper bound)\n";
  return 0;
}

}  // namespace
}  // namespace pmoe

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout) << pmoe::kUsage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "report")  // the page is drawn in Python: hand the arguments over
    return pmoe::RunReportCommand(std::vector<std::string>(args.begin() + 1, args.end()));
  try {
    return pmoe::Run(args);
  } catch (const pmoe::ConfigError& e) {
    std::cerr << "pmoe-analyze: error: " << e.what() << "\n";
  } catch (const pmoe::SchemaError& e) {
    std::cerr << "pmoe-analyze: error: " << e.what() << "\n";
  }
  return 2;
}
