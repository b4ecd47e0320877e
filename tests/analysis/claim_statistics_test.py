"""Issue 41 item 1: the claim pages compute their accuracies, accuracy differences, slopes, rates
and sample shares through the precision targets' code (pmoe-analyze statistic), not a Python
twin. On shipped reference files: each number a page shows is pmoe-analyze statistic's for the
same cells, and the page's outcome of each condition is the C++ decision rule's on that interval
(the statistic's --against); tests/precision/claim_page_statistic_test.cpp holds the statistic
to the precision target's own look on the same rows. Needs pmoe-analyze (PMOE_ANALYZE, set by
ctest; else build/analysis/pmoe-analyze)."""
import json
import math
import os
import subprocess

import pytest

from pmoe.report import chen_claims, claims, decision, evidence
from pmoe.report.evidence import Evidence
from pmoe.report.rules import OUTCOME, interval

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ANALYZE = os.environ.get("PMOE_ANALYZE", os.path.join(ROOT, "build", "analysis", "pmoe-analyze"))
REFERENCE = os.path.join(ROOT, "results", "reference")


class NoFigures:
    def __getattr__(self, name):
        return lambda *args, **kwargs: False


def statistic(path, *args):
    """pmoe-analyze statistic run apart from the page, with the page's replicates."""
    out = subprocess.run([ANALYZE, "statistic", path, "--json", "--bootstrap",
                          str(evidence.BOOTSTRAP), *args], check=True, capture_output=True,
                         text=True)
    st = json.loads(out.stdout)
    for key, missing in (("estimate", float("nan")), ("lo", -float("inf")),
                         ("hi", float("inf"))):
        st[key] = missing if st[key] is None else st[key]
    return st


# (file, rule, the number the page shows, the condition it decides or None, the statistic's
# arguments with the claim's --against and --side)
CASES = [
    ("paper/d_mnist_router_separate", claims.claim_d, "router hit rate, router_N = 300",
     "router hit rate at router_N = 300",
     ["--target", "rate", "--metric", "router_hit", "--where", "model.router_N=300",
      "--against", "0.95"]),
    ("paper/e_mnist_router_joint", claims.claim_e, "Assumption 4.4 rate, o2 (router_hit_neg) (claimed 0.92)",
     "o2 (router_hit_neg)", ["--target", "rate", "--metric", "router_hit_neg", "--against", "0.92"]),
    ("paper/a_models_vs_N", claims.claim_a, "acc(separate) − acc(CNN) at N = 48", None,
     ["--target", "accuracy_difference", "--model", "separate", "--where", "N=48",
      "--against", "0.01"]),
    ("paper/a_models_vs_N", claims.claim_a, "N_acc(separate) / N_acc(CNN)", "separate: samples",
     ["--target", "share", "--model", "separate", "--reading", "mean_accuracy",
      "--against", "0.9", "--side", "below"]),
    ("paper/c_joint_l", claims.claim_c, "d(accuracy)/d(log l) at N = 96, l ≥ l* = 4", None,
     ["--target", "accuracy_slope", "--over", "l", "--from", "4", "--where", "N=96",
      "--against", "-0.01", "--side", "below"]),
    ("chen/chen_table", chen_claims.claim_1, "setting 1: switch MoE cubic − single model linear",
     "setting 1: single model linear below the switch MoE cubic",
     ["--target", "accuracy_difference", "--where", "data.gamma_hi=3,data.sigma_p=1",
      "--model", "model.activation=cubic,model.kind=switch",
      "--baseline", "model.activation=linear,model.kind=single", "--against", "0.01"]),
    # Chen (4): the entropy curves' last points (a list column's end, curve_entropy.last).
    ("chen/chen_curves", chen_claims.claim_4, "switch MoE cubic: last recorded entropy",
     f"the switch MoE cubic's last entropy below {0.3466:.3f}",
     ["--target", "rate", "--metric", "curve_entropy.last", "--model",
      "model.activation=cubic,model.kind=switch", "--against", str(math.log(4) / 4),
      "--side", "below"]),
    ("chen/chen_table", chen_claims.claim_3, "setting 2: switch MoE cubic dispatch entropy", None,
     ["--target", "rate", "--metric", "dispatch_entropy", "--where",
      "data.gamma_hi=3,data.sigma_p=2", "--model", "model.activation=cubic,model.kind=switch"]),
]


@pytest.mark.parametrize("source, rule, number, condition, args", CASES,
                         ids=[f"{c[0]}: {c[2]}" for c in CASES])
def test_the_page_shows_the_targets_statistic_and_decides_as_its_rule(
        monkeypatch, tmp_path, source, rule, number, condition, args):
    assert os.path.exists(ANALYZE), f"{ANALYZE}: build pmoe-analyze first"
    monkeypatch.setattr(claims, "figures", NoFigures())
    monkeypatch.setattr(chen_claims, "table_figure", lambda *a, **k: None)
    monkeypatch.setattr(chen_claims, "curve_figure", lambda *a, **k: None)
    monkeypatch.setattr(evidence, "BOOTSTRAP", 300)
    path = os.path.join(REFERENCE, source + ".h5")
    finding = rule(Evidence(path, ANALYZE), str(tmp_path))
    shown = dict(finding.numbers)
    st = statistic(path, *args)
    text = interval(st["estimate"], max(st["lo"], 0.0) if "share" in args else st["lo"],
                    st["hi"])
    assert shown[number].startswith(text), (shown[number], text)
    if "--against" in args:
        against = float(args[args.index("--against") + 1])
        side = args[args.index("--side") + 1] if "--side" in args else decision.ABOVE
        # The Python rule and the C++ rule decide the same interval alike.
        assert decision.decide(st["estimate"], st["lo"], st["hi"], against, side) == \
            st["decision"]
        if condition is not None:
            outcome = {name: o for name, o, _ in finding.conditions}[condition]
            assert outcome == OUTCOME[st["decision"]]


def test_no_python_twin_of_the_target_statistics_is_left():
    """The pages' Python bootstrap and its mean, slope and widening helpers are gone: every
    claim interval is pmoe-analyze's."""
    for name in ("bootstrap", "weighted_mean", "slope_vs_log", "small_sample_factor",
                 "t_quantile"):
        assert not hasattr(evidence, name), name
    for module in (claims, chen_claims):
        source = open(module.__file__).read()
        assert "weighted_mean" not in source and "bootstrap(" not in source
