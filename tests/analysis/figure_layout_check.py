#!/usr/bin/python3
"""The figure test's checks (run by tests/analysis/figures_test.cpp on a small two-axis sweep):
draws every figure of RESULT.h5 into OUTDIR with pmoe.plots.plot_results.draw, recording each
figure's layout from matplotlib's own extents just before it is saved, then reads the SVG files.

    figure_layout_check.py RESULT.h5 OUTDIR --analyze build/analysis/pmoe-analyze

Checks, each printed as FAIL with the figure's name when it does not hold (exit 1):
- every figure exists as PNG (300 dpi), PDF and SVG;
- the SVG's tick labels include the grid's values: N on every N axis, and the swept axis's
  values on phase maps and log-log sample-complexity figures;
- no legend's window extent overlaps any visible axes' window extent (legends sit outside the
  data areas), and no data point of any line lies under a legend;
- at most MAX_SERIES (one colour each) labelled series per panel, in numeric order (n=8 before n=16), no legend saying
  "all", no figure title over panel titles (no suptitle);
- rates (accuracy, router hit) and their error bars stay within [0, 1];
- more series than colours are split into titled panels (panels_of);
- drawn by two forked workers, the same figures with the same PNG bytes."""
import argparse
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "analysis", "python"))
from pmoe.plots import figures  # noqa: E402
from pmoe.plots.analyze import Analyzer  # noqa: E402
from pmoe.plots.plot_results import draw  # noqa: E402

FAILURES = []


def fail(what):
    FAILURES.append(what)
    print("FAIL", what)


def record_layout(store):
    """A save hook: legends' and axes' window extents, the display coordinates of every line's
    data points, legend texts, suptitle, error-bar extents of rate panels."""
    def hook(fig, path):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        axes = [ax for ax in fig.axes if ax.get_visible()]
        legends = list(fig.legends) + [ax.get_legend() for ax in axes if ax.get_legend()]
        layout = {"legends": [], "axes": [], "points": [], "rate_errors": [],
                  "suptitle": fig._suptitle.get_text() if fig._suptitle else ""}
        for leg in legends:
            layout["legends"].append((leg.get_window_extent(renderer),
                                      [t.get_text() for t in leg.get_texts()]))
        for ax in axes:
            layout["axes"].append((ax.get_window_extent(renderer), ax.get_label(),
                                   ax.get_ylabel(), ax.get_title()))
            for line in ax.get_lines():
                if not line.get_transform().contains_branch(ax.transData):
                    continue  # a reference line in axes coordinates (axhline), not data
                xy = line.get_xydata()
                if len(xy):
                    layout["points"].extend(ax.transData.transform(xy).tolist())
            if any(w in ax.get_ylabel() for w in ("accuracy", "rate")) and \
                    "(log)" not in ax.get_ylabel():  # not N_acc's axis
                for coll in ax.collections:  # error bars: LineCollections of segments
                    for seg in getattr(coll, "get_segments", lambda: [])():
                        layout["rate_errors"].extend(float(y) for _, y in seg)
                layout["rate_errors"].extend(float(y) for line in ax.get_lines()
                                             for y in line.get_ydata())
        store[os.path.basename(path)] = layout
    return hook


def svg_tick_labels(path):
    """{axes index: {"x": [labels], "y": [labels]}} from the SVG's text (svg.fonttype none)."""
    tree = ET.parse(path)
    ns = "{http://www.w3.org/2000/svg}"
    out = {}
    for i, g in enumerate(e for e in tree.iter(ns + "g") if re.fullmatch(r"axes_\d+",
                                                                          e.get("id", ""))):
        labels = {"x": [], "y": []}
        for tick in g.iter(ns + "g"):
            m = re.fullmatch(r"([xy])tick_\d+", tick.get("id", ""))
            if m:
                labels[m.group(1)] += ["".join(t.itertext()).strip()
                                       for t in tick.iter(ns + "text")]
        out[i] = labels
    return out


def png_dpi(path):
    with open(path, "rb") as f:
        data = f.read()
    i = data.find(b"pHYs")
    if i < 0:
        return None
    x, _, unit = struct.unpack(">IIB", data[i + 4:i + 13])
    return round(x * 0.0254) if unit == 1 else None


