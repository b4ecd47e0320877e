// The rounds of a precision target: plan, evaluate from the planned rows only, decide or allocate.
#include "pmoe/precision/precision_target.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "pmoe/core/rng.hpp"
#include "pmoe/stats/decision_rule.hpp"
#include "pmoe/stats/paired_bootstrap.hpp"
#include "pmoe/stats/sequential_interval.hpp"

namespace pmoe {
namespace {

// The variance the statistic's bootstrap spread implies: ((q84 - q16) / 2)^2, +inf when NaN
// replicates or infinite values reach those quantiles.
double SpreadVariance(const std::vector<double>& replicates) {
  const DecisionInterval d =
      RobustInterval(0.0, replicates, 2 * 0.5 * std::erfc(1 / std::sqrt(2.0)));
  const double half = (d.hi - d.lo) / 2;  // z = 1 at alpha = 31.7 %: one spread either side
  return std::isfinite(half) ? half * half : kInf;
}

}  // namespace

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRunning:
      return "running";
    case Verdict::kAbove:
      return "above";
    case Verdict::kBelow:
      return "below";
    case Verdict::kWithin:
      return "within";
    case Verdict::kUndecided:
      return "undecided";
  }
  return "?";
}

Verdict VerdictOf(double estimate, double lo, double hi, double threshold, double half_width,
                  bool last, Side side) {
  // The one decision rule (stats/decision_rule.hpp) on the claimed side; the verdict names the
  // side of the threshold the interval lies on, so the claim that reads it knows its meaning.
  const Verdict claimed = side == Side::kAbove ? Verdict::kAbove : Verdict::kBelow;
  const Verdict other = side == Side::kAbove ? Verdict::kBelow : Verdict::kAbove;
  switch (Decide(estimate, lo, hi, threshold, side, half_width)) {
    case Decision::kShown:
      return claimed;
    case Decision::kExcluded:
      return other;
    case Decision::kWithin:
      return Verdict::kWithin;
    case Decision::kOpen:
    case Decision::kUntestable:
      break;
  }
  return last ? Verdict::kUndecided : Verdict::kRunning;
}

void CheckPrecisionSettings(const PrecisionSettings& s, size_t cells) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("precision: " + what); };
  if (cells == 0) fail("no cells to run");
  if (!(s.alpha > 0 && s.alpha < 1)) fail("alpha must lie in (0, 1)");
  if (s.start < 2) fail("start must be at least 2 trials per cell");
  if (s.looks < 1) fail("looks must be at least 1");
  if (s.budget < s.start * static_cast<long long>(cells))
    fail("budget (" + std::to_string(s.budget) + " trials) must be at least start * cells = " +
         std::to_string(s.start * static_cast<long long>(cells)));
  if (s.bootstrap < 100) fail("bootstrap must be at least 100 replicates");
  if (s.allocation_bootstrap < 20) fail("allocation_bootstrap must be at least 20 replicates");
  if (!(s.half_width >= 0)) fail("half_width must be 0 (off) or positive");
  if (!(s.uniform_share >= 0 && s.uniform_share <= 1)) fail("uniform_share must lie in [0, 1]");
  if (s.cost_aware)
    for (double c : s.cost)
      if (!(c > 0 && std::isfinite(c))) fail("every cell's cost per trial must be positive");
}

PrecisionTarget::PrecisionTarget(size_t cells, TargetStatistic statistic,
                                 const PrecisionSettings& settings,
                                 const std::vector<size_t>& shared_rows)
    : cells_(cells), statistic_(std::move(statistic)), settings_(settings) {
  if (!shared_rows.empty() && shared_rows.size() != cells)
    throw std::invalid_argument("precision: shared_rows must name one id per place");
  std::vector<std::pair<size_t, size_t>> order;  // (id, place), the ids' first places in order
  for (size_t c = 0; c < cells; ++c) {
    const size_t id = shared_rows.empty() ? c : shared_rows[c];
    auto it =
        std::find_if(order.begin(), order.end(), [&](const auto& o) { return o.first == id; });
    if (it == order.end()) {
      order.push_back({id, units_.size()});
      units_.push_back({c});
    } else {
      units_[it->second].push_back(c);
    }
  }
  CheckPrecisionSettings(settings, units_.size());
  if (settings.cost_aware && settings.cost.size() != cells)
    throw std::invalid_argument("precision: allocation = cost needs a cost per place");
  totals_ =
      LookTotals(settings.start * static_cast<int>(units_.size()), settings.budget, settings.looks);
  spending_ = AlphaSpending(totals_, settings.alpha);
  plan_.assign(cells, settings.start);
}

