"""The report page of any sweep: what was swept and how it was trained (budget, convergence), phase
maps, N* and N_acc against every numeric axis with their intervals, exponents with intervals
beside the theory's order (drawn as a slope triangle), accuracy and router rates against every
axis, a 2-D map of N* where two numeric axes are swept, the Methods (pmoe.methods) and the config.
One self-contained HTML file (figures inside as PNG data URIs), drawn by the claim pages'
renderer (pmoe.report.page).

    build/analysis/pmoe-analyze report results/NAME.h5 [MORE.h5 ...] [--out PAGE.html]
    PYTHONPATH=analysis/python /usr/bin/python3 -m pmoe.report.sweep_report results/NAME.h5 ...

Several files are pooled as pmoe-analyze pools them (the same sweep's shards or seeds). The page
goes to --out (default: beside the first file, NAME-report.html); its figures are drawn into a
temporary folder, or kept as PNG, PDF and SVG in --figures DIR. Every number on the page comes
from pmoe-analyze's tables; nothing is fitted here."""
import argparse
import datetime
import math
import os
import subprocess
import sys
import tempfile

import h5py

from pmoe import atomic, cli, methods, paths, results
from pmoe.plots import figures
from pmoe.plots.analyze import READINGS, Analyzer, swept_parameters
from pmoe.plots.plot_results import SHORT, draw, file_facts, numeric_axes
from pmoe.report.page import document, esc, image_tag

# The page's sections, in order: (id, heading). The rendering test checks every id is present.
SECTIONS = [("swept", "What was swept"), ("training", "How it was trained"),
            ("phase", "Phase maps"), ("sample-complexity", "Sample complexity: N* and N_acc"),
            ("exponents", "Exponents against the theory's order"),
            ("rates", "Accuracy and router rates"), ("nstar-map", "N* over two axes"),
            ("methods", "Methods"), ("config", "Config")]


class ReportError(Exception):
    """A file the page cannot be made from: the message names it and what was expected."""


def read_file_facts(path):
    """Name, config text and path, trials per cell, the budget settings of each model kind, and
    the summed trial run time of one result file; ReportError when it is not one."""
    if not os.path.isfile(path):
        raise ReportError(f"{path}: no such file (expected a pmoe-sweep result file, NAME.h5)")
    try:
        with h5py.File(path, "r") as f:
            if "cells" not in f or "trials" not in f or "name" not in f.attrs:
                raise ReportError(f"{path}: not a pmoe-sweep result file (no /cells, /trials "
                                  "or name attribute)")
            cells = f["cells"]
            kinds = cells["model.kind"].asstr()[:]
            budget = {}
            for i, kind in enumerate(kinds):
                budget.setdefault(str(kind), set()).add(
                    (int(cells["model.epochs"][i]) if "model.epochs" in cells else -1,
                     int(cells["model.max_steps"][i]) if "model.max_steps" in cells else -1))
            trials = f["trials"]
            seconds = float(trials["wall_ms"][:].sum() / 1000) if "wall_ms" in trials else math.nan
            return dict(name=str(f.attrs["name"]), config=str(f.attrs.get("config", "")),
                        config_path=str(f.attrs.get("config_path", "")),
                        trials_per_cell=int(f.attrs.get("trials_per_cell", 0)),
                        budget=budget, seconds=seconds, trials=len(trials["cell_id"]))
    except OSError as e:
        raise ReportError(f"{path}: not an HDF5 file ({e}); expected a pmoe-sweep result file")


def table(header, rows):
    return ("<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>" +
            "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>"
                    for row in rows) + "</table>")


def fmt(v, digits=3):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}g}" if math.isfinite(v) else "-"
    return str(v)


def interval(p, cols):
    """An N* or N_acc as the page prints it: estimate [lo, hi], a bound outside the grid."""
    where = p[cols["grid"]]
    if where == "above":
        return f"> {p['N_max']:g} (beyond the grid)"
    if where == "below":
        return f"< {p['N_min']:g} (below the grid)"
    if where != "inside":
        return "n/a"
    lo = fmt(p[cols["lo"]]) if figures._finite(p[cols["lo"]]) else f"< {p['N_min']:g}"
    hi = fmt(p[cols["hi"]]) if figures._finite(p[cols["hi"]]) else f"> {p['N_max']:g}"
    flag = " ⚠ mostly unconverged" if p[cols["flag"]] else ""
    return f"{fmt(p[cols['estimate']])} [{lo}, {hi}]{flag}"


