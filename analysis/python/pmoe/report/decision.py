"""The one decision rule of pmoe-sim, as the claim pages read it: an interval against the effect
size a claim requires. The precision targets decide with the same rule in C++
(include/pmoe/stats/decision_rule.hpp); tests/support/decision_cases.tsv holds both to the same
answers, so a quick page, a reference page and a precision run give one verdict on one interval.

    shown       the interval lies strictly on the claimed side of the threshold
    excluded    it lies strictly on the other side: the effect the claim needs is excluded
    within      it holds the threshold and is no wider than half_width either side of the
                estimate (as precise as asked; the effect neither shown nor excluded)
    open        none of these: more trials would tell
    untestable  the estimate or an end is missing (NaN, None)

Infinite ends are allowed (an open bootstrap end, a bound: "> 1536" is [1536, inf])."""
import math

SHOWN, EXCLUDED, WITHIN, OPEN, UNTESTABLE = "shown", "excluded", "within", "open", "untestable"
ABOVE, BELOW = "above", "below"


def _number(v):
    if v is None:
        return math.nan
    return float(v)


def decide(estimate, lo, hi, threshold, side=ABOVE, half_width=0.0):
    """The decision of [lo, hi] (with its estimate) against `threshold` for a claim that the
    quantity lies on `side` (ABOVE or BELOW) of it."""
    if side not in (ABOVE, BELOW):
        raise ValueError(f"side {side!r}: expected {ABOVE!r} or {BELOW!r}")
    estimate, lo, hi, threshold = map(_number, (estimate, lo, hi, threshold))
    if any(math.isnan(v) for v in (estimate, lo, hi, threshold)):
        return UNTESTABLE
    # Strict on both sides: an interval that touches the threshold has not excluded it.
    above, below = lo > threshold, hi < threshold
    if above or below:
        return SHOWN if (above if side == ABOVE else below) else EXCLUDED
    narrow = half_width > 0 and hi - estimate <= half_width and estimate - lo <= half_width
    return WITHIN if narrow else OPEN