std::vector<WorkPair> PrecisionTarget::Next(const Lookup& held) {
  while (verdict_ == Verdict::kRunning) {
    std::vector<WorkPair> missing;
    std::vector<CellSample> samples(cells_);
    for (const std::vector<size_t>& places : units_) {  // a unit's rows are asked for once
      const size_t c = places.front();
      for (int t = 0; t < plan_[c]; ++t) {
        const std::optional<double> value = held(c, t);
        if (!value)
          missing.push_back({c, t});
        else if (missing.empty())
          for (size_t p : places) samples[p].values.push_back(*value);
      }
    }
    if (!missing.empty()) return missing;
    for (CellSample& s : samples) s.weights.assign(s.values.size(), 1);
    looks_.push_back(Evaluate(samples));
    verdict_ = looks_.back().verdict;
    if (verdict_ == Verdict::kRunning) plan_ = Allocate(samples, totals_[looks_.size()]);
  }
  return {};
}

Look PrecisionTarget::Evaluate(const std::vector<CellSample>& samples) {
  Look look;
  look.index = static_cast<int>(looks_.size());
  look.trials = plan_;
  for (const std::vector<size_t>& places : units_) look.total += plan_[places.front()];
  look.alpha = settings_.naive ? settings_.alpha : spending_[look.index];
  // The paired bootstrap over trial indices (stats/paired_bootstrap.hpp), the look's own stream.
  BootstrapSettings bootstrap;
  bootstrap.alpha = look.alpha;
  bootstrap.replicates = settings_.bootstrap;
  bootstrap.stream = CombineSeed(settings_.seed, look.index);
  bootstrap.widen = !settings_.naive;
  const DecisionInterval d = PairedBootstrapInterval(statistic_, samples, bootstrap);
  look.estimate = d.estimate;
  look.lo = d.lo;
  look.hi = d.hi;
  const bool last = look.index + 1 == static_cast<int>(totals_.size());
  look.verdict = VerdictOf(d.estimate, d.lo, d.hi, settings_.threshold, settings_.half_width, last,
                           settings_.side);
  return look;
}

// Each unit's part V_u of the statistic's variance, from resampling its rows alone (in every
// place they stand), with the bootstrap stream of the unit's first place.
std::vector<double> PrecisionTarget::VarianceParts(const std::vector<CellSample>& samples) const {
  std::vector<double> part(units_.size());
  for (size_t u = 0; u < units_.size(); ++u) {
    const std::vector<size_t>& places = units_[u];
    Rng rng(CombineSeed(CombineSeed(settings_.seed, looks_.size()), places.front() + 1));
    std::vector<CellSample> replicate = samples;
    const int n = static_cast<int>(samples[places.front()].values.size());
    std::vector<int> weights(n);
    std::vector<double> replicates;
    for (int r = 0; r < settings_.allocation_bootstrap; ++r) {
      std::fill(weights.begin(), weights.end(), 0);
      for (int t = 0; t < n; ++t) ++weights[rng.Below(n)];
      for (size_t p : places) replicate[p].weights = weights;  // the unit's places together
      replicates.push_back(statistic_(replicate));
    }
    part[u] = SpreadVariance(replicates);
  }
  return part;
}

