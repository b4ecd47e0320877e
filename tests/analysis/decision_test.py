"""The one decision rule (pmoe.report.decision): the shared cases that the C++ rule of the
precision targets passes too (tests/support/decision_cases.tsv, tests/precision/
decision_rule_test.cpp), and the claim conditions of both papers read through it."""
import math
import os

import pytest

from pmoe.report import decision, rules

CASES = os.path.join(os.path.dirname(__file__), "..", "support", "decision_cases.tsv")


def shared_cases():
    with open(CASES) as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    return [(tuple(float(v) for v in r[:4]), r[4], float(r[5]), r[6]) for r in rows]


@pytest.mark.parametrize("numbers,side,half_width,expected", shared_cases())
def test_shared_case(numbers, side, half_width, expected):
    assert decision.decide(*numbers, side=side, half_width=half_width) == expected


def test_the_shared_table_covers_every_decision():
    seen = {c[3] for c in shared_cases()}
    assert seen == {decision.SHOWN, decision.EXCLUDED, decision.WITHIN, decision.OPEN,
                    decision.UNTESTABLE}


def test_the_estimate_alone_decides_nothing():
    # The main job's former "supported": 0.32 [0.11, 0.75] against the effect size 0.2.
    assert rules.at_least(0.32, 0.11, 0.75, 0.2) == rules.OPEN
    assert rules.at_least(0.32, 0.21, 0.75, 0.2) == rules.HOLDS
    assert rules.at_least(0.009, -0.105, 0.108, 0.2) == rules.FAILS


def test_levels_and_falls_read_the_same_rule():
    assert rules.level_at_least(0.951, 0.99, 0.95) == rules.HOLDS
    assert rules.level_at_least(0.95, 0.99, 0.95) == rules.OPEN      # touching is not excluding
    assert rules.level_at_least(0.90, 0.94, 0.95) == rules.FAILS
    assert rules.level_below(0.20, 0.30, 0.35) == rules.HOLDS
    assert rules.at_most(-0.05, -0.08, -0.02, 0.01) == rules.HOLDS
    assert rules.at_most(-0.005, -0.02, 0.01, 0.01) == rules.OPEN
    assert rules.at_most(0.01, 0.0, 0.02, 0.01) == rules.FAILS
    assert rules.at_least(math.nan, 0.1, 0.3, 0.2) == rules.UNTESTABLE


def test_bounds_are_open_intervals():
    assert decision.decide(math.inf, 1536, math.inf, 2.0) == decision.SHOWN
    assert decision.decide(0.5, None, 0.7, 0.2) == decision.UNTESTABLE


def test_a_side_is_named():
    with pytest.raises(ValueError, match="side"):
        decision.decide(0.3, 0.2, 0.4, 0.1, side="up")
