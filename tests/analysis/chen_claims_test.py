#!/usr/bin/python3
"""The rules of Chen et al.'s claims (pmoe.report.chen_claims) on made-up evidence whose
verdict is known: each rule must say supported where its conditions hold, and not supported (or
not testable) where one fails. Run by the Catch2 test "[report][chen]"; also on its own:
/usr/bin/python3 tests/analysis/chen_claims_test.py"""
import math
import os
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "analysis", "python"))
from pmoe.report import chen_claims  # noqa: E402
from pmoe.report import declarations  # noqa: E402
from pmoe.report import evidence  # noqa: E402
sys.path.insert(0, HERE)
from fake_rows import Statistics  # noqa: E402

evidence.BOOTSTRAP = 200
TRIALS = 6
SETTINGS = [("3", "1"), ("3", "2"), ("2", "1"), ("2", "2")]
MODELS = [("single", "linear"), ("single", "cubic"), ("switch", "linear"), ("switch", "cubic")]


class FakeEvidence(Statistics):
    """Cells of the published table with per-trial values given by a function of the cell; the
    claims' statistics from pmoe-analyze statistic on the cells written to a file."""

    def __init__(self, value, variants=("published",), sample_complexity=None, noise=0.002):
        self.name, self.path, self.trials_per_cell = "fake", "fake.h5", TRIALS
        self.config_text = declarations.shipped(
            *(f"chen/{name}.ini" for name in ("chen_table", "chen_curves", "chen_vs_N",
                                              "chen_variants")))
        self.config_path = ""
        self.cells, self.values = [], []
        self._sc = sample_complexity
        rng = np.random.default_rng(3)
        for gamma, sigma in SETTINGS:
            for kind, act in MODELS:
                for variant in (variants if kind == "switch" else ("published",)):
                    cell = {"data.gamma_hi": gamma, "data.sigma_p": sigma, "model.kind": kind,
                            "model.activation": act, "data.clusters": "4"}
                    if kind == "switch":
                        cell["model.variant"] = variant
                    self.cells.append(cell)
                    acc, ent = value(chen_claims.setting_of(cell), kind, act, variant)
                    # Spread > the default: a fixed pattern rotated per cell, so paired
                    # differences vary and the intervals are wide but never a chance draw.
                    jitter = (rng.normal(0, noise, TRIALS) if noise <= 0.002 else
                              noise * np.roll([1.0, -1.0, 0.5, -0.5, 0.2, -0.2],
                                              len(self.cells)))
                    self.values.append({"test_acc": np.clip(acc + jitter, 0, 1),
                                        "dispatch_entropy": np.abs(ent + jitter)})

    def per_trial(self, cell, column):
        return self.values[cell][column]

    def sample_complexity(self):
        return self._sc


def published(setting, kind, act, variant):
    """Numbers shaped like the paper's Table 3."""
    if kind == "single":
        return (0.70 if act == "linear" else 0.75), math.nan
    if act == "linear":
        return 0.93, 1.2
    return 0.99, 0.05


class ChenClaimRules(unittest.TestCase):
    def verdict(self, fn, ev):
        with tempfile.TemporaryDirectory() as workdir:
            return fn(ev, workdir).verdict

    def test_table_claims_hold_on_the_papers_numbers(self):
        ev = FakeEvidence(published)
        for fn in (chen_claims.claim_1, chen_claims.claim_2, chen_claims.claim_3):
            self.assertEqual(self.verdict(fn, ev), "supported", fn.__name__)

    def test_a_single_model_that_learns_the_task_breaks_claim_1(self):
        def value(setting, kind, act, variant):
            if setting == 3 and kind == "single" and act == "cubic":
                return 0.97, math.nan
            return published(setting, kind, act, variant)
        self.assertEqual(self.verdict(chen_claims.claim_1, FakeEvidence(value)), "not supported")

    def test_a_linear_moe_that_separates_clusters_breaks_claim_2(self):
        def value(setting, kind, act, variant):
            if setting == 2 and kind == "switch" and act == "linear":
                return 0.93, 0.1
            return published(setting, kind, act, variant)
        self.assertEqual(self.verdict(chen_claims.claim_2, FakeEvidence(value)), "not supported")

    def test_a_cubic_moe_that_mixes_clusters_or_fails_breaks_claim_3(self):
        for bad in ((0.99, 0.8), (0.90, 0.05)):
            def value(setting, kind, act, variant, bad=bad):
                if setting == 4 and kind == "switch" and act == "cubic":
                    return bad
                return published(setting, kind, act, variant)
            self.assertEqual(self.verdict(chen_claims.claim_3, FakeEvidence(value)),
                             "not supported", bad)

    def test_claim_6_needs_the_gap_under_both_variants(self):
        def gap_in_code_only(setting, kind, act, variant):
            if kind == "switch" and variant == "paper":
                return 0.99, (1.0 if act == "linear" else 0.0)
            return published(setting, kind, act, variant)
        both = FakeEvidence(published, variants=("published", "paper"))
        code_only = FakeEvidence(gap_in_code_only, variants=("published", "paper"))
        self.assertEqual(self.verdict(chen_claims.claim_6, both), "supported")
        self.assertEqual(self.verdict(chen_claims.claim_6, code_only), "not supported")

    def test_claim_5_reads_n_acc_and_its_bounds(self):
        def row(kind, act, grid, n_acc=None, lo=None, hi=None):
            return {"series": f"model.kind={kind}, model.activation={act}", "acc_grid": grid,
                    "N_acc": n_acc, "acc_lo": lo, "acc_hi": hi, "N_min": 250, "N_max": 4000}
        others_above = [row("switch", "linear", "above"), row("single", "linear", "above"),
                        row("single", "cubic", "above")]
        fast = row("switch", "cubic", "inside", 300, 250, 370)
        ev = FakeEvidence(published, sample_complexity={"nstar": [fast] + others_above})
        self.assertEqual(self.verdict(chen_claims.claim_5, ev), "supported")
        overlapping = others_above[:2] + [row("single", "cubic", "inside", 350, 320, 500)]
        ev = FakeEvidence(published, sample_complexity={"nstar": [fast] + overlapping})
        self.assertEqual(self.verdict(chen_claims.claim_5, ev), "undecided")
        needs_more = others_above[:2] + [row("single", "cubic", "inside", 150, 100, 200)]
        ev = FakeEvidence(published, sample_complexity={"nstar": [fast] + needs_more})
        self.assertEqual(self.verdict(chen_claims.claim_5, ev), "not supported")
        ev = FakeEvidence(published, sample_complexity={
            "nstar": [row("switch", "cubic", "above")] + others_above})
        self.assertEqual(self.verdict(chen_claims.claim_5, ev), "not testable")


