// Reading the [precision] section of a sweep config.
#include "pmoe/precision/precision_config.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "pmoe/core/axis_name.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/stats/target_kind.hpp"

namespace pmoe {
namespace {

double ParseNumber(const std::string& path, const std::string& key, const std::string& text,
                   double lo, double hi, const std::string& expected) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(v >= lo && v <= hi))
    throw ConfigError(path, key, expected, text);
  return v;
}

// "n" -> "data.n", "p" -> "data.p" and the like: pmoe-analyze --over's own table (AxisName), so
// that a name one accepts the other accepts too; a dotted name stays.
std::string Dotted(const std::string& name) { return AxisName(name); }

// A value that names one thing (a model kind, a metric): no blanks, lists or assignments.
std::string OneName(const std::string& path, const std::string& name, const std::string& value,
                    const std::string& expected) {
  if (value.empty() || value.find_first_of(" ,;=") != std::string::npos)
    throw ConfigError(path, name, expected, value);
  return value;
}

// A model as a target names it: one kind (cnn), or the values its cells have
// (model.kind=switch,model.activation=cubic: one kind's variants apart), as pmoe-analyze
// statistic's --model takes it.
std::string ModelName(const std::string& path, const std::string& name, const std::string& value) {
  const std::string expected =
      "one model kind (separate, cnn, ...) or P=V,... naming its cells "
      "(model.kind=switch,model.activation=cubic)";
  if (value.find('=') == std::string::npos) return OneName(path, name, value, expected);
  std::string canonical;
  for (const std::string& part : SplitTrimmed(value, ',')) {
    const size_t eq = part.find('=');
    const std::string param = eq == std::string::npos ? "" : Dotted(part.substr(0, eq));
    if (eq == std::string::npos || eq + 1 == part.size() || FindParam(param) == nullptr ||
        part.find_first_of(" ;") != std::string::npos)
      throw ConfigError(path, name, expected, value);
    canonical += (canonical.empty() ? "" : ",") + param + "=" + part.substr(eq + 1);
  }
  return canonical;
}

}  // namespace

// The keys that say which statistic a target decides and against what (the keys a [claims]
// declaration may hold); false when `key` is none of them.
bool SetStatisticKey(const std::string& path, const std::string& name, const std::string& key,
                     const std::string& value, PrecisionConfig& c) {
  PrecisionSettings& s = c.settings;
  if (key == "target") {
    const std::set<std::string> known = {
        "ratio_exponent",      "exponent", "share", "accuracy", "accuracy_slope",
        "accuracy_difference", "rate"};
    if (!known.count(value))
      throw ConfigError(path, name,
                        "ratio_exponent, exponent, share, accuracy, accuracy_slope, "
                        "accuracy_difference or rate",
                        value);
    c.target = value;
    c.paired = TargetIsPaired(value);
  } else if (key == "baseline") {
    c.baseline = ModelName(path, name, value);
  } else if (key == "metric") {
    c.metric = OneName(path, name, value, "one metric name (router_hit, router_hit_pos, ...)");
  } else if (key == "side") {
    if (value != "above" && value != "below")
      throw ConfigError(path, name, "above or below", value);
    c.side = s.side = value == "above" ? Side::kAbove : Side::kBelow;
  } else if (key == "over") {
    const size_t slash = value.find('/');
    c.over = {Dotted(value.substr(0, slash))};
    if (slash != std::string::npos) c.over.push_back(Dotted(value.substr(slash + 1)));
    for (const std::string& p : c.over)
      if (p.empty() || p == "N" || FindParam(p) == nullptr)
        throw ConfigError(path, name, "a parameter other than N, or one divided by another (n/l)",
                          value);
  } else if (key == "model") {
    c.model = ModelName(path, name, value);
  } else if (key == "reading") {
    if (value != "success" && value != "mean_accuracy")
      throw ConfigError(path, name, "success or mean_accuracy", value);
    c.curve.reading = value == "success" ? CurveReading::kSuccess : CurveReading::kMeanAccuracy;
  } else if (key == "success_threshold") {
    c.curve.threshold = ParseNumber(path, name, value, 0.02, 0.98, "a number in [0.02, 0.98]");
  } else if (key == "delta") {
    // The quantile reading of pmoe-analyze --delta: N where P(success) = 1 - delta.
    c.curve.threshold = 1 - ParseNumber(path, name, value, 0.02, 0.98, "a number in [0.02, 0.98]");
  } else if (key == "target_accuracy") {
    c.curve.target_accuracy = ParseNumber(path, name, value, 0.5, 1, "a number in [0.5, 1]");
  } else if (key == "threshold") {
    s.threshold = ParseNumber(path, name, value, -1e6, 1e6, "a finite number");
  } else if (key == "where") {
    c.where.clear();
    for (const std::string& part : SplitTrimmed(value, ',')) {
      const size_t eq = part.find('=');
      const std::string param = eq == std::string::npos ? "" : Dotted(part.substr(0, eq));
      if (eq == std::string::npos || eq + 1 == part.size() || FindParam(param) == nullptr)
        throw ConfigError(path, name, "P=V[, P=V ...] with P a parameter (data.n=64)", value);
      c.where.push_back({param, part.substr(eq + 1)});
    }
  } else {
    return false;
  }
  return true;
}