def swept_section(summary, facts, files):
    swept = swept_parameters(summary)
    rows = []
    for p in swept:
        values = sorted({r[p] for r in summary if r.get(p) not in (None, "")},
                        key=figures.natural)
        rows.append((p, ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values),
                     len(values)))
    statuses = {k: sum(r.get(k, 0) or 0 for r in summary)
                for k in ("ok", "diverged", "infeasible", "error")}
    parts = [f"<p>{len(summary)} cells; {sum(f['trials'] for f in facts)} trials in "
             f"{len(files)} file(s), {facts[0]['trials_per_cell']} per cell; "
             + ", ".join(f"{v} {k}" for k, v in statuses.items()) + ".</p>"]
    parts.append(table(("swept parameter", "values", "count"), rows) if rows else
                 "<p>Nothing is swept: one cell.</p>")
    return "\n".join(parts)


def training_section(summary, facts, nstar_rows):
    """The budget each model kind trained under, and how often trials reached zero training
    error (by kind, and at each N), with the estimates flagged for low convergence."""
    parts = []
    budget_rows = []
    for kind in sorted({k for f in facts for k in f["budget"]}):
        for epochs, steps in sorted({b for f in facts for b in f["budget"].get(kind, ())}):
            budget_rows.append((kind, "none (to zero training error)" if epochs == 0 else
                                f"{epochs} epochs", "none" if steps <= 0 else f"{steps} steps"))
    parts.append("<p>Models train until zero training error unless a cap stops them first; the "
                 "caps below are the training budget. A trial stopped by a cap measures the "
                 "budget as much as the data.</p>")
    parts.append(table(("model", "epoch cap", "step cap"), budget_rows))
    kinds = sorted({k for f in facts for k in f["budget"]})
    only = kinds[0] if len(kinds) == 1 else "all"  # model.kind not swept: the file's one kind
    by_kind = {}
    for r in summary:
        k = by_kind.setdefault(r.get("model.kind", only), [0, 0.0, 0, 0])
        ok = r.get("ok") or 0
        k[0] += ok
        k[1] += (r.get("converged") or 0) * ok
        k[2] += r.get("stop_epoch_cap") or 0
        k[3] += r.get("stop_step_cap") or 0
    parts.append(table(("model", "ok trials", "reached zero training error",
                        "stopped at the epoch cap", "stopped at the step cap"),
                       [(k, v[0], f"{v[1] / v[0]:.0%}" if v[0] else "-", v[2], v[3])
                        for k, v in sorted(by_kind.items())]))
    flagged = sum(1 for p in nstar_rows for c in READINGS.values()
                  if p[c["grid"]] == "inside" and p[c["flag"]])
    total = sum(1 for p in nstar_rows for c in READINGS.values() if p[c["grid"]] == "inside")
    if flagged:
        parts.append(f"<p class='budget'>{flagged} of {total} sample-complexity estimates are "
                     "flagged: fewer than 90 % of the trials near them reached zero training "
                     "error. Raise model.max_steps (or set model.epochs = 0) to measure the data "
                     "rather than the budget.</p>")
    elif total:
        parts.append(f"<p>All {total} sample-complexity estimates inside the grid rest on "
                     "trials that mostly reached zero training error.</p>")
    return "\n".join(parts)


def nstar_section_tables(analyzer, axes, summary):
    parts = []
    for axis in axes or [None]:
        sc = analyzer.sample_complexity(axis)
        header = ("series", *( [axis] if axis else []), "N* [95% interval]",
                  "N_acc [95% interval]", "converged near N*")
        rows = [(figures.shown(p["series"]) or "all", *([fmt(p[axis])] if axis else []),
                 interval(p, READINGS["success"]), interval(p, READINGS["mean_accuracy"]),
                 fmt(p.get("converged"), 2))
                for p in sorted(sc["nstar"], key=lambda p: (figures.natural(p["series"]),
                                                            p.get(axis) or 0))]
        parts.append(f"<h3>Against {esc(axis or 'N alone')}</h3>" + table(header, rows))
    return "\n".join(parts)


