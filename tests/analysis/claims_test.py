"""The rules of Chowdhury et al.'s claims (pmoe.report.claims) on made-up evidence: for every rule,
evidence on which it must say each verdict it can say (supported, not supported, undecided, not
testable), and the cases issue 27 names: (a) with an unknown share and a significant accuracy
deficit is "not supported"; (g)'s realized-l* check fails; (f)'s second condition does not pass
on thin data; (c) needs an effect size; a rule that raises is an error on the page and a
non-zero exit."""
import math
import sys

import numpy as np
import pytest

import synthetic
from fake_rows import Statistics
from pmoe.report import claims, declarations, evidence, paper_report, rules
from pmoe.report.evidence import Evidence

evidence.BOOTSTRAP = 200
TRIALS = 8


class StubFigures:
    """The figure functions, drawing nothing: the rules' verdicts are under test, not pictures."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: False


@pytest.fixture(autouse=True)
def no_figures(monkeypatch):
    monkeypatch.setattr(claims, "figures", StubFigures())


# The declarations of the pattern model's configs, one per claim (ids a.*, b, c, d, e.*, f, g).
DECLARED = declarations.shipped("paper/a_models_vs_N.ini", "paper/b_separate_l.ini",
                                "paper/c_joint_l.ini", "paper/d_router_separate.ini",
                                "paper/e_router_joint.ini", "paper/f_ratio_n.ini",
                                "paper/g_lemma41.ini")


class Fake(Statistics):
    """Cells (parameter dicts) with per-trial columns, and pmoe-analyze's tables as given; the
    claims' statistics from pmoe-analyze statistic on the cells written to a file; the shipped
    configs' claim declarations unless `config` is given."""

    def __init__(self, cells, sc=None, exponents=None, name="fake", trials=TRIALS, shares=None,
                 config=DECLARED):
        self.config_text, self.config_path = config, ""
        self.exponent_calls, self.statistic_calls, self.exponent_stats = [], [], {}
        self.cells = [{k: str(v) for k, v in c.items() if k != "values"} for c in cells]
        self.values = [c["values"] for c in cells]
        self.name, self.trials_per_cell = name, trials
        self.sc, self.exp = sc or {"ratios": [], "nstar": []}, exponents or {}
        self.shares = shares or {}

    def statistic(self, target, **kwargs):
        # A sample share as given, like the tables: made-up accuracies rarely cross 0.95 where
        # a share needs them to; an exponent as given (no number unless given: the page then
        # decides on the table's fit); every other statistic from the rows, as a page computes it.
        if target == "share":
            return self.shares[kwargs["model"]]
        if target in ("exponent", "ratio_exponent"):
            self.statistic_calls.append((target, kwargs))
            return self.exponent_stats.get(target, {"estimate": math.nan, "lo": -math.inf,
                                                    "hi": math.inf})
        return Statistics.statistic(self, target, **kwargs)

    cells_where = Evidence.cells_where

    def per_trial(self, cell, column):
        return np.asarray(self.values[cell][column], dtype=float)

    def sample_complexity(self, axis=None):
        return self.sc

    def exponent(self, axis, start=None, where=None):
        self.exponent_calls.append((axis, where))
        return self.exp

    def summary(self):
        return []


def around(mean, sd, seed, n=TRIALS):
    return mean + np.random.default_rng(seed).normal(0, sd, n)


def verdict(fn, ev, tmp_path):
    return fn(ev, str(tmp_path)).verdict


# (a) ---------------------------------------------------------------------------------------------
def share_row(kind, share=None, lo=None, hi=None, bound=""):
    return {"reading": "mean_accuracy", "ratio": f"cnn/{kind}", "bound": bound,
            "N_star_ratio": 1 / share if share else None, "lo": 1 / hi if hi else None,
            "hi": 1 / lo if lo else None, "flag": False}


def evidence_a(gain, sd, shares):
    cells = []
    for N in (100, 200, 400):
        base = around(0.8, 0.02, N)
        cells.append({"N": N, "model.kind": "cnn", "values": {"test_acc": base}})
        for j, kind in enumerate(("separate", "joint")):
            cells.append({"N": N, "model.kind": kind,
                          "values": {"test_acc": base + around(gain, sd, N + j)}})
    share = {"estimate": shares.get("share") or math.nan, "lo": shares.get("lo") or -math.inf,
             "hi": shares.get("hi") or math.inf}
    return Fake(cells, sc={"ratios": [share_row(k, **shares) for k in ("separate", "joint")],
                           "nstar": []}, shares={"separate": share, "joint": share})


