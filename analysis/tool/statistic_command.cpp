// pmoe-analyze statistic: its options, and the statistic as JSON, CSV or an aligned table.
#include "statistic_command.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "pmoe/analysis/row_statistic.hpp"
#include "pmoe/analysis/theory_orders.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/stats/decision_rule.hpp"

namespace pmoe {
namespace {

// --baseline's default: the model kind of the cells whose family declares itself the baseline of
// ratios (/theory/ratio_baseline, IsRatioBaseline: the CNN); "" when none does.
std::string DeclaredBaseline(const Results& results) {
  for (const CellRecord& cell : results.cells)
    if (IsRatioBaseline(results.theory, cell.Text("model.kind"))) return cell.Text("model.kind");
  return "";
}

RowStatisticSpec SpecOf(const Results& results, const cli::Parsed& args, const std::string& axis,
                        const SampleComplexityOptions& options) {
  RowStatisticSpec spec;
  spec.target = args.Get("target").value_or("");
  if (spec.target.empty())
    throw ConfigError(
        "command line: statistic needs --target KIND (exponent, ratio_exponent, share, "
        "accuracy, accuracy_slope, rate or accuracy_difference)");
  spec.axis = axis;
  spec.model = args.Get("model").value_or("");
  spec.baseline = args.Get("baseline").value_or(DeclaredBaseline(results));
  spec.metric = args.Get("metric").value_or("");
  const std::string reading = args.Get("reading").value_or("success");
  if (reading != "success" && reading != "mean_accuracy")
    throw ConfigError("command line", "--reading", "success or mean_accuracy", reading);
  spec.curve.reading = reading == "success" ? CurveReading::kSuccess : CurveReading::kMeanAccuracy;
  spec.curve.threshold = options.threshold;
  spec.curve.target_accuracy = options.target_accuracy;
  spec.level = options.level;
  spec.bootstrap = options.bootstrap;
  spec.seed = options.seed;
  return spec;
}

// --against V [--side above|below]: the claim that the statistic lies on that side of V,
// decided by the one rule (stats/decision_rule.hpp) as a target and a claim page decide it.
std::optional<Decision> Decided(const cli::Parsed& args, const RowStatistic& s) {
  const std::optional<std::string> against = args.Get("against");
  const std::string side = args.Get("side").value_or("above");
  if (side != "above" && side != "below")
    throw ConfigError("command line", "--side", "above or below", side);
  if (!against) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(against->c_str(), &end);
  if (against->empty() || *end != '\0' || !std::isfinite(v))
    throw ConfigError("command line", "--against", "a finite number", *against);
  return Decide(s.estimate, s.lo, s.hi, v, side == "above" ? Side::kAbove : Side::kBelow, 0);
}

void PrintJson(const RowStatisticSpec& spec, const RowStatistic& s,
               const std::optional<Decision>& decision) {
  JsonWriter json(std::cout);
  json.BeginObject()
      .Field("target", spec.target)
      .Field("estimate", s.estimate)
      .Field("lo", s.lo)
      .Field("hi", s.hi)
      .Field("level", spec.level)
      .Field("bootstrap", spec.bootstrap)
      .Field("paired_trials", s.paired_trials)
      .Field("fewest_trials", s.fewest_trials);
  if (decision) json.Field("decision", DecisionName(*decision));
  json.Key("places").BeginArray();
  for (const RowStatisticPlace& p : s.places)
    json.BeginObject()
        .Field("cell", p.label)
        .Field("model.kind", p.kind)
        .Field("side", p.side)
        .Field("axis", p.axis)
        .Field("N", p.N)
        .Field("trials", p.trials)
        .Field("values", p.values)
        .EndObject();
  json.EndArray().EndObject();
  std::cout << "\n";
}

}  // namespace

void PrintStatistic(const Results& results, const cli::Parsed& args, const std::string& axis,
                    const SampleComplexityOptions& options, Table::Format format) {
  const RowStatisticSpec spec = SpecOf(results, args, axis, options);
  const RowStatistic s = EvaluateRowStatistic(results, spec);
  const std::optional<Decision> decision = Decided(args, s);
  if (format == Table::Format::kJson) return PrintJson(spec, s, decision);
  Table places({"cell", "model.kind", "side", "axis", "N", "trials", "values"});
  for (const RowStatisticPlace& p : s.places)
    places.Add({TableValue::Text(p.label), TableValue::Text(p.kind), TableValue::Number(p.side),
                TableValue::Number(p.axis), TableValue::Number(p.N), TableValue::Number(p.trials),
                TableValue::Number(p.values)});
  Table value({"target", "estimate", "lo", "hi", "level", "paired_trials"});
  value.Add({TableValue::Text(spec.target), TableValue::Number(s.estimate, 6),
             TableValue::Number(s.lo, 6), TableValue::Number(s.hi, 6),
             TableValue::Number(spec.level), TableValue::Number(s.paired_trials)});
  if (format == Table::Format::kCsv) return value.Print(std::cout, format);
  value.Print(std::cout, format);
  std::cout << "\n";
  places.Print(std::cout, format);
  if (decision)
    std::cout << "\nthe claim (--side of --against): " << DecisionName(*decision) << "\n";
  std::cout << "\ninterval: the paired bootstrap over trial indices widened as Student's t with "
               "(fewest trials) - 1 degrees of freedom, as a one-look precision target draws it\n";
}

}  // namespace pmoe