def exponent_section(analyzer, axes, l_star):
    if not axes:
        return "<p>No numeric axis besides N is swept: there is no exponent to fit.</p>"
    parts = ["<p>The slope of log N* (and log N_acc) against the log of each axis, over the axis "
             "values whose estimate lies inside the N grid, with its 95 % paired bootstrap "
             "interval, beside the order of the theory's sufficient sample complexity (MODEL.md "
             "§9; an upper bound, so a smaller measured slope does not contradict it). The "
             "figures of the previous section draw the theory's order as a slope triangle. "
             "Every reading is shown (success@0.9: N where the success probability reaches "
             "0.9), and each slope's shape: a one-sided trend test and whether a constant, a "
             "power law or one step fits best.</p>"]
    rows = []
    for axis in axes:
        start = min(l_star) if axis == "model.l" and len(l_star) == 1 else None
        tables = analyzer.exponent(axis, start)
        # pmoe-analyze's sentence on each slope's shape: trend test, constant / power law / step.
        shapes = {(x["series"], x["reading"]): x["says"] for x in tables.get("shapes", [])}
        for e in tables["exponents"]:
            rows.append((SHORT.get(axis, axis) + (f" (from l* = {start:g})" if start else ""),
                         figures.shown(e["series"]) or "all", READINGS.get(
                             e.get("reading", "success"), {"name": e.get("reading")})["name"],
                         f"{fmt(e['exponent'])} [{fmt(e['lo'])}, {fmt(e['hi'])}]",
                         e.get("points", "-"), fmt(e.get("theory")),
                         e.get("theory_formula", ""),
                         shapes.get((e["series"], e.get("reading")), "")))
        for r in tables.get("ratios", []):
            rows.append((SHORT.get(axis, axis), f"ratio {r.get('ratio', '')}", r.get("reading"),
                         r["bound"] or f"{fmt(r.get('N_star_ratio'))} [{fmt(r.get('lo'))}, "
                         f"{fmt(r.get('hi'))}]", "-", "-", "N*(CNN) / N*(pMoE)", ""))
    parts.append(table(("axis", "series", "reading", "exponent [95% interval]", "points",
                        "theory's order", "theory's bound", "shape"), rows))
    return "\n".join(parts)


def methods_section(files):
    """The Methods table of each file: what a paper's Methods section needs (pmoe.methods)."""
    parts = ["<p>Every parameter as the trials used it, placeholders resolved (the file records "
             "them as the config gave them), and what makes the run reproducible.</p>"]
    for path in files:
        if len(files) > 1:
            parts.append(f"<h3><code>{esc(path)}</code></h3>")
        parts.append(methods.html(methods.of(results.read(path))))
    return "\n".join(parts)


def figure_html(items):
    return "\n".join(f"<figure>{image_tag(f.path, f.caption)}<figcaption>{esc(f.caption)}"
                     f"</figcaption></figure>" for f in items)


