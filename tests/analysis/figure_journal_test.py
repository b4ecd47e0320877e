"""Figures a journal accepts as they are (issue 45), checked from the files a journal receives: every
figure kind of the main job (a small twin of sweeps/configs/headline.ini: CNN and separate pMoE
over n, l and N) at two-column size, and of a sweep over two axes (data.p and model.l) at
one-column size, drawn by pmoe.plots.plot_results.draw. From each SVG: every text inside the
figure and clear of every other text; every legend no wider than the panel grid; every value
of the axis a figure splits into panels has a panel or is named in a note; no config names
("data.n", "model.kind=") in any label; from each PDF: TrueType fonts embedded (no Type 3); every
file name with one dot; every figure within its journal column's width."""
import itertools
import os
import re
import subprocess

import pytest

import svg_layout
from pmoe.plots import figures
from pmoe.plots.analyze import Analyzer
from pmoe.plots.plot_results import draw

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAIN_JOB = """name = headline
seed = 2
trials = 3
N_test = 300
[data]
model = pattern
[model]
m = 20
epochs = 0
max_steps = 3000
[grid]
data.n = 8,16
model.kind = separate,cnn
model.l = 3:5
N = 24..96 x2
"""
TWO_AXES = """name = my_p
seed = 3
trials = 3
N_test = 300
[model]
kind = separate
m = 20
epochs = 0
max_steps = 3000
[grid]
data.p = 6,8
model.l = 3:5
N = 24..96 x2
"""
MAIN_KINDS = {"phase_l", "phase_n", "nstar_l", "nacc_l", "nstar_n", "nacc_n", "accuracy_vs_l",
              "accuracy_vs_n", "router_hit_vs_l", "router_hit_vs_n", "nstar_map_n_l",
              "accuracy_vs_N", "router_hit"}
TWO_AXES_KINDS = {"phase_l", "phase_data-p", "nstar_l", "nstar_data-p", "nacc_data-p",
                  "accuracy_vs_data-p", "nstar_map_data-p_l", "accuracy_vs_N"}


def tool(env, *parts):
    path = os.environ.get(env) or os.path.join(ROOT, "build", *parts)
    if not os.access(path, os.X_OK):
        pytest.skip(f"{parts[-1]} is not built (ctest passes {env})")
    return path


def sweep(tmp_path, text):
    config = tmp_path / "sweep.ini"
    config.write_text(text)
    out = tmp_path / "result.h5"
    subprocess.run([tool("PMOE_SWEEP", "sweeps", "pmoe-sweep"), "run", str(config), "--out",
                    str(out), "--threads", "2"], check=True, capture_output=True)
    return str(out)


@pytest.fixture(scope="module", params=[("main", MAIN_JOB, "double", MAIN_KINDS),
                                        ("two_axes", TWO_AXES, "single", TWO_AXES_KINDS)],
                ids=["main-job", "two-axes"])
def drawn(request, tmp_path_factory):
    name, text, size, kinds = request.param
    tmp = tmp_path_factory.mktemp(name)
    result = sweep(tmp, text)
    analyzer = Analyzer(tool("PMOE_ANALYZE", "analysis", "pmoe-analyze"), result, bootstrap=50)
    outdir = tmp / "figures"
    os.makedirs(outdir)
    with figures.only_formats("png", "pdf", "svg"), figures.size(size):
        out = draw(result, str(outdir), analyzer, workers=2)
    return out, outdir, analyzer.summary(), kinds, size


def stems(drawn_figures):
    return {re.sub(r"^[^_]+(_p)?_", "", os.path.basename(f.path)[:-4]) for f in drawn_figures}


def test_every_figure_kind_is_drawn(drawn):
    out, _, _, kinds, _ = drawn
    assert kinds <= stems(out), sorted(kinds - stems(out))


def test_file_names_have_one_dot(drawn):
    _, outdir, _, _, _ = drawn
    names = os.listdir(outdir)
    assert names and all(n.count(".") == 1 for n in names), [n for n in names if
                                                                n.count(".") != 1]


def test_texts_inside_the_figure_and_apart(drawn):
    out, _, _, _, _ = drawn
    for f in out:
        layout = svg_layout.read(f.path[:-4] + ".svg")
        name = os.path.basename(f.path)
        for t in layout.texts:
            x0, y0, x1, y1 = t.box
            assert x0 >= -0.5 and y0 >= -0.5 and x1 <= layout.width + 0.5 and \
                y1 <= layout.height + 0.5, f"{name}: {t.string!r} at {t.box} leaves the figure"
        for a, b in itertools.combinations(layout.texts, 2):
            assert not svg_layout.overlap(a.box, b.box), \
                f"{name}: {a.string!r} {a.box} overlaps {b.string!r} {b.box}"


def test_figures_fit_the_journal_column(drawn):
    """--size single: 3.5 inches; double: 7.2 (a one-panel figure one column either way)."""
    out, _, _, _, size = drawn
    for f in out:
        layout = svg_layout.read(f.path[:-4] + ".svg")
        assert layout.width / 72 <= figures.L.SIZES[size][0] + 0.05, \
            f"{os.path.basename(f.path)}: {layout.width / 72:.2f} in wide at --size {size}"


def test_legends_no_wider_than_the_panel_grid(drawn):
    out, _, _, _, _ = drawn
    for f in out:
        layout = svg_layout.read(f.path[:-4] + ".svg")
        left = min(p[0] for p in layout.panels)
        right = max(p[2] for p in layout.panels)
        for box in layout.legends:
            assert box[2] - box[0] <= right - left + 1.0, \
                f"{os.path.basename(f.path)}: legend {box[2] - box[0]:.0f} pt wide, " \
                f"the panels {right - left:.0f} pt"


def _flat(layout):
    return re.sub(r"[\s$]", "", " ".join(t.string for t in layout.texts))


def test_every_axis_value_has_a_panel_or_a_note(drawn):
    """Figures at fixed N: a panel per N (or "Not shown: N = ..."); phase maps: a panel per
    series that reads the axis, and the others named."""
    out, _, summary, _, _ = drawn
    ns = sorted({r["N"] for r in summary})
    for f in out:
        layout = svg_layout.read(f.path[:-4] + ".svg")
        text = _flat(layout)
        name = os.path.basename(f.path)
        if re.search(r"_(accuracy|router_hit)_vs_(?!N)", name):
            missing = [n for n in ns if f"N={n:g}" not in text]
            assert not missing or "Notshown:N=" in text, f"{name}: no panel for N = {missing}"
        if "_phase_" in name and "model.kind" in summary[0]:
            assert "CNN" in text, f"{name}: the CNN neither drawn nor named"


def test_labels_are_human(drawn):
    out, _, _, _, _ = drawn
    for f in out:
        text = " ".join(t.string for t in svg_layout.read(f.path[:-4] + ".svg").texts)
        assert not re.search(r"\b(data|model)\.\w+|series \d", text), \
            f"{os.path.basename(f.path)}: a config name or 'series N' in {text[:200]!r}"


def test_pdf_fonts_are_embedded_truetype(drawn):
    out, _, _, _, _ = drawn
    for f in out:
        with open(f.path[:-4] + ".pdf", "rb") as pdf:
            data = pdf.read()
        assert b"/FontFile2" in data, f"{os.path.basename(f.path)}: no embedded TrueType font"
        assert b"/Type3" not in data, f"{os.path.basename(f.path)}: a Type 3 font"
