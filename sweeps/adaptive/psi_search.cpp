// The posterior lives on a fixed grid: thresholds from half of N_min to twice N_max in log N
// (so "N* lies outside the range" can become certain), slopes log-spaced from 0.5 to 50 per unit
// of log N (from a success curve spread over a factor 100 in N to one that jumps within 4 %).
// A lapse rate keeps one odd trial (a lucky success at small N) from ruling a threshold out.
//
// The stop: the analysis's bootstrap interval within the target, and the posterior's credible
// interval too. The posterior matters on separated data (all failures below some N, all
// successes above, a few rounds in): every bootstrap replicate is then separated alike and the
// interval looks narrow though the slope is unknown. It matters on ordinary data as well: a
// bootstrap over an adaptive design is optimistic (in sweeps/bench/adaptive/adaptive_sim, at curves
// like the real ones, it covers N* 75-89 % of the time when it alone stops the search), and the
// posterior is about 1.3 times as wide. Stopping on both left the adaptive estimate's true error
// below the grid's at 0.24-0.29 of its trials; the bootstrap alone (posterior within twice the
// target) stopped at 0.17-0.21 with a true error up to 1.3 times the grid's.
#include "pmoe/sweep/adaptive/psi_search.hpp"

#include <algorithm>
#include <cmath>

