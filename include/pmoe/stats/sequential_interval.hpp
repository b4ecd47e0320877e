// The error control of a precision target (docs/results/precision-targets.md): a fixed schedule of
// at most K looks, alpha spent across them, and at each look an interval at that look's level.
// A wrong decision at some look needs the interval of that look to miss the true value, which
// happens with probability at most alpha_k; so over all looks, whatever the stopping, the
// probability of any wrong decision is at most sum alpha_k = alpha (Bonferroni over the looks:
// no assumption on how the looks' statistics are correlated, unlike a Pocock or O'Brien-Fleming
// boundary, at the price of being conservative).
#pragma once

#include <limits>
#include <vector>

namespace pmoe {

// +inf: a statistic's value, or an interval's end, where nothing bounds it.
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Total trials (over all cells) at each look: geometric from `first` to `budget`, `looks` of
// them, strictly increasing, the last exactly the budget (fewer looks when the budget is close to
// `first`).
std::vector<int> LookTotals(int first, int budget, int looks);

// Alpha spent at each look, in proportion to the trials the look adds (linear spending in the
// information fraction, Lan and DeMets 1983): alpha * (n_k - n_{k-1}) / budget, n_0 = 0. Most of
// alpha goes to the late looks, where the close calls are made; the sum is alpha exactly.
std::vector<double> AlphaSpending(const std::vector<int>& totals, double alpha);

// Phi^{-1}(p) for 0 < p < 1 (Acklam's rational approximation refined by one Halley step: relative
// error below 1e-13).
double NormalQuantile(double p);

struct DecisionInterval {
  double estimate = 0, lo = 0, hi = 0;
};

// The quantile p of Student's t with `df` degrees of freedom (boost::math); Phi^{-1} when
// df <= 0.
double StudentQuantile(double p, double df);

// The two-sided interval of level 1 - alpha around `estimate` from bootstrap replicates:
// estimate - z s_lo, estimate + z s_hi, with z = StudentQuantile(1 - alpha / 2, df) and s_lo, s_hi
// the replicates' half-spreads below and above their median (median - 15.87 % quantile, 84.13 %
// quantile - median). The spreads come from the body of the bootstrap distribution, so the far
// tails that small alphas need do not rest on a handful of replicates. A replicate in which the
// statistic cannot be computed (NaN) counts as -inf for the lower quantile and +inf for the upper
// one; an infinite estimate or spread gives an infinite end (never a decision on it).
// Why Student's t and not the normal: a bootstrap from few trials per cell underestimates the
// spread (its replicates never leave the few values seen); with df = (fewest trials in a cell) - 1
// the interval widens as a t interval does. Without it the rule erred in 18 % of the runs at the
// threshold (docs/results/precision-targets.md).
DecisionInterval RobustInterval(double estimate, const std::vector<double>& replicates,
                                double alpha, double df = 0);

}  // namespace pmoe