// The keys of a run: how the budget is spent and when it stops; false when `key` is none.
bool SetRunKey(const std::string& path, const std::string& name, const std::string& key,
               const std::string& value, PrecisionConfig& c) {
  PrecisionSettings& s = c.settings;
  if (key == "half_width") {  // when to stop: the run's, not the claim's
    s.half_width = ParseNumber(path, name, value, 1e-9, 1e6, "a positive number");
  } else if (key == "uniform_share") {
    s.uniform_share = ParseNumber(path, name, value, 0, 1, "a number in [0, 1]");
  } else if (key == "allocation") {
    if (value != "even" && value != "cost") throw ConfigError(path, name, "even or cost", value);
    s.cost_aware = value == "cost";
  } else if (key == "alpha") {
    s.alpha = ParseNumber(path, name, value, 1e-6, 0.5, "a number in [1e-6, 0.5]");
  } else if (key == "budget") {
    // "2.5h": CPU-hours, turned into trials by the cost model once the cells are known
    // (BudgetFromHours); else trials over all the target's cells.
    c.budget_hours = 0;
    if (!value.empty() && value.back() == 'h')
      c.budget_hours = ParseNumber(path, name, value.substr(0, value.size() - 1), 1e-6, 1e6,
                                   "trials (4000) or CPU-hours (2.5h)");
    else
      s.budget = static_cast<int>(ParseIntegerInRange(path, name, value, 2, 10000000));
  } else if (key == "start") {
    s.start = static_cast<int>(ParseIntegerInRange(path, name, value, 2, 10000));
  } else if (key == "looks") {
    s.looks = static_cast<int>(ParseIntegerInRange(path, name, value, 1, 50));
  } else if (key == "bootstrap") {
    s.bootstrap = static_cast<int>(ParseIntegerInRange(path, name, value, 100, 100000));
  } else if (key == "claim") {
    c.claim = OneName(path, name, value, "the id of a target the config's [claims] declares");
  } else {
    return false;
  }
  return true;
}

void SetPrecisionKey(const std::string& path, const std::string& key, const std::string& value,
                     PrecisionConfig& c) {
  const std::string name = "precision." + key;
  if (SetStatisticKey(path, name, key, value, c)) {
    c.statistic_keys.push_back(key);
    return;
  }
  if (SetRunKey(path, name, key, value, c)) return;
  throw ConfigError(path + ": unknown key \"" + name +
                    "\" (expected precision.target, over, model, baseline, metric, side, "
                    "reading, success_threshold, delta, target_accuracy, threshold, half_width, "
                    "where, uniform_share, allocation, alpha, budget, start, looks, bootstrap or "
                    "claim)");
}

void FinishStatistic(const std::string& path, const PrecisionConfig& c) {
  const std::string section = path + ": " + SectionOf(c);
  const bool axis = TargetReadsAxis(c.target);
  if (axis && c.over.empty())
    throw ConfigError(section + " target = " + c.target +
                      " needs over (the axis of its slope, e.g. n/l)");
  if (!axis && !c.over.empty())
    throw ConfigError(section + " target = " + c.target +
                      " reads no axis: drop over (select its cells with where)");
  if ((c.target == "rate") != !c.metric.empty())
    throw ConfigError(section + " metric goes with target = rate, and rate needs it");
}

void FinishPrecision(const std::string& path, const PrecisionConfig& c) {
  FinishStatistic(path, c);
  if (c.settings.budget == 0 && c.budget_hours == 0)
    throw ConfigError(path +
                      ": [precision] needs budget (trials over all cells at most, or CPU-hours "
                      "as 2.5h)");
}

std::string SectionOf(const PrecisionConfig& c) {
  return c.declared_as.empty() ? "[precision]" : c.declared_as;
}

std::string OverText(const PrecisionConfig& c) {
  std::string text;
  for (const std::string& p : c.over) text += (text.empty() ? "" : "/") + p;
  return text;
}

std::string WhereText(const PrecisionConfig& c) {
  std::string text;
  for (const auto& [param, value] : c.where)
    text += (text.empty() ? "" : ",") + param + "=" + value;
  return text;
}

std::string PrecisionIdentity(const PrecisionConfig& c) {
  const PrecisionSettings& s = c.settings;
  return std::string("target=") + c.target + ";over=" + OverText(c) +
         ";reading=" + (c.curve.reading == CurveReading::kSuccess ? "success" : "mean_accuracy") +
         ";success_threshold=" + FormatDouble(c.curve.threshold) +
         ";target_accuracy=" + FormatDouble(c.curve.target_accuracy) +
         ";threshold=" + FormatDouble(s.threshold) + ";half_width=" + FormatDouble(s.half_width) +
         ";where=" + WhereText(c) + ";alpha=" + FormatDouble(s.alpha) +
         ";budget=" + std::to_string(s.budget) + ";start=" + std::to_string(s.start) +
         ";looks=" + std::to_string(s.looks) + ";bootstrap=" + std::to_string(s.bootstrap) +
         ";allocation_bootstrap=" + std::to_string(s.allocation_bootstrap) +
         ";uniform_share=" + FormatDouble(s.uniform_share) + ";seed=" + std::to_string(s.seed) +
         // Keys added later join only when set, so that an older file's identity stays its own.
         (c.model.empty() ? "" : ";model=" + c.model) + (s.cost_aware ? ";allocation=cost" : "") +
         (c.budget_hours > 0 ? ";budget_hours=" + FormatDouble(c.budget_hours) : "") +
         (c.baseline == "cnn" ? "" : ";baseline=" + c.baseline) +
         (c.metric.empty() ? "" : ";metric=" + c.metric) +
         (c.side == Side::kAbove ? "" : ";side=below");
}

}  // namespace pmoe
