// pmoe-analyze: success rates, sample complexity, scaling exponents and pivot tables from result
// files.
// Reads the HDF5 files only. Exit statuses: pmoe/cli/tool.hpp (0 done, 2 bad arguments or files).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyze_commands.hpp"
#include "estimate_tables.hpp"
#include "pmoe/analysis/cell_summary.hpp"
#include "pmoe/analysis/completeness.hpp"
#include "pmoe/analysis/list_endpoints.hpp"
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
#include "statistic_command.hpp"
#include "summary_command.hpp"

namespace pmoe {
namespace {

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

// "0.5,0.1" -> {0.5, 0.1}, each in [lo, hi] (`expected` says so); duplicates dropped (one
// reading each).
std::vector<double> NumberList(const std::string& key, const std::string& text, double lo,
                               double hi, const std::string& expected) {
  std::vector<double> values;
  size_t start = 0;
  while (true) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    char* stop = nullptr;
    const double v = std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0' || !(v >= lo && v <= hi))
      throw ConfigError("command line", key, expected, text);
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    if (end == text.size()) return values;
    start = end + 1;
  }
}

// The command's files and options, each option parsed and checked.
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
    else if (name == "delta")
      a.options.deltas = NumberList(arg, text, 1e-6, 1 - 1e-6,
                                    "a comma-separated list of numbers between 0 and 1 "
                                    "(exclusive), e.g. 0.5,0.1");
    else if (name == "epsilon")
      a.options.epsilons =
          NumberList(arg, text, 0, 1, "a comma-separated list of numbers in [0, 1], e.g. 0.05,0.1");
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

void PrintSection(const char* key, const Table& table, const Arguments& a, bool first) {
  if (a.format == Table::Format::kJson) {
    std::cout << (first ? "{" : ",") << "\"" << key << "\":";
  } else if (!first) {
    std::cout << "\n";
  }
  if (a.format == Table::Format::kAligned) std::cout << "# " << key << "\n";
  table.Print(std::cout, a.format);
}

// What the columns mean, under the aligned tables.
void PrintLegend(const SampleComplexity& sc, const Arguments& a) {
  std::cout << "\nN_star: success probability " << a.options.threshold
            << " (logistic fit in log N); N_acc: mean test accuracy " << a.options.target_accuracy
            << " (monotone fit, interpolated in log N); quantiles: N where the success "
               "probability reaches 1 - delta (success@P: P = 1 - delta; eps=E: test accuracy "
               ">= 1 - E); > and <: outside the N grid, a bound\n";
  bool flagged = false;
  for (const auto& reading : sc.estimates)
    for (const auto& series : reading)
      for (const NStar& n : series) flagged = flagged || n.low_convergence;
  if (flagged)
    std::cout << "low_convergence: fewer than " << a.options.min_converged
              << " of the trials near the estimate reached zero training error; it measures the "
                 "training budget as much as the data (MODEL.md §5)\n";
  if (a.command != "exponent") return;
  std::cout << "exponent: slope of log N* against log " << a.axis
            << " over the axis values whose N* lies inside the N grid; theory: the order of "
            << (a.axis == "data.c" ? "MODEL.md §7's (appendix M) multiclass" : "MODEL.md §9's")
            << " sufficient sample complexity (an upper bound)\n"
            << "shape: constant, power law or one step, the smallest BIC on log N* weighted by "
               "the bootstrap variance; trend_p: the fraction of bootstrap replicates whose "
               "Mann-Kendall statistic is not positive (small: it grows); upper_exponent: the "
               "slope over the upper half of the axis (log scale); controls: at l = n the "
               "baseline/other ratio should include 1\n";
}

// The cells the command reads: the files' trials (a --metric list column's end added), then
// those --where keeps, then those in --from/--to on the axis.
Results SelectedResults(const Arguments& a, const cli::Parsed& args) {
  Results results = LoadResults(a.files);
  RequireSweptAxis(results, a);
  const std::string missing = DescribeMissingTrials(results);  // issue 17: say when incomplete
  if (!missing.empty()) std::cerr << "pmoe-analyze: " << missing << "\n";
  // statistic --metric curve_entropy.last: a list column's end, read in the file's row order
  // before a filter renumbers the rows.
  if (a.command == "statistic")
    if (const std::optional<std::string> metric = args.Get("metric"))
      AddListEndpoint(results, *metric);
  // --where first: a derived axis (n/l) may need one leg of the sweep to have one cell per value.
  if (!a.where.empty()) results = KeepWhere(results, a.where);
  if (std::isfinite(a.from) || std::isfinite(a.to)) {
    if (a.axis.empty()) throw ConfigError("command line: --from/--to need --over AXIS");
    results = KeepAxisRange(results, a.axis, a.from, a.to);
    if (results.cells.empty())
      throw ConfigError("command line: no cell has " + a.axis + " in [--from, --to]");
  }
  return results;
}

// sample-complexity and exponent: the estimates of N, and what each reading of them gives.
struct SampleEstimates {
  SampleComplexity sc;
  std::vector<ReadingExponent> exponents;  // exponent only
  std::vector<ReadingRatio> ratios;
  std::vector<ReadingControl> controls;  // exponent only
};

SampleEstimates EstimateReadings(const Results& results, const Arguments& a) {
  if (a.command == "exponent" && a.axis.empty())
    throw ConfigError("command line: exponent needs --over AXIS (l, k, n, ...)");
  SampleEstimates e;
  try {
    e.sc = EstimateSampleComplexity(results, a.axis, a.options);
  } catch (const std::invalid_argument& error) {
    throw ConfigError(std::string("cannot estimate sample complexity: ") + error.what());
  }
  for (size_t reading = 0; reading < e.sc.readings.size(); ++reading) {
    if (a.command == "exponent") {
      for (const Exponent& x : FitExponents(e.sc, a.options, reading))
        e.exponents.push_back({reading, x});
      for (const Exponent& x : RatioExponents(e.sc, a.options, reading))
        e.exponents.push_back({reading, x});
      for (const ControlCheck& c : EqualPatchControls(e.sc, a.options, reading))
        e.controls.push_back({reading, c});
    }
    for (const Ratio& r : ModelRatios(e.sc, a.options, reading)) e.ratios.push_back({reading, r});
  }
  return e;
}

// The estimates' sections: one table for CSV (the command's own), all of them for JSON and the
// aligned view, which ends with the shapes in words and the legend.
void PrintEstimates(const SampleEstimates& e, const Arguments& a) {
  const bool exponent = a.command == "exponent";
  const bool json = a.format == Table::Format::kJson;
  if (a.format == Table::Format::kCsv) {
    (exponent ? ExponentTable(e.sc, e.exponents) : NStarTable(e.sc)).Print(std::cout, a.format);
    return;
  }
  PrintSection("nstar", NStarTable(e.sc), a, true);
  PrintSection("quantiles", QuantileTable(e.sc), a, false);
  if (exponent) PrintSection("exponents", ExponentTable(e.sc, e.exponents), a, false);
  if (!e.ratios.empty() || json) PrintSection("ratios", RatioTable(e.sc, e.ratios), a, false);
  if (exponent && (!e.controls.empty() || json))
    PrintSection("controls", ControlTable(e.sc, e.controls), a, false);
  if (exponent && json) PrintSection("shapes", ShapeTable(e.sc, e.exponents), a, false);
  if (json) {
    std::cout << "}\n";
    return;
  }
  if (exponent) {
    std::cout << "\n# shapes\n";
    PrintShapeSentences(e.sc, e.exponents);
  }
  PrintLegend(e.sc, a);
}

int Run(const std::string& command, const cli::Parsed& args) {
  const Arguments a = Parse(command, args);
  const Results results = SelectedResults(a, args);
  if (a.command == "summary") {
    PrintSummary(results, a.format, a.wide);
  } else if (a.command == "statistic") {
    PrintStatistic(results, args, a.axis, a.options, a.format);
  } else if (a.command == "table") {
    const Pivot pivot = BuildPivot(results, a.pivot);
    (a.format == Table::Format::kAligned ? PivotAlignedTable(pivot) : PivotTidyTable(pivot))
        .Print(std::cout, a.format);
  } else {
    PrintEstimates(EstimateReadings(results, a), a);
  }
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