def overlaps(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def check(results, outdir, analyze):
    layouts = {}
    figures.SAVE_HOOKS.append(record_layout(layouts))
    analyzer = Analyzer(analyze, results, bootstrap=50)
    drawn = draw(results, outdir, analyzer, workers=1)  # the save hook records in this process
    summary = analyzer.summary()
    n_grid = {f"{v:g}" for v in {r["N"] for r in summary}}
    l_grid = {f"{v:g}" for v in {r["model.l"] for r in summary}}
    n_axis = {f"{v:g}" for v in {r["data.n"] for r in summary}}
    names = [os.path.basename(f.path) for f in drawn]
    print(f"{len(drawn)} figures: {', '.join(names)}")
    expected = {"phase_l", "phase_n", "nstar_l", "nacc_l", "accuracy_vs_l", "router_hit_vs_l",
                "nstar_map_l_n", "accuracy_vs_N", "router_hit"}
    for stem in expected:
        if not any(n.endswith(f"_{stem}.png") for n in names):
            fail(f"no {stem} figure among {names}")
    for f in drawn:
        name = os.path.basename(f.path)
        stem = f.path[:-4]
        for ext in ("png", "pdf", "svg"):
            if not os.path.exists(f"{stem}.{ext}") or os.path.getsize(f"{stem}.{ext}") < 1000:
                fail(f"{name}: no {ext} beside it")
        if png_dpi(f.path) != 300:
            fail(f"{name}: PNG at {png_dpi(f.path)} dpi, expected 300")
        layout = layouts[name]
        if layout["suptitle"]:
            fail(f"{name}: a suptitle ({layout['suptitle']!r}) over the panel titles")
        for extent, texts in layout["legends"]:
            for ax_extent, _, _, title in layout["axes"]:
                if overlaps(extent, ax_extent):
                    fail(f"{name}: legend {texts} overlaps the axes {title!r}")
            under = [p for p in layout["points"]
                     if extent.x0 <= p[0] <= extent.x1 and extent.y0 <= p[1] <= extent.y1]
            if under:
                fail(f"{name}: {len(under)} data points under legend {texts}")
            if "all" in texts:
                fail(f"{name}: a legend entry saying 'all'")
            series = [t for t in texts if re.match(r"\$n = \d+\$$", t)]
            if len(series) > figures.MAX_SERIES:  # one colour each
                fail(f"{name}: {len(series)} series in one legend")
            if series != sorted(series, key=lambda t: int(t.strip("$").split("=")[1])):
                fail(f"{name}: series not in numeric order: {series}")
        bad = [y for y in layout["rate_errors"] if y == y and not -1e-9 <= y <= 1 + 1e-9]
        if bad:
            fail(f"{name}: rate or error bar outside [0, 1]: {bad[:3]}")
        ticks = svg_tick_labels(stem + ".svg")
        x_labels = {t for a in ticks.values() for t in a["x"]}
        y_labels = {t for a in ticks.values() for t in a["y"]}
        if "_phase_" in name or name.endswith("_accuracy_vs_N.png"):
            if not n_grid <= x_labels:
                fail(f"{name}: x tick labels {sorted(x_labels)} miss N values "
                     f"{sorted(n_grid - x_labels)}")
        if "_phase_l" in name and not l_grid <= y_labels:
            fail(f"{name}: y tick labels {sorted(y_labels)} miss l values "
                 f"{sorted(l_grid - y_labels)}")
        if "_phase_n" in name and not n_axis <= y_labels:
            fail(f"{name}: y tick labels {sorted(y_labels)} miss n values")
        if "_nstar_n" in name and not n_axis <= x_labels:
            fail(f"{name}: x tick labels {sorted(x_labels)} miss n values "
                 f"{sorted(n_axis - x_labels)}")
    # Drawn by two workers (as plot_results and the report pages do): the same figures, the same
    # PNG bytes, each figure from its own axis's tables (a drawer that read its loop's variables
    # when called would draw the last axis's twice).
    parallel_dir = os.path.join(outdir, "parallel")
    os.makedirs(parallel_dir, exist_ok=True)
    parallel = draw(results, parallel_dir, analyzer, workers=2)
    if [(f.section, f.caption, os.path.basename(f.path)) for f in parallel] != \
            [(f.section, f.caption, os.path.basename(f.path)) for f in drawn]:
        fail(f"two workers drew {[os.path.basename(f.path) for f in parallel]}, one drew {names}")
    for f in drawn:
        twin = os.path.join(parallel_dir, os.path.basename(f.path))
        with open(f.path, "rb") as a, open(twin, "rb") as b:
            if a.read() != b.read():
                fail(f"{os.path.basename(f.path)}: drawn by two workers, the PNG differs")
    # Small multiples: 36 series into titled panels of at most MAX_SERIES (by l here: three
    # n-groups of twelve would not fit), panels in numeric order (l=10 after l=9, not after l=1),
    # each titled by what it holds.
    many = [f"data.n={n}, model.l={l}" for n in (8, 16, 32) for l in range(1, 13)]
    panels = figures.panels_of(many, ["data.n", "model.l"])
    if any(len(p[1]) > figures.MAX_SERIES for p in panels) or \
            sorted(s for p in panels for s in p[1]) != sorted(many):
        fail(f"panels_of: {[(t, len(s)) for t, s in panels]}")
    if [t for t, _ in panels] != [f"$l = {l}$" for l in range(1, 13)]:
        fail(f"panels_of: panel order {[t for t, _ in panels]}")
    if [s for s in panels[0][1]] != ["data.n=8, model.l=1", "data.n=16, model.l=1",
                                     "data.n=32, model.l=1"]:
        fail(f"panels_of: series order in a panel {panels[0][1]}")
    return not FAILURES


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("outdir")
    ap.add_argument("--analyze", required=True)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    ok = check(args.results, args.outdir, args.analyze)
    print("all figure checks passed" if ok else f"{len(FAILURES)} figure check(s) failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
