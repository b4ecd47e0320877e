// The one decision rule (decision_rule.hpp): an interval against a claim's effect size.
#include "pmoe/stats/decision_rule.hpp"

#include <cmath>

namespace pmoe {

const char* DecisionName(Decision decision) {
  switch (decision) {
    case Decision::kShown:
      return "shown";
    case Decision::kExcluded:
      return "excluded";
    case Decision::kWithin:
      return "within";
    case Decision::kOpen:
      return "open";
    case Decision::kUntestable:
      return "untestable";
  }
  return "?";
}

Decision Decide(double estimate, double lo, double hi, double threshold, Side side,
                double half_width) {
  if (std::isnan(estimate) || std::isnan(lo) || std::isnan(hi) || std::isnan(threshold))
    return Decision::kUntestable;
  // Strict on both sides: an interval that touches the threshold has not excluded it.
  const bool above = lo > threshold, below = hi < threshold;
  if (above || below) {
    const bool claimed = side == Side::kAbove ? above : below;
    return claimed ? Decision::kShown : Decision::kExcluded;
  }
  const bool narrow = half_width > 0 && hi - estimate <= half_width && estimate - lo <= half_width;
  return narrow ? Decision::kWithin : Decision::kOpen;
}

}  // namespace pmoe
