"""What every claim rule shares (claims.py for Chowdhury et al., chen_claims.py for Chen et al.):
the verdicts, the Finding a rule returns, the decisions of one condition against an effect size,
the data-sufficiency test, and the combination of a rule's conditions into its verdict.

A rule is a list of conditions. Each condition is decided from a measured value with its 95 %
interval against the effect size the rule states, by the one decision rule of every page and
precision target (pmoe.report.decision):
    HOLDS      the interval lies beyond the effect size, on the claimed side
    FAILS      the interval lies on the other side of it: the effect is excluded
    UNDECIDED  neither: more trials would tell
    UNTESTABLE the data cannot test it (too few trials, an estimate outside the grid, a cell
               missing)
and the verdict is "not supported" when any condition fails, "not testable" when none fails but
one cannot be tested, "undecided" when none fails or is untestable but one is undecided, and
"supported" only when every condition holds. Too little evidence therefore never reads as
"supported". An exception inside a rule is the verdict "error" with its message."""
import math
import os
from dataclasses import dataclass, field

from pmoe import paths
from pmoe.report import decision

SUPPORTED, NOT_SUPPORTED, NOT_TESTABLE = "supported", "not supported", "not testable"
UNDECIDED, ERROR, NOT_RUN = "undecided", "error", "not run"
HOLDS, FAILS, OPEN, UNTESTABLE = "holds", "fails", "undecided", "untestable"

# Data sufficiency: a compared cell needs this many ok trials (paired where two are compared);
# a paired bootstrap over fewer trial indices has at most 10 distinct resamples.
MIN_TRIALS = 3


@dataclass
class Finding:
    data: str                      # the data set, e.g. "pattern model" or "Fashion-MNIST"
    source: str                    # the result file's sweep name
    verdict: str
    reason: str
    numbers: list = field(default_factory=list)   # (quantity, value) rows
    figures: list = field(default_factory=list)   # (caption, png path)
    budget_note: str = ""          # estimates flagged for their training budget
    config: str = ""               # the config's path and text, as the result file recorded them
    config_text: str = ""
    conditions: list = field(default_factory=list)  # (condition, outcome, why)
    scale: str = ""                # trials per cell and axis ranges the verdict was reached at
    reference: list = field(default_factory=list)   # (verdict, source, scale, why they differ)

    def check(self, name, outcome, why=""):
        """Records one condition's outcome (HOLDS, FAILS, OPEN, UNTESTABLE)."""
        self.conditions.append((name, outcome, why))
        return outcome

    def conclude(self, supported_reason):
        """The verdict from the recorded conditions (see the module's docstring); the reason
        names the conditions that decided it."""
        outcomes = [o for _, o, _ in self.conditions]

        def named(outcome):
            return "; ".join(f"{n}: {w}" if w else n for n, o, w in self.conditions
                             if o == outcome)
        if not outcomes:
            self.verdict, self.reason = NOT_TESTABLE, self.reason or "no condition could be read"
        elif FAILS in outcomes:
            self.verdict, self.reason = NOT_SUPPORTED, named(FAILS)
        elif UNTESTABLE in outcomes:
            self.verdict, self.reason = NOT_TESTABLE, named(UNTESTABLE)
        elif OPEN in outcomes:
            self.verdict, self.reason = UNDECIDED, named(OPEN)
        else:
            self.verdict, self.reason = SUPPORTED, supported_reason
        return self


def fmt(v, digits=3):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    return f"{v:.{digits}g}"


def interval(v, lo, hi, digits=3):
    return f"{fmt(v, digits)} [{fmt(lo, digits)}, {fmt(hi, digits)}]"


def figure_path(workdir, ev, stem):
    os.makedirs(workdir, exist_ok=True)
    return os.path.join(workdir, f"{paths.component(ev.name)}_{stem}.png")


def finite(*values):
    return all(v is not None and isinstance(v, (int, float)) and math.isfinite(v)
               for v in values)


# A decision (pmoe.report.decision, the one rule) as a condition's outcome.
OUTCOME = {decision.SHOWN: HOLDS, decision.EXCLUDED: FAILS, decision.WITHIN: OPEN,
           decision.OPEN: OPEN, decision.UNTESTABLE: UNTESTABLE}


def at_least(value, lo, hi, effect):
    """The claim "the quantity is at least `effect`" (a growth, a gain): HOLDS when its interval
    lies above the effect size, FAILS when it lies below it, OPEN when it holds it, UNTESTABLE
    without an interval (the one decision rule, pmoe.report.decision)."""
    return OUTCOME[decision.decide(value, lo, hi, effect, decision.ABOVE)]


def at_most(value, lo, hi, effect):
    """The claim "the quantity is at most -`effect`" (a fall of at least effect)."""
    return OUTCOME[decision.decide(value, lo, hi, -effect, decision.BELOW)]


def level_at_least(lo, hi, level, estimate=None):
    """The claim "the mean is at least `level`": HOLDS when the interval lies above it, FAILS
    when it lies below it, OPEN when it holds it."""
    return OUTCOME[decision.decide(lo if estimate is None else estimate, lo, hi, level,
                                   decision.ABOVE)]


def level_below(lo, hi, level, estimate=None):
    """The claim "the mean is below `level`"."""
    return OUTCOME[decision.decide(hi if estimate is None else estimate, lo, hi, level,
                                   decision.BELOW)]


def trials_with_values(*columns):
    """How many trial indices have a value in every given per-trial column (NaN: none)."""
    import numpy as np
    ok = np.ones(len(columns[0]), dtype=bool)
    for c in columns:
        ok &= ~np.isnan(c)
    return int(ok.sum())


def enough(finding, name, *columns):
    """Records UNTESTABLE for `name` and returns False when fewer than MIN_TRIALS trial indices
    have every value."""
    n = trials_with_values(*columns)
    if n < MIN_TRIALS:
        finding.check(name, UNTESTABLE, f"{n} trial(s) with values, the rule needs "
                                        f"{MIN_TRIALS}")
        return False
    return True


def run_rule(fn, ev, workdir, data_label):
    """fn(ev, workdir) -> Finding, or the verdict "error" with the exception's message: a rule
    that raises is a bug or data it does not understand, and the page says so in red."""
    try:
        return fn(ev, workdir)
    except Exception as e:  # shown on the page, and the script exits non-zero
        return Finding(data_label, ev.name, ERROR,
                       f"the rule raised {type(e).__name__}: {e}")
