// The monotone success curve across N: P(success | N) = 1 / (1 + exp(-(a + b log N))), fitted
// by maximum likelihood to (N, successes, trials) points with a weak ridge penalty, which keeps
// the fit finite when the data separate perfectly (all failures, then all successes).
#pragma once

#include <vector>

namespace pmoe {

struct SuccessPoint {
  double N = 0;
  double successes = 0;  // weighted counts: bootstrap replicates repeat trials
  double trials = 0;
};

struct LogisticCurve {
  double a = 0, b = 0;  // in log N
  bool converged = false;

  double Probability(double N) const;
  // The N at which the curve reaches `threshold`; +inf when the curve does not rise (b <= 0).
  double Crossing(double threshold) const;
};

LogisticCurve FitLogistic(const std::vector<SuccessPoint>& points);

}  // namespace pmoe
