"""The Methods table (pmoe.methods, issue 45) against the config that made the file: every
parameter a cell records is in it with the value its trials used (placeholders resolved: the
confuser-set count recorded as -1, one expert per class recorded as 0, the router's N recorded
as 0, loss auto, caps of 0), swept ones marked, the seed, trials per cell, the step cap's count,
commit, numerics version, build, tool version and a line to cite; in pmoe.load's df.attrs and on
the report page."""
import os
import subprocess

import pytest

import pmoe
from pmoe import methods, results
from pmoe.report import sweep_report

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CONFIG = """name = methods_case
seed = 11
trials = 2
N_test = 200
[data]
p = 10
[model]
kind = separate
m = 20
k = 0
epochs = 0
max_steps = 40
[grid]
data.l_star = 1,3
N = 30,60
"""


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    sweep = os.environ.get("PMOE_SWEEP") or os.path.join(ROOT, "build", "sweeps", "pmoe-sweep")
    if not os.access(sweep, os.X_OK):
        pytest.skip("pmoe-sweep is not built (ctest passes PMOE_SWEEP)")
    tmp = tmp_path_factory.mktemp("methods")
    config = tmp / "methods_case.ini"
    config.write_text(CONFIG)
    out = str(tmp / "methods_case.h5")
    subprocess.run([sweep, "run", str(config), "--out", out], check=True, capture_output=True)
    return out


def by_name(m):
    return {p["name"]: p for p in m["parameters"]}


def test_every_recorded_parameter_is_in_the_table(result):
    rf = results.read(result)
    m = pmoe.load(result).attrs["methods"]
    recorded = {name for cell in rf.params for name in cell}
    assert recorded <= set(by_name(m)), recorded - set(by_name(m))
    # ... and the parameters the keys leave out at their defaults (data.c, model.loss here).
    for key in ("data.p", "model.m", "model.k", "model.max_steps", "N", "data.l_star",
                "data.c", "model.loss"):
        assert key in by_name(m), key
    assert "the default" in by_name(m)["data.c"]["note"] or "data.c" in recorded


def test_placeholders_are_resolved(result):
    rows = by_name(pmoe.load(result).attrs["methods"])
    # l* = 1: no confusers; l* = 3: half of p = 10, at least 2 for the one class pair.
    assert rows["data.p_confuser"]["value"] == "0, 5", rows["data.p_confuser"]
    assert "-1" in rows["data.p_confuser"]["note"]
    assert rows["model.k"]["value"] == "2" and "one expert per class" in rows["model.k"]["note"]
    assert rows["model.router_N"]["value"] == "30, 60"
    assert not rows["model.router_N"]["swept"]  # recorded as 0 everywhere: derived, not swept
    assert rows["model.loss"]["value"] == "logistic", rows["model.loss"]
    assert rows["model.epochs"]["value"] == "none"
    assert rows["model.max_steps"]["value"] == "40"


def test_swept_fixed_and_the_run(result):
    m = pmoe.load(result).attrs["methods"]
    rows = by_name(m)
    assert rows["data.l_star"]["swept"] and rows["N"]["swept"]
    assert not rows["data.p"]["swept"] and rows["data.p"]["value"] == "10"
    assert m["seed"] == 11 and m["trials_per_cell"] == 2 and m["trials"] == 8
    assert m["design"] == "2 trials per cell"
    # A 40-step cap stops trials that did not reach zero training error: counted.
    assert m["step_cap_stopped"] == sum(1 for r in results.read(result).trials["stop_reason"]
                                        if int(r) == 3)
    for key in ("commit", "build", "tool_version"):
        assert m[key], key
    assert m["numerics_version"] is not None
    assert "methods_case" in m["cite"] and "pmoe-sweep run" in m["cite"]


def test_the_report_page_prints_it(result):
    page = sweep_report.methods_section([result])
    for name in by_name(methods.of(results.read(result))):
        assert f"<code>{name}</code>" in page, name
    assert "How to cite" in page and "master seed" in page


@pytest.mark.parametrize("p, p_confuser, l_star, classes, used", [
    (8, -1, 4, 2, 4), (8, -1, 1, 2, 0), (3, -1, 4, 2, 2), (10, -1, 4, 5, 6), (10, 3, 4, 2, 3),
    (12, -1, 2, 4, 6)])
def test_confuser_sets_as_the_simulator_resolves_them(p, p_confuser, l_star, classes, used):
    """ConfuserSets (sim/data/pattern_plan.cpp): max(2 * pairs, p / 2) when l* > 1; pairs of
    c = 5 classes: (0,1), (2,3), (4,0)."""
    assert methods.confuser_sets(p, p_confuser, l_star, classes) == used


def test_the_claim_pages_print_it(result):
    from pmoe.report import page
    tables = {"methods_case": methods.html(methods.of(results.read(result)))}
    html = page.render([], {}, "quick", "results", {"title": "t", "short": "s", "cite": "c",
                                                     "readings": ""}, 100, tables)
    assert "<h2 id='methods'>Methods</h2>" in html and "data.p_confuser" in html
    assert "How to cite" in html


PER_MODEL = """name = per_model
seed = 5
trials = 1
N_test = 100
[data]
p = 10
[model]
m = 10
epochs = 0
max_steps = 30
[model.cnn]
max_steps = 50
[grid]
model.kind = separate,cnn
N = 20
"""


def test_per_model_settings(tmp_path):
    """A per-model setting ([model.cnn]) is a note on its parameter, not an axis."""
    sweep = os.environ.get("PMOE_SWEEP") or os.path.join(ROOT, "build", "sweeps", "pmoe-sweep")
    if not os.access(sweep, os.X_OK):
        pytest.skip("pmoe-sweep is not built (ctest passes PMOE_SWEEP)")
    config = tmp_path / "per_model.ini"
    config.write_text(PER_MODEL)
    out = str(tmp_path / "per_model.h5")
    subprocess.run([sweep, "run", str(config), "--out", out], check=True, capture_output=True)
    rows = by_name(methods.of(results.read(out)))
    assert not rows["model.max_steps"]["swept"]
    assert "per model: CNN 50; separate pMoE 30" in rows["model.max_steps"]["note"], \
        rows["model.max_steps"]


def test_a_precision_design():
    """The shipped decade file: its trials per cell are what its precision target decided."""
    path = os.path.join(ROOT, "results", "reference", "paper", "f_ratio_decade.h5")
    rf = results.read(path)
    m = methods.of(rf)
    rows = by_name(m)
    assert rows["data.n"]["swept"] and rows["model.l"]["swept"]
    assert m["design"].startswith("precision target (target=ratio_exponent")
    counts = {}
    for cell in rf.trials["cell_id"]:
        counts[int(cell)] = counts.get(int(cell), 0) + 1
    fewest, most = min(counts.values()), max(counts.values())
    spread = f"{fewest}" if fewest == most else f"{fewest}-{most}"
    assert m["design"].endswith(f"{spread} trials per cell"), m["design"]