// The search for one series' threshold N* (the N where success probability crosses
// `threshold`), chosen round by round: a Bayesian posterior over the threshold and the slope of
// a logistic success curve in log N, and each round's N chosen to minimize the expected entropy
// of the threshold's posterior (the psi-marginal method: Kontsevich and Tyler 1999, Prins 2013).
// Each trial index is used once per series (round after round: 0, 1, 2, ...), so no two trials
// of a series share their data: a real sweep's trial t is correlated across N (the same data
// stream and initial weights), and trials 0..k-1 at every N bought less than independent ones.
// The search stops when the interval the analysis will report (a logistic fit with a bootstrap
// over trial indices, SeriesInterval) and the posterior's credible interval are both within the
// target. Pure and deterministic: the
// same observations give the same rounds on every machine.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pmoe/sweep/adaptive/series_interval.hpp"

namespace pmoe {

// The version of the search's algorithm, in the adaptive identity: a file searched by another
// version is refused on resume, never continued by a different algorithm. 1: trials 0..k-1 at
// each N, stop on the posterior. 2: each trial index once per series, stop on the analysis's
// interval.
constexpr int kAdaptiveMethod = 2;

struct AdaptiveSettings {
  int N_min = 0, N_max = 0;    // the range searched (inclusive)
  double target = 0.25;        // stop when the 95 % interval's width, over N*, is at most this
  int budget = 120;            // trials per series at most
  int round = 4;               // trials per round, all at one N
  double threshold = 0.5;      // success probability at N*
  int steps_per_doubling = 4;  // candidate N: a geometric grid of ratio 2^(1/steps)
  int method = kAdaptiveMethod;
};

// The candidate N values: integers from N_min to N_max on the geometric grid, N_max included,
// duplicates (small N) removed. Sorted.
std::vector<int> CandidateNs(const AdaptiveSettings& settings);

enum class SearchState { kRunning, kPrecise, kBudget, kBelowRange, kAboveRange };
const char* SearchStateName(SearchState state);  // "running", "precise", "budget", ...

struct ThresholdEstimate {
  double median = 0, lo = 0, hi = 0;  // N* and its 95 % credible interval
  double RelativeWidth() const { return (hi - lo) / median; }
};

class PsiSearch {
 public:
  explicit PsiSearch(const AdaptiveSettings& settings);

  struct Round {
    size_t candidate = 0;  // index into candidates()
    int first_trial = 0;   // the round's trial indices: first_trial, first_trial + 1, ...
    int trials = 0;
  };
  // The next round, or nothing when the search has stopped (state() says why).
  std::optional<Round> Next();
  // The outcomes of the round Next() gave, in trial order.
  void Observe(size_t candidate, const std::vector<bool>& outcomes);

  SearchState state() const { return state_; }
  int trials_used() const { return used_; }
  // N* and its 95 % interval as the analysis reports them (the stop rule's quantity): the
  // logistic fit with its bootstrap; infinite ends when the interval leaves the range.
  ThresholdEstimate Estimate() const;
  // The posterior's median and 95 % credible interval of the threshold.
  ThresholdEstimate Posterior() const;
  const std::vector<int>& candidates() const { return candidates_; }

 private:
  std::vector<double> ThresholdMarginal(const std::vector<double>& weights) const;
  double ExpectedEntropy(size_t candidate) const;  // after one round there
  void UpdateState();

  AdaptiveSettings settings_;
  std::vector<int> candidates_;
  std::vector<double> theta_;                 // threshold grid, log N
  std::vector<double> slope_;                 // slope grid, per unit of log N
  std::vector<double> posterior_;             // [theta][slope], normalized
  std::vector<std::vector<double>> success_;  // [candidate][theta * slopes + slope]
  std::vector<std::vector<std::vector<double>>> round_likelihood_;  // [candidate][successes][.]
  std::vector<SeriesCell> cells_;  // per candidate: the trials run there
  ThresholdEstimate analysis_;     // the analysis's interval over cells_
  int used_ = 0;
  SearchState state_ = SearchState::kRunning;
};

}  // namespace pmoe
