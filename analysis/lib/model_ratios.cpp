// N*(CNN) / N*(pMoE) at each axis value for series of one design, their exponents and the
// l = n control, from the paired bootstrap replicates of sample_complexity.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "pmoe/analysis/sample_complexity.hpp"  // declares this file's functions
#include "pmoe/analysis/theory_orders.hpp"

namespace pmoe {
namespace {

// Pairs (baseline series, other series) of one design: same parameters but model.kind; the
// baseline is the kind whose family declares itself one (IsRatioBaseline: the CNN).
std::vector<std::pair<size_t, size_t>> ModelPairs(const SampleComplexity& sc) {
  std::vector<std::pair<size_t, size_t>> pairs;
  auto baseline = [&](size_t s) { return IsRatioBaseline(sc.theory, sc.series[s].model_kind); };
  for (size_t a = 0; a < sc.series.size(); ++a) {
    if (!baseline(a)) continue;
    for (size_t b = 0; b < sc.series.size(); ++b)
      if (b != a && !baseline(b) && sc.series[b].others == sc.series[a].others)
        pairs.push_back({a, b});
  }
  return pairs;
}

// Ratio of N* between two series at their common axis values, with replicates.
struct RatioData {
  std::vector<double> x, y;
  std::vector<double> bounded;    // BoundedRatio of the estimates: a censored ratio's direction
  std::vector<int> trials;        // the fewer trial indices of the two sides: the widening
  std::vector<bool> all_patches;  // the pMoE routes every patch (l = n)
  std::vector<std::vector<double>> replicates;
  std::vector<bool> censored, low_convergence;
  std::vector<std::string> bound;
};

// a / b where either may be a bound (+inf: above its grid, -inf: below it): +inf or -inf when
// the ratio is only known to be huge or tiny, NaN when nothing is known (both beyond like edges).
double BoundedRatio(double a, double b) {
  if (std::isfinite(a) && std::isfinite(b)) return a / b;
  if (a == b || std::isnan(a) || std::isnan(b)) return NAN;
  const double inf = std::numeric_limits<double>::infinity();
  return a == inf || b == -inf ? inf : -inf;
}

// The bound a censored ratio still gives: the edge of the grid stands in for the censored side.
std::string RatioBound(const NStar& a, const NStar& b) {
  const bool a_up = a.above_grid, a_down = a.below_grid, b_up = b.above_grid, b_down = b.below_grid;
  if ((a_up && b_up) || (a_down && b_down)) return "n/a";
  const double a_edge = a_up ? a.N_max : a_down ? a.N_min : a.estimate;
  const double b_edge = b_up ? b.N_max : b_down ? b.N_min : b.estimate;
  char text[48];
  std::snprintf(text, sizeof text, "%s %.3g", (a_up || b_down) ? ">" : "<", a_edge / b_edge);
  return text;
}

RatioData RatioOf(const SampleComplexity& sc, size_t reading, size_t a, size_t b) {
  RatioData d;
  const auto& est = sc.estimates[reading];
  const auto& reps = sc.replicates[reading];
  for (size_t i = 0; i < sc.series[a].points.size(); ++i)
    for (size_t j = 0; j < sc.series[b].points.size(); ++j) {
      if (sc.series[a].points[i].text != sc.series[b].points[j].text) continue;
      const NStar &na = est[a][i], &nb = est[b][j];
      d.x.push_back(sc.series[a].points[i].value);
      const bool censored = na.Censored() || nb.Censored();
      d.censored.push_back(censored);
      d.y.push_back(censored ? NAN : na.estimate / nb.estimate);
      d.bounded.push_back(BoundedRatio(na.estimate, nb.estimate));
      d.trials.push_back(std::min(na.trial_indices, nb.trial_indices));
      d.all_patches.push_back(sc.series[b].points[j].all_patches);
      d.bound.push_back(censored ? RatioBound(na, nb) : "");
      d.low_convergence.push_back(na.low_convergence || nb.low_convergence);
      std::vector<double> ratio_reps;
      for (size_t r = 0; r < reps[a][i].size(); ++r)
        ratio_reps.push_back(BoundedRatio(reps[a][i][r], reps[b][j][r]));
      d.replicates.push_back(ratio_reps);
    }
  return d;
}

// "cnn/separate", with the pMoE's own parameters where several series of its kind pair with the
// same CNN ("cnn/separate (model.l=4)" in a sweep over l and n), and the shared design.
std::string RatioLabel(const SampleComplexity& sc, size_t a, size_t b) {
  const std::string& others = sc.series[a].others;
  std::string own;
  int same_kind = 0;
  for (const Series& s : sc.series)
    same_kind += s.model_kind == sc.series[b].model_kind && s.others == others;
  if (same_kind > 1) {
    // The series label's parts that are not in `others` and not the kind itself.
    const std::string& label = sc.series[b].label;
    size_t start = 0;
    while (start < label.size()) {
      const size_t end = std::min(label.find(", ", start), label.size());
      const std::string part = label.substr(start, end - start);
      if (part.rfind("model.kind=", 0) != 0 && others.find(part) == std::string::npos)
        own += (own.empty() ? "" : ", ") + part;
      start = end + 2;
    }
  }
  std::string design = own;
  if (!others.empty()) design += (design.empty() ? "" : "; ") + others;
  return sc.series[a].model_kind + "/" + sc.series[b].model_kind +
         (design.empty() ? "" : " (" + design + ")");
}

}  // namespace

std::vector<Ratio> ModelRatios(const SampleComplexity& sc, const SampleComplexityOptions& o,
                               Reading reading) {
  return ModelRatios(sc, o, size_t(reading));
}

std::vector<Ratio> ModelRatios(const SampleComplexity& sc, const SampleComplexityOptions& o,
                               size_t reading) {
  std::vector<Ratio> out;
  for (const auto& [a, b] : ModelPairs(sc)) {
    const RatioData d = RatioOf(sc, reading, a, b);
    Ratio ratio;
    ratio.label = RatioLabel(sc, a, b);
    ratio.axis_values = d.x;
    ratio.estimate = d.y;
    ratio.censored = d.censored;
    ratio.bound = d.bound;
    ratio.low_convergence = d.low_convergence;
    for (size_t i = 0; i < d.replicates.size(); ++i) {
      // A censored ratio has its bound and no interval.
      const Interval widened =
          BootstrapInterval(d.y[i], d.replicates[i], o.level, d.trials[i], true);
      ratio.lo.push_back(d.censored[i] ? NAN : widened.lo);
      ratio.hi.push_back(d.censored[i] ? NAN : widened.hi);
    }
    out.push_back(ratio);
  }
  return out;
}

std::vector<Exponent> RatioExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                     Reading reading) {
  return RatioExponents(sc, o, size_t(reading));
}

