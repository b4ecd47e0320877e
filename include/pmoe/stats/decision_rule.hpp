// The one decision rule of pmoe-sim: a claim's interval against the effect size it requires.
// Precision targets (sweeps/precision) and the claim pages (analysis/python/pmoe/report/
// decision.py, the same rule in Python) decide with it, so a quick page, a reference page and a
// precision run read the same verdict from the same interval. tests/support/decision_cases.tsv
// holds both implementations to the same answers.
#pragma once

namespace pmoe {

// kShown: the interval lies strictly on the claimed side of the threshold (the effect is shown).
// kExcluded: it lies strictly on the other side (the effect the claim needs is excluded).
// kWithin: it holds the threshold but is no wider than half_width either side of the estimate
// (as precise as asked, the effect neither shown nor excluded). kOpen: none of these.
// kUntestable: an end or the estimate is NaN (no interval).
enum class Decision { kShown, kExcluded, kWithin, kOpen, kUntestable };

// "shown", "excluded", "within", "open", "untestable"
const char* DecisionName(Decision decision);

// The claimed side of the threshold: the quantity is above it (a growth, a level reached), or
// below it (a fall, a share under one).
enum class Side { kAbove, kBelow };

// The rule. Infinite ends are allowed (an open bootstrap end, a bound): [lo, +inf] with lo above
// the threshold shows an effect. half_width <= 0 turns "within" off.
Decision Decide(double estimate, double lo, double hi, double threshold, Side side,
                double half_width);

}  // namespace pmoe
