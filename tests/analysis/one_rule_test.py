"""One rule on the same rows: the claim page's verdict on a shipped reference file that a
precision target decided is the target's verdict (the quick page and the reference page run this
same code on their files; the target recorded its looks in the file). Needs pmoe-analyze
(PMOE_ANALYZE, set by ctest; else build/analysis/pmoe-analyze)."""
import os

import pytest

from pmoe.report import claims, evidence, precision_record
from pmoe.report.evidence import Evidence

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ANALYZE = os.environ.get("PMOE_ANALYZE", os.path.join(ROOT, "build", "analysis", "pmoe-analyze"))
REFERENCE = os.path.join(ROOT, "results", "reference", "paper")
# A target's verdict on the claimed side "above" as the claim page's verdict.
PAGE_VERDICT = {"above": "supported", "below": "not supported", "within": "undecided",
                "undecided": "undecided"}


class NoFigures:
    def __getattr__(self, name):
        return lambda *args, **kwargs: False


@pytest.mark.parametrize("source, rule", [("f_ratio_decade", claims.claim_f),
                                          ("b_separate_l", claims.claim_b)])
def test_the_page_and_the_precision_target_agree(monkeypatch, tmp_path, source, rule):
    assert os.path.exists(ANALYZE), f"{ANALYZE}: build pmoe-analyze first"
    monkeypatch.setattr(claims, "figures", NoFigures())
    monkeypatch.setattr(evidence, "BOOTSTRAP", 200)
    ev = Evidence(os.path.join(REFERENCE, source + ".h5"), ANALYZE)
    target = precision_record.decided_target(ev.attrs)
    assert target is not None and target.verdict in PAGE_VERDICT
    finding = rule(ev, str(tmp_path))
    shown = dict(finding.numbers)
    assert any("precision target" in q for q in shown)
    # (b) and (f) decide on the theorem's reading, N(0.9). A target that decided it decides the
    # page (the decade file, inside Lemma 4.1's hypotheses); a target of another reading (N_acc:
    # b_separate_l, whose router had fewer samples than Lemma 4.1 asks, so that the page's own
    # verdict is "not testable") has its verdict shown beside the page's.
    theorem_reading = precision_record.matching(ev.attrs, target.statistic, target.over,
                                                "success", target.threshold,
                                                success_threshold=0.9) is not None
    if theorem_reading:
        assert shown["Lemma 4.1's router sample"] == "met in every separate pMoE cell"
        assert finding.verdict == PAGE_VERDICT[target.verdict], (finding.verdict, finding.reason)
    else:
        decided = shown["the N_acc reading would say (the rule reads N(0.9), the theorem's)"]
        assert finding.verdict == "not testable" and "Lemma 4.1" in finding.reason
        assert decided.split(":")[0] == PAGE_VERDICT[target.verdict]