class ChenRulesSayEveryVerdict(unittest.TestCase):
    """Undecided on noisy evidence straddling a threshold, not testable on too few trials."""

    def verdict(self, fn, ev):
        with tempfile.TemporaryDirectory() as workdir:
            return fn(ev, workdir).verdict

    def test_undecided_when_the_interval_straddles(self):
        def close(setting, kind, act, variant):
            if kind == "single":  # single models at 0.95 on average, noisy
                return 0.95, math.nan
            if act == "linear":
                return 0.98, 0.347  # entropy at log 4 / 4, a gap of 0.01 to the cubic
            return 0.99, 0.347
        ev = FakeEvidence(close, variants=("published", "paper"), noise=0.03)
        for fn in (chen_claims.claim_1, chen_claims.claim_2, chen_claims.claim_3,
                   chen_claims.claim_6):
            self.assertEqual(self.verdict(fn, ev), "undecided", fn.__name__)

    def test_not_testable_on_too_few_trials(self):
        ev = FakeEvidence(published, variants=("published", "paper"))
        for values in ev.values:
            for column in values.values():
                column[2:] = math.nan
        for fn in (chen_claims.claim_1, chen_claims.claim_2, chen_claims.claim_3,
                   chen_claims.claim_6):
            self.assertEqual(self.verdict(fn, ev), "not testable", fn.__name__)

    def test_claim_4_on_curves(self):
        def curves_ev(cubic_last, linear_last, trials=TRIALS, sd=0.01):
            ev = FakeEvidence(published)
            ev.columns = {"curve_entropy": None}
            ev.cell_of = np.repeat(np.arange(len(ev.cells)), trials)
            ev.status = np.zeros(len(ev.cell_of), dtype=int)
            lists = []
            for row, cell in enumerate(ev.cell_of):
                act = ev.cells[cell]["model.activation"]
                last = cubic_last if act == "cubic" else linear_last
                spread = sd * (1 if row % 2 else -1) * (1 + row % 3) / 3  # symmetric, fixed
                lists.append(np.array([1.2, (1.2 + last) / 2, last + spread]))
            ev.lists = {"curve_entropy": lists,
                        "curve_step": [np.arange(3.0) for _ in lists]}
            return ev
        cases = [((0.05, 1.2), "supported"), ((0.9, 1.2), "not supported"),
                 ((0.347, 1.2, TRIALS, 0.3), "undecided"), ((0.05, 1.2, 2), "not testable")]
        for args, expected in cases:
            self.assertEqual(self.verdict(chen_claims.claim_4, curves_ev(*args)), expected, args)

    def test_a_file_without_declarations_is_not_testable(self):
        ev = FakeEvidence(published)
        ev.config_text = "[grid]\nN = 100\n"
        for fn in (chen_claims.claim_1, chen_claims.claim_2, chen_claims.claim_3,
                   chen_claims.claim_5, chen_claims.claim_6):
            f = fn(ev, tempfile.mkdtemp())
            self.assertEqual(f.verdict, "not testable", fn.__name__)
            self.assertIn("[claims]", f.reason)


if __name__ == "__main__":
    unittest.main()