// The next look's trials per place, `total` rows in all (a unit of places sharing rows counts
// once). A share goes evenly (fewest trials first), the rest greedily to the units where one more
// trial shrinks the statistic's variance most: unit u's part V_u of the variance falls as
// t_u / (t_u + extra). With allocation = cost, SpendByCost instead.
std::vector<int> PrecisionTarget::Allocate(const std::vector<CellSample>& samples,
                                           int total) const {
  const size_t units = units_.size();
  const std::vector<double> part = VarianceParts(samples);
  std::vector<int> had(units), plan(units);
  for (size_t u = 0; u < units; ++u) had[u] = plan[u] = plan_[units_[u].front()];
  if (settings_.cost_aware) {
    plan = SpendByCost(part, plan, total);
  } else {
    int extra = total;
    for (int n : had) extra -= n;
    const int even = static_cast<int>(std::floor(settings_.uniform_share * extra));
    auto fewest = [&](size_t a, size_t b) {
      return plan[a] < plan[b] || (plan[a] == plan[b] && a < b);
    };
    for (int i = 0; i < extra; ++i) {
      size_t best = 0;
      double best_gain = -1;
      for (size_t u = 0; u < units; ++u) {
        const double t = had[u], p = plan[u];
        const double gain = i < even          ? 0
                            : part[u] >= kInf ? kInf
                                              : part[u] * t * (1 / p - 1 / (p + 1));
        if (gain > best_gain || (gain == best_gain && fewest(u, best))) {
          best = u;
          best_gain = gain;
        }
      }
      ++plan[best];
    }
  }
  std::vector<int> by_place(cells_);
  for (size_t u = 0; u < units; ++u)
    for (size_t p : units_[u]) by_place[p] = plan[u];
  return by_place;
}

// allocation = cost: the look may spend what an even spread of `total` trials costs (total times
// the units' mean cost per trial), less what the held trials cost. Its uniform share goes to the
// units with the fewest trials; the rest, trial by trial, to the unit whose next trial shrinks
// the variance most per unit of cost, among those whose trial still fits. The same looks thus
// cost the same CPU as the even allocation's on average, and buy a narrower interval with it, so
// a verdict comes at an earlier look. Pure in its arguments (a replay plans the same).
std::vector<int> PrecisionTarget::SpendByCost(const std::vector<double>& part,
                                              std::vector<int> plan, int total) const {
  const size_t units = units_.size();
  const std::vector<int> had = plan;
  std::vector<double> cost(units);
  double mean = 0, spent = 0;
  for (size_t u = 0; u < units; ++u) {
    cost[u] = settings_.cost[units_[u].front()];
    mean += cost[u] / units;
    spent += cost[u] * had[u];
  }
  double left = total * mean - spent;
  double even = settings_.uniform_share * left;
  while (true) {  // the uniform share: fewest trials first, while a trial fits
    size_t best = units;
    for (size_t u = 0; u < units; ++u)
      if (cost[u] <= even && (best == units || plan[u] < plan[best])) best = u;
    if (best == units) break;
    ++plan[best];
    even -= cost[best];
    left -= cost[best];
  }
  while (true) {
    size_t best = units;
    double best_gain = -1;
    for (size_t u = 0; u < units; ++u) {
      if (cost[u] > left) continue;
      const double t = had[u], p = plan[u];
      const double gain = part[u] >= kInf ? kInf : part[u] * t * (1 / p - 1 / (p + 1)) / cost[u];
      if (gain > best_gain || (gain == best_gain && plan[u] < plan[best])) {
        best = u;
        best_gain = gain;
      }
    }
    if (best == units) break;
    ++plan[best];
    left -= cost[best];
  }
  return plan;
}

std::string DescribeLooks(const std::vector<Look>& looks) {
  std::ostringstream out;
  for (const Look& l : looks) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "look %d: %d trials, alpha %.3g, estimate %.4g [%.4g, %.4g]: %s\n", l.index + 1,
                  l.total, l.alpha, l.estimate, l.lo, l.hi, VerdictName(l.verdict));
    out << line;
  }
  return out.str();
}

}  // namespace pmoe
