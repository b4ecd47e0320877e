// pmoe-analyze: success rates, sample complexity, scaling exponents and pivot tables from result
// files.
// Reads the HDF5 files only. Exit statuses: pmoe/cli/tool.hpp (0 done, 2 bad arguments or files).
#include <algorithm>
#include <cmath>
#include <cstdint>
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
#include "pmoe/cli/file_check.hpp"
#include "pmoe/cli/tool.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/suggest.hpp"
#include "report_command.hpp"
#include "summary_command.hpp"

namespace pmoe {
namespace {

// The options the estimating commands share, and each command's table.
std::vector<cli::Option> RangeOptions() {
  return {
      {"over",
       "AXIS",
       "the swept axis (l, k, n, m, d, p or any parameter name, e.g. "
       "data.delta_r); it must be one the files swept",
       {},
       ""},
      {"from",
       "X",
       "keep only cells with the axis value >= X (e.g. --over l --from 4: l >= l*, "
       "where the theory's scaling applies)",
       {},
       ""},
      {"to", "Y", "keep only cells with the axis value <= Y", {}, ""},
      {"where",
       "P=V,...",
       "keep the cells with these values (repeatable); a cell that does not read P (a CNN "
       "has no model.l) is kept: it is the same cell at every value of P",
       {},
       ""},
  };
}

std::vector<cli::Option> EstimateOptions() {
  return {
      {"threshold", "P", "success probability that defines N* (default 0.5)", {}, ""},
      {"target-accuracy",
       "A",
       "mean test accuracy that defines N_acc (default 0.95: 1 - "
       "epsilon)",
       {"target_accuracy"},
       ""},
      {"min-converged",
       "F",
       "flag estimates whose nearby trials reached zero training error "
       "less often than F (default 0.9)",
       {"min_converged"},
       ""},
      {"bootstrap", "B", "bootstrap replicates (default 1000)", {}, ""},
      {"level", "L", "confidence level of the intervals (default 0.95)", {}, ""},
      {"seed", "S", "bootstrap seed (default 1)", {}, ""},
  };
}

std::vector<cli::Option> FormatOptions() {
  return {
      {"csv", "", "CSV instead of the aligned table", {}, ""},
      {"json", "", "JSON instead of the aligned table", {}, ""},
  };
}

cli::Command AnalyzeCommand(const std::string& name, const std::string& summary,
                            const std::string& description,
                            std::vector<std::vector<cli::Option>> groups) {
  cli::Command c;
  c.tool = "pmoe-analyze";
  c.name = name;
  c.operands = "FILE.h5...";
  c.min_operands = 1;
  c.max_operands = SIZE_MAX;
  c.summary = summary;
  c.description = description;
  for (auto& group : groups)
    for (auto& o : group) c.options.push_back(std::move(o));
  return c;
}

cli::Tool AnalyzeTool() {
  std::vector<cli::Option> pivot = {
      {"rows",
       "P1,P2,...",
       "parameters down the side (full names like data.sigma_p, or a short "
       "name when one parameter ends so: sigma_p); default: the swept ones "
       "that are not model.*",
       {},
       ""},
      {"cols", "P1,P2,...", "parameters across the top; default: the swept model.* ones", {}, ""},
      {"metrics",
       "M1,...",
       "test_acc (test_accuracy), train_acc, success, epochs, steps or any "
       "metric the families declared (see summary); M% shows it times "
       "100; default test_acc",
       {},
       ""},
      {"N", "V", "the same as --where N=V", {}, ""},
      {"digits", "D", "significant digits of each metric's largest mean (default 4)", {}, ""},
  };
  cli::Tool tool;
  tool.name = "pmoe-analyze";
  tool.summary =
      "Success rates, sample complexity, scaling exponents and pivot tables from result files "
      "(reads the HDF5 files only). Incomplete files are analyzed with a note on stderr.";
  tool.commands = {
      AnalyzeCommand("summary",
                     "per cell: trials, statuses, success rate with its 95% Wilson interval, "
                     "mean ± sd of test accuracy, convergence, every declared metric, epochs",
                     "The fraction that reached zero training error and how the others stopped "
                     "(stop_epoch_cap, stop_step_cap, stop_other) are columns too. The aligned "
                     "view fits 100 columns and names the columns it leaves out.",
                     {RangeOptions(),
                      FormatOptions(),
                      {{"wide", "", "every column in the aligned view (wider than 100)", {}, ""}}}),
      AnalyzeCommand("sample-complexity",
                     "per series and axis value: N* (logistic fit of success against log N) and "
                     "N_acc (mean test accuracy reaches the target), with bootstrap intervals",
                     "Outside the N grid an estimate is a bound (> N_max, < N_min), never a "
                     "number; beside each, the converged fraction of the trials near it (flagged "
                     "when low). Without --over, N alone.",
                     {RangeOptions(), EstimateOptions(), FormatOptions()}),
      AnalyzeCommand("exponent",
                     "slope of log N* (and log N_acc) against log AXIS per series, beside "
                     "MODEL.md §9's order; N*(CNN)/N*(pMoE) ratios when the files hold both",
                     "--over AXIS is required and must be an axis the files swept (exit 2 "
                     "otherwise, naming the swept ones).",
                     {RangeOptions(), EstimateOptions(), FormatOptions()}),
      AnalyzeCommand("table",
                     "a pivot table: one row per value of --rows, one column per value of "
                     "--cols, cells \"mean ± sd (n)\" of each --metrics",
                     "Over ok trials (success over all). Chen et al.'s Table 3: pmoe-analyze "
                     "table results/chen_table.h5 --metrics test_acc%,dispatch_entropy. "
                     "--csv/--json give one record per row, column and metric.",
                     {pivot, RangeOptions(), FormatOptions()}),
      // Listed here for the help and the reference; run by RunReportCommand (main), which hands
      // its arguments to the Python module (its own --help is the module's).
      AnalyzeCommand(
          "report",
          "a self-contained HTML page of any sweep: what was swept, training budget "
          "and convergence, phase maps, N* and N_acc, exponents beside the theory's "
          "order, rates against every axis, 2-D N* map, Methods, config",
          "Runs /usr/bin/python3 -m pmoe.report.sweep_report (analysis/python; "
          "PMOE_PYTHON and PMOE_PYTHON_DIR override). The page goes beside the first "
          "file as NAME-report.html unless --out says otherwise; docs/guide/"
          "plots-and-reports.md.",
          {{{"out",
             "PAGE.html",
             "where the page goes (default: beside the first file, "
             "NAME-report.html)",
             {},
             ""},
            {"figures", "DIR", "also keep every figure there as PNG, PDF and SVG", {}, ""},
            {"size",
             "single|double",
             "figures one journal column wide (3.5 in) or two (7.2 in, the default)",
             {},
             ""},
            {"bootstrap",
             "B",
             "bootstrap replicates of every interval (default "
             "1000)",
             {},
             ""}}}),
  };
  return tool;
}

struct Arguments {
  std::string command;
  std::vector<std::string> files;
  std::string axis;
  double from = -INFINITY, to = INFINITY;                  // axis range kept
  std::vector<std::pair<std::string, std::string>> where;  // cells kept by parameter value
  SampleComplexityOptions options;
  Table::Format format = Table::Format::kAligned;
  bool wide = false;  // summary: every column in the aligned view
  PivotSpec pivot;
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
Arguments Parse(const std::string& command, const cli::Parsed& args) {
  Arguments a;
  a.command = command;
  a.files = args.operands;
  for (const auto& [name, text] : args.options) {
    const std::string arg = "--" + name;
    if (name == "over")
      a.axis = AxisName(text);
    else if (name == "from")
      a.from = NumberOption(arg, text, -1e300, 1e300);
    else if (name == "to")
      a.to = NumberOption(arg, text, -1e300, 1e300);
    else if (name == "threshold")
      a.options.threshold = NumberOption(arg, text, 1e-6, 1 - 1e-6);
    else if (name == "target-accuracy")
      a.options.target_accuracy = NumberOption(arg, text, 0, 1);
    else if (name == "min-converged")
      a.options.min_converged = NumberOption(arg, text, 0, 1);
    else if (name == "bootstrap")
      a.options.bootstrap =
          static_cast<int>(ParseIntegerInRange("command line", arg, text, 0, 1000000));
    else if (name == "level")
      a.options.level = NumberOption(arg, text, 0.5, 0.999);
    else if (name == "seed")
      a.options.seed =
          static_cast<uint64_t>(ParseIntegerInRange("command line", arg, text, 0, INT64_MAX));
    else if (name == "rows")
      a.pivot.rows = CommaList(arg, text);
    else if (name == "cols")
      a.pivot.cols = CommaList(arg, text);
    else if (name == "metrics")
      a.pivot.metrics = CommaList(arg, text);
    else if (name == "where")
      for (const std::string& item : CommaList(arg, text)) a.where.push_back(WherePair(item));
    else if (name == "N")
      a.where.push_back({"N", text});
    else if (name == "digits")
      a.pivot.digits = static_cast<int>(ParseIntegerInRange("command line", arg, text, 1, 12));
    else if (name == "csv")
      a.format = Table::Format::kCsv;
    else if (name == "json")
      a.format = Table::Format::kJson;
    else if (name == "wide")
      a.wide = true;
  }
  for (const std::string& file : a.files) cli::RequireResultFile(file);
  return a;
}

// An axis given to --over that no file swept would give an empty table: refused, naming the
// swept ones. Derived expressions (n/l) are the library's to check.
void RequireSweptAxis(const Results& results, const Arguments& a) {
  if (a.axis.empty() || a.axis.find_first_of("/*^()") != std::string::npos) return;
  const std::vector<std::string> swept = results.SweptParameters();
  for (const std::string& s : swept)
    if (s == a.axis) return;
  std::string files, list;
  for (const std::string& f : a.files) files += (files.empty() ? "" : ", ") + f;
  for (const std::string& s : swept) list += (list.empty() ? "" : ", ") + s;
  const std::string near = NearestName(a.axis, swept);
  throw ConfigError("command line: --over " + a.axis + ": not an axis swept in " + files +
                    " (swept: " + (list.empty() ? "none, one cell" : list) + ")" +
                    (near.empty() ? "" : "; did you mean --over " + near + "?"));
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

int Run(const std::string& command, const cli::Parsed& args) {
  const Arguments a = Parse(command, args);
  Results results = LoadResults(a.files);
  RequireSweptAxis(results, a);
  const std::string missing = DescribeMissingTrials(results);  // issue 17: say when incomplete
  if (!missing.empty()) std::cerr << "pmoe-analyze: " << missing << "\n";
  // --where first: a derived axis (n/l) may need one leg of the sweep to have one cell per value.
  if (!a.where.empty()) results = KeepWhere(results, a.where);
  if (std::isfinite(a.from) || std::isfinite(a.to)) {
    if (a.axis.empty()) throw ConfigError("command line: --from/--to need --over AXIS");
    results = KeepAxisRange(results, a.axis, a.from, a.to);
    if (results.cells.empty())
      throw ConfigError("command line: no cell has " + a.axis + " in [--from, --to]");
  }
  if (a.command == "summary") {
    PrintSummary(results, a.format, a.wide);
    return 0;
  }
  if (a.command == "table") {
    const Pivot pivot = BuildPivot(results, a.pivot);
    (a.format == Table::Format::kAligned ? PivotAlignedTable(pivot) : PivotTidyTable(pivot))
        .Print(std::cout, a.format);
    return 0;
  }
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
  if (argc > 1 && std::string(argv[1]) == "report")  // the page is drawn in Python
    return pmoe::RunReportCommand(std::vector<std::string>(argv + 2, argv + argc));
  return pmoe::cli::Dispatch(
      pmoe::AnalyzeTool(), std::vector<std::string>(argv + 1, argv + argc),
      [](const pmoe::cli::Command& command, const pmoe::cli::Parsed& parsed) {
        return pmoe::Run(command.name, parsed);
      });
}