namespace pmoe {
namespace {

constexpr int kThresholds = 161;
constexpr int kSlopes = 25;
constexpr double kSlopeMin = 0.5, kSlopeMax = 50;
constexpr double kLapse = 0.01;
constexpr int kBootstrap = 1000;        // replicates, as pmoe-analyze's default
constexpr uint64_t kBootstrapSeed = 1;  // pmoe-analyze's default seed

double Sigmoid(double z) {
  return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
}

double Entropy(const std::vector<double>& p) {
  double h = 0;
  for (double v : p)
    if (v > 0) h -= v * std::log(v);
  return h;
}

// The value x at which the cumulative distribution `mass` over the points `at` reaches q,
// interpolated linearly within the grid cell that crosses it.
double Quantile(const std::vector<double>& at, const std::vector<double>& mass, double q) {
  double cumulative = 0;
  for (size_t i = 0; i < mass.size(); ++i) {
    if (cumulative + mass[i] >= q) {
      const double inside = mass[i] > 0 ? (q - cumulative) / mass[i] : 0;
      const double left = i == 0 ? at[0] : (at[i - 1] + at[i]) / 2;
      const double right = i + 1 == at.size() ? at[i] : (at[i] + at[i + 1]) / 2;
      return left + inside * (right - left);
    }
    cumulative += mass[i];
  }
  return at.back();
}

}  // namespace

std::vector<int> CandidateNs(const AdaptiveSettings& s) {
  std::vector<int> out;
  const double ratio = std::pow(2.0, 1.0 / s.steps_per_doubling);
  for (double x = s.N_min; x < s.N_max; x *= ratio) {
    const int n = static_cast<int>(std::lround(x));
    if (out.empty() || n > out.back()) out.push_back(n);
  }
  if (out.empty() || out.back() < s.N_max) out.push_back(s.N_max);
  return out;
}

const char* SearchStateName(SearchState state) {
  switch (state) {
    case SearchState::kRunning:
      return "running";
    case SearchState::kPrecise:
      return "precise";
    case SearchState::kBudget:
      return "budget";
    case SearchState::kBelowRange:
      return "below_range";
    case SearchState::kAboveRange:
      return "above_range";
  }
  return "unknown";
}

PsiSearch::PsiSearch(const AdaptiveSettings& settings)
    : settings_(settings), candidates_(CandidateNs(settings)) {
  const double lo = std::log(settings.N_min / 2.0), hi = std::log(settings.N_max * 2.0);
  for (int i = 0; i < kThresholds; ++i) theta_.push_back(lo + (hi - lo) * i / (kThresholds - 1));
  for (int j = 0; j < kSlopes; ++j)
    slope_.push_back(kSlopeMin * std::pow(kSlopeMax / kSlopeMin, double(j) / (kSlopes - 1)));
  posterior_.assign(theta_.size() * slope_.size(), 1.0 / (theta_.size() * slope_.size()));
  for (int n : candidates_) cells_.push_back({double(n), {}});
  // Success probability at each candidate for each (threshold, slope): the curve passes through
  // `threshold` at N = exp(theta).
  const double t = (settings.threshold - kLapse) / (1 - 2 * kLapse);
  const double shift = std::log(t / (1 - t));
  for (int n : candidates_) {
    std::vector<double> p(posterior_.size());
    for (size_t i = 0; i < theta_.size(); ++i)
      for (size_t j = 0; j < slope_.size(); ++j)
        p[i * slope_.size() + j] =
            kLapse + (1 - 2 * kLapse) * Sigmoid(slope_[j] * (std::log(n) - theta_[i]) + shift);
    // The likelihood of each outcome of a round at this candidate, s successes of `round`
    // (without the binomial coefficient), precomputed: choosing a round is then sums only.
    std::vector<std::vector<double>> outcome(settings.round + 1, std::vector<double>(p.size()));
    for (int k = 0; k <= settings.round; ++k)
      for (size_t g = 0; g < p.size(); ++g)
        outcome[k][g] = std::pow(p[g], k) * std::pow(1 - p[g], settings.round - k);
    round_likelihood_.push_back(std::move(outcome));
    success_.push_back(std::move(p));
  }
  UpdateState();
}

std::vector<double> PsiSearch::ThresholdMarginal(const std::vector<double>& weights) const {
  std::vector<double> marginal(theta_.size(), 0.0);
  double total = 0;
  for (size_t i = 0; i < theta_.size(); ++i) {
    for (size_t j = 0; j < slope_.size(); ++j) marginal[i] += weights[i * slope_.size() + j];
    total += marginal[i];
  }
  for (double& m : marginal) m /= total;
  return marginal;
}

double PsiSearch::ExpectedEntropy(size_t candidate) const {
  const int trials = settings_.round;
  std::vector<double> weighted(posterior_.size());
  double expected = 0;
  for (int s = 0; s <= trials; ++s) {
    // The posterior after s successes in the round, unnormalized; its total is P(s).
    const std::vector<double>& likelihood = round_likelihood_[candidate][s];
    double total = 0;
    for (size_t g = 0; g < posterior_.size(); ++g) {
      weighted[g] = posterior_[g] * likelihood[g];
      total += weighted[g];
    }
    const double binomial =
        std::exp(std::lgamma(trials + 1.0) - std::lgamma(s + 1.0) - std::lgamma(trials - s + 1.0));
    if (total > 0) expected += binomial * total * Entropy(ThresholdMarginal(weighted));
  }
  return expected;
}

std::optional<PsiSearch::Round> PsiSearch::Next() {
  if (state_ != SearchState::kRunning) return std::nullopt;
  size_t best = 0;
  double best_entropy = INFINITY;
  for (size_t c = 0; c < candidates_.size(); ++c) {
    const double h = ExpectedEntropy(c);
    if (h < best_entropy - 1e-12) {  // ties to the smaller N: the cheaper trials
      best_entropy = h;
      best = c;
    }
  }
  return Round{best, used_, settings_.round};
}

void PsiSearch::Observe(size_t candidate, const std::vector<bool>& outcomes) {
  const int trials = static_cast<int>(outcomes.size());
  int successes = 0;
  for (int i = 0; i < trials; ++i) {
    cells_.at(candidate).trials.push_back({used_ + i, outcomes[i]});
    successes += outcomes[i];
  }
  const std::vector<double>& p = success_.at(candidate);
  double total = 0;
  for (size_t g = 0; g < posterior_.size(); ++g) {
    posterior_[g] *= std::pow(p[g], successes) * std::pow(1 - p[g], trials - successes);
    total += posterior_[g];
  }
  for (double& w : posterior_) w /= total;
  used_ += trials;
  const SeriesInterval interval =
      BootstrapInterval(cells_, settings_.threshold, kBootstrap, kBootstrapSeed);
  analysis_ = {interval.estimate, interval.lo, interval.hi};
  UpdateState();
}

ThresholdEstimate PsiSearch::Estimate() const { return analysis_; }

ThresholdEstimate PsiSearch::Posterior() const {
  const std::vector<double> marginal = ThresholdMarginal(posterior_);
  ThresholdEstimate e;
  e.median = std::exp(Quantile(theta_, marginal, 0.5));
  e.lo = std::exp(Quantile(theta_, marginal, 0.025));
  e.hi = std::exp(Quantile(theta_, marginal, 0.975));
  return e;
}

void PsiSearch::UpdateState() {
  const ThresholdEstimate e = Posterior();
  const double width = analysis_.RelativeWidth();  // NaN or inf when censored: not precise
  if (used_ > 0 && e.hi < settings_.N_min)
    state_ = SearchState::kBelowRange;
  else if (used_ > 0 && e.lo > settings_.N_max)
    state_ = SearchState::kAboveRange;
  else if (used_ > 0 && std::isfinite(width) && width <= settings_.target &&
           e.RelativeWidth() <= settings_.target)
    state_ = SearchState::kPrecise;
  else if (used_ + settings_.round > settings_.budget)
    state_ = SearchState::kBudget;
  else
    state_ = SearchState::kRunning;
}

}  // namespace pmoe