def build_page(files, analyze, bootstrap, figure_dir):
    facts = [read_file_facts(f) for f in files]
    analyzer = Analyzer(analyze, files, bootstrap=bootstrap)
    summary = analyzer.summary()
    ff = file_facts(files[0])
    name, _, l_star, grid_axes, _ = ff
    swept = swept_parameters(summary)
    axes = numeric_axes(summary, grid_axes) if "N" in swept else []
    drawn = draw(files[0], figure_dir, analyzer, ff)
    by_section = {}
    for f in drawn:
        by_section.setdefault(f.section, []).append(f)
    nstar_rows = [p for axis in axes or [None]
                  for p in analyzer.sample_complexity(axis)["nstar"]] if "N" in swept else []
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    seconds = sum(f["seconds"] for f in facts if f["seconds"] == f["seconds"])
    body = [f"<h1>Sweep <code>{esc(name)}</code></h1>",
            f"<p class='meta'>{esc(', '.join(files))}; config <code>"
            f"{esc(facts[0]['config_path'])}</code>; written {now} by <code>pmoe-analyze report"
            f"</code>. Trials' summed run time: {seconds / 60:.1f} core-minutes. Intervals are "
            f"95 % paired bootstrap intervals over trial indices ({bootstrap or 1000} "
            "replicates). N*: the N where the success probability (test accuracy ≥ 0.95) reaches "
            "0.5 on a logistic fit; N_acc: the N where the mean test accuracy reaches 0.95. "
            "Outside the N grid an estimate is a bound, never an extrapolated number.</p>",
            "<p>" + " · ".join(f"<a href='#{sid}'>{esc(title)}</a>" for sid, title in SECTIONS)
            + "</p>"]
    no_n = "<p>N is not swept: there is no sample complexity to estimate.</p>"
    content = {
        "swept": swept_section(summary, facts, files),
        "training": training_section(summary, facts, nstar_rows),
        "phase": figure_html(by_section.get("phase", [])) or (
            no_n if "N" not in swept else
            "<p>No numeric axis besides N is swept: no phase map.</p>"),
        "sample-complexity": (figure_html(by_section.get("sample-complexity", [])) +
                              nstar_section_tables(analyzer, axes, summary)
                              if "N" in swept else no_n),
        "exponents": exponent_section(analyzer, axes, l_star) if "N" in swept else no_n,
        "rates": figure_html(by_section.get("rates", [])) or "<p>No rate to draw.</p>",
        "nstar-map": figure_html(by_section.get("nstar-map", [])) or (
            "<p>Fewer than two numeric axes besides N are swept: no 2-D map of N*.</p>"),
        "methods": methods_section(files),
        "config": "\n".join(f"<p><code>{esc(f['config_path'])}</code></p>"
                            f"<pre>{esc(f['config'])}</pre>" for f in facts[:1]),
    }
    for sid, title in SECTIONS:
        body.append(f"<h2 id='{sid}'>{esc(title)}</h2>")
        body.append(content[sid])
    return name, document(f"Sweep {name}: report", body), len(drawn)


def page_in(args):
    """build_page with its figures kept in --figures DIR, or drawn as PNG alone into a folder
    thrown away (the page embeds them)."""
    if args.figures:
        os.makedirs(args.figures, exist_ok=True)
        return build_page(args.files, args.analyze, args.bootstrap, args.figures)
    with tempfile.TemporaryDirectory() as workdir, figures.only_formats("png"):
        return build_page(args.files, args.analyze, args.bootstrap, workdir)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="pmoe-analyze report", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="FILE.h5", help="result files of one sweep")
    ap.add_argument("--out", help="the page (default: beside the first file, NAME-report.html)")
    ap.add_argument("--figures", metavar="DIR",
                    help="keep the figures (PNG, PDF, SVG) in DIR (default: not kept)")
    ap.add_argument("--analyze", default=paths.ANALYZE, help="the pmoe-analyze binary")
    ap.add_argument("--size", choices=sorted(figures.L.SIZES), default="double",
                    help="figure width: one journal column (single) or two (double, the "
                    "default)")
    ap.add_argument("--bootstrap", type=int, default=None,
                    help="bootstrap replicates of every interval (pmoe-analyze's default 1000)")
    args = ap.parse_args(argv)
    if args.bootstrap is not None and args.bootstrap < 10:
        ap.error(f"--bootstrap {args.bootstrap}: expected at least 10 replicates")
    if not os.access(args.analyze, os.X_OK):
        ap.error(f"--analyze {args.analyze}: not an executable (build first: bash "
                 "scripts/build.sh)")
    out = args.out or os.path.splitext(args.files[0])[0] + "-report.html"
    try:
        with figures.size(args.size):  # every figure of the page at the chosen width
            name, page, count = page_in(args)
    except ReportError as e:
        return cli.error(str(e), cli.BAD_INPUT)
    except subprocess.CalledProcessError as e:  # pmoe-analyze refused the files: say why
        said = (e.stderr or "").strip() or str(e)
        return cli.error(said.removeprefix("pmoe-analyze: error: "), cli.BAD_INPUT)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    atomic.write_text(out, page)  # never a half-written page
    print(f"report of {name}: {count} figures -> {out}")
    return 0


if __name__ == "__main__":
    # Every file is validated (pmoe.results.read) before any work; trouble is one line and
    # exit 2 (bad input) or 3 (a page that could not be written), never a traceback.
    sys.exit(cli.run(main, check=cli.operands("--out", "--figures", "--analyze", "--bootstrap",
                                              "--size"), tool="pmoe-analyze"))
