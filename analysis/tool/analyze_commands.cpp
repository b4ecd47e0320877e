// pmoe-analyze's commands and options: one table, read by --help, the reference
// (docs/reference/pmoe-analyze.md) and the parser (pmoe_analyze_main.cpp).
#include "analyze_commands.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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
      {"delta",
       "D1,D2,...",
       "quantile readings: N where the success probability reaches 1 - D, for each D "
       "(default 0.5,0.2,0.1,0.05; the theorems hold with probability 1 - delta)",
       {},
       ""},
      {"epsilon",
       "E1,E2,...",
       "also read success as test accuracy >= 1 - E for each E (default: the trials' "
       "recorded success only)",
       {},
       ""},
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

// table: the pivot's sides, its metrics and their digits.
std::vector<cli::Option> PivotOptions() {
  return {
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
}

// statistic: the claim's kind, the models it compares, its reading and its interval.
std::vector<cli::Option> StatisticOptions() {
  return {{"target",
           "KIND",
           "exponent, ratio_exponent, share, accuracy, accuracy_slope, rate or "
           "accuracy_difference (required)",
           {},
           ""},
          {"model",
           "KIND",
           "the model read (default: the cells' one kind); a kind, or P=V,... naming its "
           "cells (model.kind=switch,model.activation=cubic)",
           {},
           ""},
          {"baseline",
           "KIND",
           "share, accuracy_difference: the model compared against, as --model names it "
           "(default: the kind whose family declares itself the baseline of ratios, the CNN)",
           {},
           ""},
          {"metric",
           "NAME",
           "rate: the per-trial metric averaged (router_hit, ...); NAME.first or NAME.last: "
           "a list column's first or last point (curve_entropy.last)",
           {},
           ""},
          {"reading",
           "success|mean_accuracy",
           "share: N* of the success probability (--threshold) or N_acc of the mean test "
           "accuracy (--target-accuracy); default success",
           {},
           ""},
          {"threshold", "P", "success probability that defines N* (default 0.5)", {}, ""},
          {"target-accuracy",
           "A",
           "mean test accuracy that defines N_acc (default 0.95)",
           {"target_accuracy"},
           ""},
          {"against",
           "V",
           "also decide the claim that the statistic lies on --side of V by the one "
           "decision rule (shown, excluded, open, untestable)",
           {},
           ""},
          {"side", "above|below", "the claimed side of --against (default above)", {}, ""},
          {"bootstrap", "B", "bootstrap replicates (default 1000)", {}, ""},
          {"level", "L", "confidence level of the interval (default 0.95)", {}, ""},
          {"seed", "S", "bootstrap seed (default 1)", {}, ""}};
}

// report: where the page and its figures go.
std::vector<cli::Option> ReportOptions() {
  return {{"out",
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
           ""}};
}

cli::Command SummaryCommand() {
  return AnalyzeCommand(
      "summary",
      "per cell: trials, statuses, success rate with its 95% Wilson interval, "
      "mean ± sd of test accuracy, convergence, every declared metric, epochs",
      "The fraction that reached zero training error and how the others stopped "
      "(stop_epoch_cap, stop_step_cap, stop_other) are columns too. The aligned "
      "view fits 100 columns and names the columns it leaves out.",
      {RangeOptions(),
       FormatOptions(),
       {{"wide", "", "every column in the aligned view (wider than 100)", {}, ""}}});
}

cli::Command SampleComplexityCommand() {
  return AnalyzeCommand(
      "sample-complexity",
      "per series and axis value: N* (logistic fit of success against log N), "
      "N_acc (monotone fit of mean test accuracy reaches the target) and N at "
      "success probability 1 - delta for each --delta, with bootstrap intervals",
      "Outside the N grid an estimate is a bound (> N_max, < N_min), never a "
      "number; beside each, the converged fraction of the trials near it (flagged "
      "when low). Without --over, N alone. Sections: nstar (N* and N_acc), "
      "quantiles (every success reading), ratios.",
      {RangeOptions(), EstimateOptions(), FormatOptions()});
}

cli::Command ExponentCommand() {
  return AnalyzeCommand(
      "exponent",
      "slope of log N* against log AXIS per series and reading (N*, N_acc, "
      "each delta), beside MODEL.md §9's order, with its shape; N*(baseline)/N*(other) "
      "ratios when the files hold both (the baseline: the kind whose family "
      "declares itself one, the CNN)",
      "--over AXIS is required and must be an axis the files swept (exit 2 "
      "otherwise, naming the swept ones). Shape: a one-sided trend test over the "
      "bootstrap replicates, the best of constant, power law and one step (BIC), "
      "and the slope over the upper half of the axis (section shapes). Where the "
      "grid holds l = n, the baseline/other ratio there (section controls) "
      "should include 1.",
      {RangeOptions(), EstimateOptions(), FormatOptions()});
}

cli::Command StatisticCommand() {
  return AnalyzeCommand(
      "statistic",
      "one claim's statistic with its interval, computed by the precision targets' code: "
      "an exponent of N* (or of N*(baseline)/N*(model)) over an axis, an accuracy, a paired "
      "accuracy difference, an accuracy's slope over an axis, a rate, or the sample share "
      "N*(model)/N*(baseline)",
      "The cells --where (and --from/--to) selects are placed as a precision target "
      "places them (--target KIND, the target key's values; --baseline on side 0 of a "
      "paired kind, --model's cells on the other), each trial valued as a target values it, "
      "and the interval is a one-look target's at --level: the paired bootstrap over trial "
      "indices, widened as Student's t with (fewest trials) - 1 degrees of freedom, no alpha "
      "spending. The claim pages read their exponents, accuracies, differences, slopes, "
      "rates and shares here (docs/guide/precision-targets.md). An exponent over a derived "
      "axis (n/l) places a CNN at every n/l of its n, as pmoe-analyze exponent does.",
      {StatisticOptions(), RangeOptions(), FormatOptions()});
}

cli::Command TableCommand() {
  return AnalyzeCommand("table",
                        "a pivot table: one row per value of --rows, one column per value of "
                        "--cols, cells \"mean ± sd (n)\" of each --metrics",
                        "Over ok trials (success over all). Chen et al.'s Table 3: pmoe-analyze "
                        "table results/chen_table.h5 --metrics test_acc%,dispatch_entropy. "
                        "--csv/--json give one record per row, column and metric.",
                        {PivotOptions(), RangeOptions(), FormatOptions()});
}

// Listed here for the help and the reference; run by RunReportCommand (main), which hands
// its arguments to the Python module (its own --help is the module's).
cli::Command ReportCommand() {
  return AnalyzeCommand("report",
                        "a self-contained HTML page of any sweep: what was swept, training budget "
                        "and convergence, phase maps, N* and N_acc, exponents beside the theory's "
                        "order, rates against every axis, 2-D N* map, Methods, config",
                        "Runs /usr/bin/python3 -m pmoe.report.sweep_report (analysis/python; "
                        "PMOE_PYTHON and PMOE_PYTHON_DIR override). The page goes beside the first "
                        "file as NAME-report.html unless --out says otherwise; docs/guide/"
                        "plots-and-reports.md.",
                        {ReportOptions()});
}

}  // namespace

cli::Tool AnalyzeTool() {
  cli::Tool tool;
  tool.name = "pmoe-analyze";
  tool.summary =
      "Success rates, sample complexity, scaling exponents and pivot tables from result files "
      "(reads the HDF5 files only). Incomplete files are analyzed with a note on stderr.";
  tool.commands = {SummaryCommand(),  SampleComplexityCommand(),
                   ExponentCommand(), StatisticCommand(),
                   TableCommand(),    ReportCommand()};
  return tool;
}

}  // namespace pmoe
