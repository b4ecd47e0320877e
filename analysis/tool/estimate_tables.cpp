// The tables of `pmoe-analyze sample-complexity` and `exponent`: one row per estimate, bounds
// shown as bounds (> N_max, < N_min), never as numbers.
#include "estimate_tables.hpp"

#include <cmath>
#include <iostream>

namespace pmoe {
namespace {

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

TableValue AxisValue(const AxisPoint& p) {
  return std::isnan(p.value) ? TableValue::Text(p.text.empty() ? "-" : p.text)
                             : TableValue::Number(p.value, 6);
}

TableValue Flag(const NStar& e) {
  return TableValue::Text(e.low_convergence ? "low_convergence" : "");
}

TableValue Name(const SampleComplexity& sc, size_t reading) {
  return TableValue::Text(sc.readings[reading].name);
}

}  // namespace

std::string ShortAxis(const std::string& axis) {
  std::string out = axis;
  for (const std::string prefix : {"data.", "model."})
    for (size_t at = out.find(prefix); at != std::string::npos; at = out.find(prefix))
      out.erase(at, prefix.size());
  return out;
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
      table.Add({TableValue::Text(sc.series[s].label), AxisValue(sc.series[s].points[i]),
                 Bounded(n.estimate, n.N_min, n.N_max), Bounded(n.lo, n.N_min, n.N_max),
                 Bounded(n.hi, n.N_min, n.N_max), TableValue::Text(GridWord(n)),
                 TableValue::Number(n.converged_near, 3), Flag(n),
                 Bounded(a.estimate, a.N_min, a.N_max), Bounded(a.lo, a.N_min, a.N_max),
                 Bounded(a.hi, a.N_min, a.N_max), TableValue::Text(GridWord(a)),
                 TableValue::Number(a.converged_near, 3), Flag(a), TableValue::Number(n.N_min, 6),
                 TableValue::Number(n.N_max, 6), TableValue::Number(n.trials)});
    }
  return table;
}

Table QuantileTable(const SampleComplexity& sc) {
  Table table({"series", sc.axis.empty() ? "axis" : sc.axis, "reading", "delta", "epsilon", "N",
               "lo", "hi", "grid", "converged", "flag", "N_min", "N_max", "trials",
               "trial_indices"});
  for (size_t s = 0; s < sc.series.size(); ++s)
    for (size_t i = 0; i < sc.series[s].points.size(); ++i)
      for (size_t r = 0; r < sc.readings.size(); ++r) {
        const ReadingSpec& spec = sc.readings[r];
        if (spec.kind != Reading::kSuccess) continue;
        const NStar& n = sc.estimates[r][s][i];
        table.Add({TableValue::Text(sc.series[s].label), AxisValue(sc.series[s].points[i]),
                   Name(sc, r), TableValue::Number(spec.delta, 3),
                   TableValue::Number(spec.epsilon, 3), Bounded(n.estimate, n.N_min, n.N_max),
                   Bounded(n.lo, n.N_min, n.N_max), Bounded(n.hi, n.N_min, n.N_max),
                   TableValue::Text(GridWord(n)), TableValue::Number(n.converged_near, 3), Flag(n),
                   TableValue::Number(n.N_min, 6), TableValue::Number(n.N_max, 6),
                   TableValue::Number(n.trials), TableValue::Number(n.trial_indices)});
      }
  return table;
}

Table ExponentTable(const SampleComplexity& sc, const std::vector<ReadingExponent>& exponents) {
  Table table({"series", "reading", "exponent", "lo", "hi", "intercept", "points", "theory",
               "theory_formula", "shape", "trend_p", "upper_exponent", "trials"});
  for (const auto& [reading, e] : exponents)
    table.Add({TableValue::Text(e.label), Name(sc, reading), TableValue::Number(e.slope, 3),
               TableValue::Number(e.lo, 3), TableValue::Number(e.hi, 3),
               TableValue::Number(e.intercept, 4), TableValue::Number(e.points),
               TableValue::Number(e.theory, 3), TableValue::Text(e.theory_formula),
               TableValue::Text(ShapeModelName(e.shape.fit.best)),
               TableValue::Number(e.shape.trend.not_increasing, 2),
               TableValue::Number(e.shape.upper.slope, 3), TableValue::Number(e.trials)});
  return table;
}

