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
from pmoe.report import evidence  # noqa: E402

evidence.BOOTSTRAP = 200
TRIALS = 6
SETTINGS = [("3", "1"), ("3", "2"), ("2", "1"), ("2", "2")]


class FakeEvidence:
    """Cells of the published table with per-trial values given by a function of the cell."""

    def __init__(self, value, variants=("published",), sample_complexity=None):
        self.name, self.path, self.trials_per_cell = "fake", "fake.h5", TRIALS
        self.cells, self.values = [], []
        self._sc = sample_complexity
        rng = np.random.default_rng(3)
        for gamma, sigma in SETTINGS:
            for kind, act in chen_claims.MODELS:
                for variant in (variants if kind == "switch" else ("published",)):
                    cell = {"data.gamma_hi": gamma, "data.sigma_p": sigma, "model.kind": kind,
                            "model.activation": act, "data.clusters": "4"}
                    if kind == "switch":
                        cell["model.variant"] = variant
                    self.cells.append(cell)
                    acc, ent = value(chen_claims.setting_of(cell), kind, act, variant)
                    noise = rng.normal(0, 0.002, TRIALS)
                    self.values.append({"test_acc": np.clip(acc + noise, 0, 1),
                                        "dispatch_entropy": np.abs(ent + noise)})

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
        self.assertEqual(self.verdict(chen_claims.claim_5, ev), "not supported")
        ev = FakeEvidence(published, sample_complexity={
            "nstar": [row("switch", "cubic", "above")] + others_above})
        self.assertEqual(self.verdict(chen_claims.claim_5, ev), "not testable")


if __name__ == "__main__":
    unittest.main()