std::vector<Exponent> RatioExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                     size_t reading) {
  std::vector<Exponent> out;
  for (const auto& [a, b] : ModelPairs(sc)) {
    RatioData d = RatioOf(sc, reading, a, b);
    // The trend test sees the censored ratios' bounds too (their order is known); the slope and
    // the shape models only the ratios inside both grids.
    AxisEstimates e{d.x, d.bounded, d.replicates, {}, std::numeric_limits<int>::max()};
    std::vector<size_t> use;
    for (size_t i = 0; i < d.x.size(); ++i) {
      e.use.push_back(!d.censored[i]);
      if (d.censored[i]) continue;
      use.push_back(i);
      e.trials = std::min(e.trials, d.trials[i]);
    }
    if (use.empty()) e.trials = 0;
    Exponent x = ExponentOf(e, use, o.level);
    x.label = RatioLabel(sc, a, b);
    x.theory = TheoryOrder(sc.theory, sc.series[a].model_kind, sc.axis) -
               TheoryOrder(sc.theory, sc.series[b].model_kind, sc.axis);
    x.theory_formula =
        TheoryRatioFormula(sc.theory, sc.series[a].model_kind, sc.series[b].model_kind, sc.axis);
    out.push_back(x);
  }
  return out;
}

std::vector<ControlCheck> EqualPatchControls(const SampleComplexity& sc,
                                             const SampleComplexityOptions& o, size_t reading) {
  std::vector<ControlCheck> out;
  const std::vector<Ratio> ratios = ModelRatios(sc, o, reading);
  const auto pairs = ModelPairs(sc);
  for (size_t k = 0; k < pairs.size(); ++k) {
    const RatioData d = RatioOf(sc, reading, pairs[k].first, pairs[k].second);
    const Ratio& r = ratios[k];
    for (size_t i = 0; i < d.x.size(); ++i) {
      if (!d.all_patches[i]) continue;
      ControlCheck c{r.label, r.axis_values[i], r.estimate[i], r.lo[i], r.hi[i], r.bound[i]};
      c.includes_one = !r.censored[i] && r.lo[i] <= 1 && 1 <= r.hi[i];
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace pmoe