SHARE_60 = dict(share=0.6, lo=0.5, hi=0.7)


@pytest.mark.parametrize("gain, sd, shares, expected", [
    (0.05, 0.005, SHARE_60, "supported"),
    (0.05, 0.005, dict(share=1.1, lo=1.0, hi=1.3), "not supported"),   # needs more samples
    (0.003, 0.001, SHARE_60, "not supported"),                        # gain too small (effect)
    (0.05, 0.005, dict(bound="n/a"), "not testable"),                # share unknown
    (-0.06, 0.02, dict(bound="n/a"), "not supported"),               # issue 27: deficit, no share
    (0.005, 0.05, dict(share=0.8, lo=0.5, hi=1.2), "undecided"),
])
def test_rule_a(tmp_path, gain, sd, shares, expected):
    assert verdict(claims.claim_a, evidence_a(gain, sd, shares), tmp_path) == expected


def test_rule_a_needs_three_trials(tmp_path):
    ev = evidence_a(0.05, 0.005, SHARE_60)
    for v in ev.values:
        v["test_acc"][2:] = math.nan
    f = claims.claim_a(ev, str(tmp_path))
    assert f.verdict == "not testable" and "3 paired trials" in f.reason


# (b) ---------------------------------------------------------------------------------------------
def exponent_row(series, value, lo, hi, points=4, reading="mean_accuracy"):
    return {"series": series, "reading": reading, "exponent": value, "lo": lo, "hi": hi,
            "points": points, "theory": 8.0}


def theorem_row(*args, **kwargs):
    return exponent_row(*args, reading=claims.THEOREM_READING, **kwargs)


@pytest.mark.parametrize("row, expected", [
    (theorem_row("all", 0.6, 0.3, 0.9), "supported"),
    (theorem_row("all", 0.05, -0.05, 0.15), "not supported"),  # growth below the effect size
    (theorem_row("all", 0.3, -0.1, 0.7), "undecided"),
    (theorem_row("all", 0.6, 0.3, 0.9, points=2), "not testable"),
    (exponent_row("all", 0.6, 0.3, 0.9), "not testable"),  # N_acc alone does not decide
])
def test_rule_b(tmp_path, row, expected):
    ev = Fake([{"N": 100, "model.l": 4, "data.l_star": 4, "model.kind": "separate",
                "values": {}}], exponents={"exponents": [row], "ratios": []})
    assert verdict(claims.claim_b, ev, tmp_path) == expected


def test_rule_b_outside_lemma_41(tmp_path):
    ev = Fake([{"N": 100, "model.l": 4, "data.l_star": 4, "model.kind": "separate",
                "data.n": 16, "data.delta_d": 0.2, "model.router_N": 0, "values": {}}],
              exponents={"exponents": [theorem_row("all", 0.6, 0.3, 0.9)], "ratios": []})
    f = claims.claim_b(ev, str(tmp_path))
    assert f.verdict == "not testable" and "Lemma 4.1" in f.reason  # 100 < 16^2 / 0.64 = 400


# (c) ---------------------------------------------------------------------------------------------
def evidence_c(slope, sd, trials=TRIALS):
    cells = []
    for N in (200, 400):
        for j, l in enumerate((4, 8, 16)):
            acc = 0.9 + slope * math.log(l) + around(0, sd, N + j, trials)
            cells.append({"N": N, "model.l": l, "data.l_star": 4, "model.kind": "joint",
                          "values": {"test_acc": acc}})
    return Fake(cells, name="c_joint_l", trials=trials)


@pytest.mark.parametrize("slope, sd, expected", [
    (-0.05, 0.002, "supported"),
    (0.03, 0.002, "not supported"),     # rises
    (-0.003, 0.0005, "not supported"),  # issue 27: -0.003 per log l is below the effect size
    (-0.01, 0.03, "undecided"),
])
def test_rule_c(tmp_path, slope, sd, expected):
    assert verdict(claims.claim_c, evidence_c(slope, sd), tmp_path) == expected


def test_rule_c_not_testable_on_too_few_trials(tmp_path):
    assert verdict(claims.claim_c, evidence_c(-0.05, 0.002, trials=2), tmp_path) == \
        "not testable"