Table ShapeTable(const SampleComplexity& sc, const std::vector<ReadingExponent>& exponents) {
  Table table({"series", "reading", "shape", "trend_tau", "trend_p", "bic_constant", "bic_power",
               "bic_step", "power_exponent", "step_below", "step_above", "step_ratio", "points",
               "upper_exponent", "upper_lo", "upper_hi", "upper_points", "says"});
  for (const auto& [reading, e] : exponents) {
    const Shape& s = e.shape;
    table.Add({TableValue::Text(e.label), Name(sc, reading),
               TableValue::Text(ShapeModelName(s.fit.best)), TableValue::Number(s.trend.tau, 3),
               TableValue::Number(s.trend.not_increasing, 3),
               TableValue::Number(s.fit.bic_constant, 4), TableValue::Number(s.fit.bic_power, 4),
               TableValue::Number(s.fit.bic_step, 4), TableValue::Number(s.fit.power_slope, 3),
               TableValue::Number(s.fit.step_below, 6), TableValue::Number(s.fit.step_above, 6),
               TableValue::Number(s.fit.step_ratio, 3), TableValue::Number(s.fit.points),
               TableValue::Number(s.upper.slope, 3), TableValue::Number(s.upper.lo, 3),
               TableValue::Number(s.upper.hi, 3), TableValue::Number(s.upper.points),
               TableValue::Text(ShapeSentence(s, ShortAxis(sc.axis)))});
  }
  return table;
}

void PrintShapeSentences(const SampleComplexity& sc,
                         const std::vector<ReadingExponent>& exponents) {
  for (const auto& [reading, e] : exponents)
    std::cout << e.label << " [" << sc.readings[reading].name
              << "]: " << ShapeSentence(e.shape, ShortAxis(sc.axis)) << "\n";
}

Table RatioTable(const SampleComplexity& sc, const std::vector<ReadingRatio>& ratios) {
  Table table({"ratio", "reading", sc.axis.empty() ? "axis" : sc.axis, "N_star_ratio", "lo", "hi",
               "bound", "censored", "flag"});
  for (const auto& [reading, r] : ratios)
    for (size_t i = 0; i < r.axis_values.size(); ++i) {
      TableValue estimate = TableValue::Number(r.estimate[i], 4);
      if (r.censored[i]) estimate.text = r.bound[i];  // the aligned view shows the bound
      table.Add({TableValue::Text(r.label), Name(sc, reading),
                 TableValue::Number(r.axis_values[i], 6), estimate, TableValue::Number(r.lo[i], 4),
                 TableValue::Number(r.hi[i], 4), TableValue::Text(r.bound[i]),
                 TableValue::Text(r.censored[i] ? "yes" : "no"),
                 TableValue::Text(r.low_convergence[i] ? "low_convergence" : "")});
    }
  return table;
}

Table ControlTable(const SampleComplexity& sc, const std::vector<ReadingControl>& controls) {
  Table table({"ratio", "reading", sc.axis.empty() ? "axis" : sc.axis, "N_star_ratio", "lo", "hi",
               "bound", "includes_1"});
  for (const auto& [reading, c] : controls) {
    TableValue estimate = TableValue::Number(c.estimate, 4);
    if (!c.bound.empty()) estimate.text = c.bound;
    table.Add({TableValue::Text(c.label), Name(sc, reading), TableValue::Number(c.axis_value, 6),
               estimate, TableValue::Number(c.lo, 4), TableValue::Number(c.hi, 4),
               TableValue::Text(c.bound), TableValue::Text(c.includes_one ? "yes" : "no")});
  }
  return table;
}

}  // namespace pmoe
