"""pmoe.readings over pmoe-analyze's JSON: every reading listed with its delta, the quantile rows
of one, the shape sentence of an exponent and the l = n control, on the decade reference runs
(n = 64, n/l = 1..16: the ratio that grows like a step at n/l = 8, issue 39)."""
import os

import pytest

from pmoe import readings

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DECADE = os.path.join(ROOT, "results", "reference", "paper", "f_ratio_decade.h5")


@pytest.fixture(scope="module")
def tables():
    analyze = os.environ.get("PMOE_ANALYZE") or os.path.join(ROOT, "build", "analysis",
                                                             "pmoe-analyze")
    if not os.path.exists(analyze):
        pytest.skip("pmoe-analyze is not built (ctest passes PMOE_ANALYZE)")
    return readings.run(analyze, DECADE, axis="n/l", where={"data.n": 64}, bootstrap=100)


def test_every_default_reading_is_listed_with_its_delta(tables):
    assert [(r["reading"], r["delta"]) for r in readings.names(tables)] == [
        ("success", 0.5), ("success@0.8", 0.2), ("success@0.9", 0.1), ("success@0.95", 0.05)]
    assert readings.reading_name(tables, 0.1) == "success@0.9"
    rows = readings.estimates(tables, 0.1)
    assert len(rows) == 10  # two series (cnn, separate) at five values of n/l
    assert all(r["epsilon"] is None and r["grid"] in ("inside", "above", "below") for r in rows)


def test_exponents_shapes_and_the_control_for_each_reading(tables):
    assert {e["reading"] for e in readings.exponents(tables, "success@0.95")} == {"success@0.95"}
    step = readings.shape(tables, "cnn/separate", "success")
    assert step["shape"] == "step" and step["step_above"] == 8
    assert step["says"].startswith("grows like a step at n/l ≈ 8")
    control = [c for c in readings.controls(tables) if c["reading"] == "success"]
    assert len(control) == 1 and control[0]["data.n/model.l"] == 1
    assert control[0]["includes_1"] == "yes"