# (d), (e) ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("hit, sd, trials, expected", [
    (1.0, 0.0, TRIALS, "supported"), (0.90, 0.005, TRIALS, "not supported"),
    ("straddling", 0, TRIALS, "undecided"), (1.0, 0.0, 2, "not testable")])
def test_rule_d(tmp_path, hit, sd, trials, expected):
    def hits(n):
        if hit == "straddling":  # mean 0.96, trials 0.92 and 1.0: the interval holds 0.95
            return np.array([0.92, 1.0] * (trials // 2))
        return np.clip(around(hit, sd, n, trials), 0, 1)
    ev = Fake([{"model.router_N": n, "values": {"router_hit": hits(n)}} for n in (100, 300)],
              trials=trials)
    assert verdict(claims.claim_d, ev, tmp_path) == expected


@pytest.mark.parametrize("pos, neg, sd, expected", [
    (0.99, 0.97, 0.002, "supported"), (0.99, 0.85, 0.002, "not supported"),
    (0.95, 0.97, 0.03, "undecided")])
def test_rule_e(tmp_path, pos, neg, sd, expected):
    ev = Fake([{"values": {"router_hit_pos": np.clip(around(pos, sd, 1), 0, 1),
                           "router_hit_neg": np.clip(around(neg, sd, 2), 0, 1)}}])
    assert verdict(claims.claim_e, ev, tmp_path) == expected


def test_rule_e_not_testable_on_too_few_trials(tmp_path):
    ev = Fake([{"values": {"router_hit_pos": [1.0, math.nan, math.nan],
                           "router_hit_neg": [1.0, math.nan, math.nan]}}], trials=3)
    assert verdict(claims.claim_e, ev, tmp_path) == "not testable"


# (f) ---------------------------------------------------------------------------------------------
def evidence_f(ratio, own, star_ratio=None, star_own=None, acc_ratio=None, acc_own=None):
    """(f)'s tables: `ratio` and `own` on the theorem's reading N(0.9) that decides; the N* and
    N_acc readings as given (default: the same numbers)."""
    rows = []
    for reading, r, o in ((claims.THEOREM_READING, ratio, own),
                          ("success", star_ratio or ratio, star_own or own),
                          ("mean_accuracy", acc_ratio or ratio, acc_own or own)):
        rows += [exponent_row("cnn/separate", *r, reading=reading),
                 exponent_row("model.kind=separate", *o, reading=reading)]
    return Fake([{"N": 100, "values": {}}], exponents={"exponents": rows, "ratios": []},
                sc={"nstar": [], "ratios": []})


@pytest.mark.parametrize("ratio, own, expected", [
    ((0.5, 0.3, 0.7), (0.0, -0.1, 0.1), "supported"),
    ((0.05, -0.1, 0.15), (0.0, -0.1, 0.1), "not supported"),   # the ratio does not grow
    ((0.5, 0.3, 0.7), (0.6, 0.4, 0.8), "not supported"),       # separate's own grows
    ((0.5, 0.3, 0.7), (0.1, -0.5, 0.9), "undecided"),          # issue 27: thin data, not flat
    ((0.5, 0.3, 0.7, 2), (0.0, -0.1, 0.1), "not testable"),
])
def test_rule_f(tmp_path, ratio, own, expected):
    assert verdict(claims.claim_f, evidence_f(ratio, own), tmp_path) == expected


def test_rule_f_decides_on_the_theorems_reading_and_shows_the_others(tmp_path):
    # The issue-39 decade: the median grows, the high-probability reading does not.
    f = claims.claim_f(evidence_f((0.04, -0.05, 0.12), (0.0, -0.1, 0.1),
                                  star_ratio=(0.27, 0.23, 0.31), acc_ratio=(0.42, -0.02, 0.65)),
                       str(tmp_path))
    assert f.verdict == "not supported"  # N(0.9): 0.04 [-0.05, 0.12] below 0.2
    shown = dict(f.numbers)
    assert shown["the N* reading would say (the rule reads N(0.9), the theorem's)"].startswith(
        "supported")
    assert shown["the N_acc reading would say (the rule reads N(0.9), the theorem's)"].startswith(
        "undecided")
    assert any(q.startswith("exponent of N*(CNN)/N*(separate)") for q in shown)
    assert "the N* reading: supported" in f.reason


def test_rule_f_decides_on_the_declared_targets_statistic_where_it_has_a_number(tmp_path):
    # The table's fit says "supported"; the declared target's statistic (the precision targets'
    # code over every n) holds 0.2: the page decides on the statistic, and shows both.
    ev = evidence_f((0.5, 0.3, 0.7), (0.0, -0.1, 0.1))
    ev.exponent_stats["ratio_exponent"] = {"estimate": 0.25, "lo": 0.1, "hi": 0.4}
    f = claims.claim_f(ev, str(tmp_path))
    assert f.verdict == "undecided"
    target, asked = ev.statistic_calls[0]
    assert target == "ratio_exponent" and asked["over"] == "data.n" and \
        asked["success_threshold"] == pytest.approx(0.9) and asked["baseline"] == "cnn"
    shown = dict(f.numbers)
    assert shown["exponent of N(0.9)(CNN)/N(0.9)(separate) over n: the declared target's "
                 "statistic (the precision targets' code)"].startswith("0.25 [0.1, 0.4]")
    # No number (an N outside the grid): the table's fit decides, and the page says so.
    ev = evidence_f((0.5, 0.3, 0.7), (0.0, -0.1, 0.1))
    f = claims.claim_f(ev, str(tmp_path))
    assert f.verdict == "supported"
    assert any("no number" in v for _, v in f.numbers)


# (g) ---------------------------------------------------------------------------------------------
def evidence_g(hit=1.0, sd=0.0, realized=4, N=500, trials=TRIALS, model="pattern"):
    cells = []
    for l in (2, 4, 5):
        hits = np.clip(around(hit if l >= 4 else 0.7, sd, l, trials), 0, 1)
        cells.append({"N": N, "model.kind": "separate", "model.l": l, "data.l_star": 4,
                      "data.n": 8, "data.delta_d": 0.5, "data.model": model,
                      "values": {"router_hit": hits,
                                 "realized_l_star": np.full(trials, float(realized))}})
    return Fake(cells, trials=trials)


@pytest.mark.parametrize("kwargs, expected", [
    ({}, "supported"),
    ({"realized": 3}, "not supported"),        # issue 27: the realized-l* check can fail
    ({"hit": 0.98, "sd": 0.001}, "not supported"),
    ({"hit": 0.999, "sd": 0.002}, "undecided"),
    ({"N": 100}, "not testable"),               # below Lemma 4.1's n²/(1 − δd)² = 256
    ({"model": "image"}, "not testable"),
    ({"trials": 2}, "not testable"),
])
def test_rule_g(tmp_path, kwargs, expected):
    assert verdict(claims.claim_g, evidence_g(**kwargs), tmp_path) == expected


# every rule ----------------------------------------------------------------------------------
def test_every_rule_states_its_effect_size_or_level():
    for cid, _, rule, _, _ in claims.CLAIMS:
        assert any(w in rule for w in ("effect size", "0.95", "0.999")), cid
        assert "at least 3" in rule or "3 such" in rule or "fewer than 3" in rule, cid


def test_a_rule_that_raises_is_an_error_in_red_and_fails_the_script(tmp_path, monkeypatch):
    results = tmp_path / "results"
    results.mkdir()
    synthetic.write(str(results / "boom.h5"), synthetic.make())

    def broken(ev, workdir):
        raise KeyError("data.n")
    monkeypatch.setattr(claims, "CLAIMS", [("z", "A claim whose rule is broken.", "A rule.",
                                            ["boom"], broken)])
    out = tmp_path / "page.html"
    monkeypatch.setattr(sys, "argv", ["paper_report.py", str(results), "--out", str(out)])
    assert paper_report.main() == 1
    page = out.read_text()
    assert "class=\"verdict err\">error<" in page
    assert "the rule raised KeyError: &#x27;data.n&#x27;" in page
    assert "class='rule-error'" in page
    f = rules.run_rule(broken, Fake([]), str(tmp_path), "x")
    assert f.verdict == rules.ERROR and "KeyError" in f.reason


def test_f_reads_the_axis_its_config_declares(tmp_path):
    # f_ratio_n.ini: over n. The decade: over n/l at n = 64 (one data set), n shown beside it.
    ev = evidence_f((0.5, 0.3, 0.7), (0.0, -0.1, 0.1))
    claims.claim_f(ev, str(tmp_path))
    assert ev.exponent_calls[0] == ("data.n", None)
    ev = evidence_f((0.5, 0.3, 0.7), (0.0, -0.1, 0.1))
    ev.config_text = declarations.shipped("f_ratio_decade.ini")
    claims.claim_f(ev, str(tmp_path))
    assert ev.exponent_calls[0] == ("data.n/model.l", {"data.n": "64"})
    assert ("data.n", None) in ev.exponent_calls[1:]


@pytest.mark.parametrize("rule", [r for _, _, _, _, r in claims.CLAIMS],
                         ids=[cid for cid, *_ in claims.CLAIMS])
def test_a_file_without_declarations_is_not_testable_and_says_what_to_declare(tmp_path, rule):
    ev = evidence_g()  # pattern-model cells: (g) reaches its declaration too
    ev.config_text = "[grid]\nN = 100\n"
    f = rule(ev, str(tmp_path))
    assert f.verdict == "not testable" and "[claims]" in f.reason


# One rule for the page and the precision target ------------------------------------------------
def precision_attrs(estimate, lo, hi, verdict, over="data.n", where="", statistic="ratio_exponent",
                    reading="success", success_threshold=0.9):
    return {"precision": f"target={statistic};over={over};reading={reading};"
                         f"success_threshold={success_threshold};threshold=0.2;half_width=0.15;"
                         f"where={where};alpha=0.05",
            "precision_looks": f"all\t1\t100\t0.02\t0.3\t-0.5\t0.9\trunning\n"
                               f"all\t2\t300\t0.01\t{estimate}\t{lo}\t{hi}\t{verdict}\n"}


@pytest.mark.parametrize("target, verdict_of_target, expected", [
    ((0.009, -0.105, 0.108), "below", "not supported"),
    ((0.35, 0.24, 0.46), "above", "supported"),
    ((0.22, 0.12, 0.30), "within", "undecided"),
])
def test_rule_f_decides_on_the_files_precision_target(tmp_path, target, verdict_of_target,
                                                      expected):
    # The fixed-sample interval says "undecided"; the target decided the theorem's reading on
    # the same rows.
    ev = evidence_f((0.32, 0.11, 0.75), (0.0, -0.1, 0.1))
    ev.attrs = precision_attrs(*target, verdict_of_target)
    f = claims.claim_f(ev, str(tmp_path))
    assert f.verdict == expected
    assert any("precision target" in q for q, _ in f.numbers)


def test_a_target_for_another_statistic_is_not_read(tmp_path):
    ev = evidence_f((0.32, 0.11, 0.75), (0.0, -0.1, 0.1))
    ev.attrs = precision_attrs(0.009, -0.105, 0.108, "below", statistic="exponent")
    assert claims.claim_f(ev, str(tmp_path)).verdict == "undecided"
    ev.attrs = precision_attrs(0.009, -0.105, 0.108, "running")
    assert claims.claim_f(ev, str(tmp_path)).verdict == "undecided"
    # The median's target does not decide the theorem's reading; it decides the N* reading.
    ev.attrs = precision_attrs(0.009, -0.105, 0.108, "below", success_threshold=0.5)
    f = claims.claim_f(ev, str(tmp_path))
    assert f.verdict == "undecided"
    assert dict(f.numbers)["the N* reading would say (the rule reads N(0.9), the theorem's)"] \
        .startswith("not supported")


def test_rule_f_outside_lemma_41_is_not_testable_with_the_rows_verdict_beside(tmp_path):
    ev = evidence_f((0.5, 0.3, 0.7), (0.0, -0.1, 0.1))
    ev.cells = [{"model.kind": "separate", "data.n": "64", "data.delta_d": "0.2", "N": str(N),
                 "model.router_N": "0"}
                for N in (48, 768)] + [{"model.kind": "cnn", "data.n": "64", "N": "48"}]
    f = claims.claim_f(ev, str(tmp_path))
    assert f.verdict == "not testable" and "Lemma 4.1" in f.reason
    assert dict(f.numbers)["the rows alone would say"].startswith("supported")
    # A router sample of its own of the lemma's order: inside the hypotheses again.
    for c in ev.cells:
        c["model.router_samples"] = "6400"
    assert claims.claim_f(ev, str(tmp_path)).verdict == "supported"
