#!/usr/bin/python3
"""Draws the figures of one pmoe-sweep result file into a folder, from pmoe-analyze's tables.

    /usr/bin/python3 analysis/plots/plot_results.py results/phase_l.h5 results/plots/phase_l \
        --analyze build/analysis/pmoe-analyze

For every numeric swept axis besides N: a phase-transition map (success rate over N and the
axis, fitted N* with its interval on top), log-log sample complexity against the axis with the
fitted exponent in both readings (N* of success probability, N_acc of mean accuracy), and test
accuracy and router hit rate against the axis at fixed N. For every file that sweeps N: test
accuracy and router hit rate against N, and every metric declared per class (per-class accuracy
and router hit rate, MODEL.md §7) against N, one line per class; where two numeric axes are
swept, a 2-D map of N* over them. Every figure as PNG (300 dpi), PDF and SVG (figures.py;
--formats png draws the PNGs alone, in a third of the time, and removes older PDF and SVG); a
figure without data is not written. The tables behind them are written beside the figures as CSV.
The report page of a sweep (pmoe.report.sweep_report) draws the same figures through draw().
"""
import argparse
import collections
import concurrent.futures
import functools
import multiprocessing
import os
import subprocess

import h5py

from pmoe import atomic, paths
from pmoe.plots import figures
from pmoe.plots.analyze import Analyzer, per_class_metrics, rate_metrics, swept_parameters

SHORT = {"model.l": "l", "model.k": "k", "data.n": "n", "model.m": "m", "data.d": "d",
         "data.c": "c"}


def stem_of(name):
    """A parameter (or a config name) as a file name part with no dot: LaTeX's \\includegraphics
    reads the first dot as the extension (data.p -> data-p, data.n/model.l -> n-over-l)."""
    return "-over-".join(SHORT.get(p, p) for p in name.split("/")).replace(".", "-")


def file_facts(path):
    """Name, config path, the l* values, and the grid's own axes (as the cell labels spell them:
    parameters that differ only through [model.KIND] sections are not axes)."""
    with h5py.File(path, "r") as f:
        l_star = set(f["cells"]["data.l_star"][:]) if "data.l_star" in f["cells"] else set()
        label = f["cells"]["label"].asstr()[0] if len(f["cells"]["label"]) else ""
        axes = [part.split("=")[0] for part in label.split(", ") if "=" in part]
        kinds = set(f["cells"]["model.kind"].asstr()[:])
        return str(f.attrs["name"]), str(f.attrs["config_path"]), l_star, axes, kinds


def is_numeric(rows, name):
    """Numbers wherever set: a model that does not read the axis has it empty (the CNN's l)."""
    values = [r[name] for r in rows if r.get(name) not in (None, "")]
    return bool(values) and all(isinstance(v, (int, float)) for v in values)


# One drawn figure: the report section it belongs to, a caption, the PNG's path (PDF and SVG
# beside it).
Figure = collections.namedtuple("Figure", "section caption path")


def numeric_axes(summary, grid_axes):
    """The swept numeric parameters besides N that are the grid's own axes, in summary order."""
    swept = swept_parameters(summary)
    return [p for p in swept if p != "N" and p in grid_axes and is_numeric(summary, p)]


def draw(results, outdir, analyzer, facts=None, workers=None):
    """Every figure of a result file (or files pooled by pmoe-analyze) into outdir: a list of
    Figure, in the order a reader meets them. results: the first file (for its name and facts).
    The figures are drawn by `workers` forked processes, by default one per core this process
    may use (the same files: each figure is drawn from the tables the parent read); hooks in
    figures.SAVE_HOOKS then run in the workers, so callers that record through them pass 1."""
    if workers is None:
        workers = len(os.sched_getaffinity(0))
    name, config, l_star, grid_axes, kinds = facts or file_facts(results)
    summary = analyzer.summary()
    swept = swept_parameters(summary)
    jobs = []  # (Figure, drawer): a drawer writes its figure and says whether it did

    def figure(section, caption, stem, draw_fn, *args, **kwargs):
        """One figure: draw_fn(*args, **kwargs) with PATH replaced by the PNG's path, called
        later (perhaps in a worker): its arguments are bound now, not read from the loop then."""
        path = os.path.join(outdir, f"{stem_of(paths.component(name))}_{stem}.png")
        args = [path if a is PATH else a for a in args]
        jobs.append((Figure(section, caption, path), functools.partial(draw_fn, *args, **kwargs)))

    if "N" not in swept:
        return []
    # What the router hit rate is for each model drawn, as the file's families declare it.
    router_note = figures.rate_note(rate_metrics(results).get("router_hit", ""), kinds)
    n_grid = sorted({r["N"] for r in summary if r.get("N") is not None})
    axes = numeric_axes(summary, grid_axes)
    for axis in axes:
        sh, sym = stem_of(axis), figures.short(axis)
        others = [p for p in swept if p not in ("N", axis)]
        nstar = analyzer.sample_complexity(axis)["nstar"]
        star = min(l_star) if axis == "model.l" and len(l_star) == 1 else None
        figure("phase", f"Success rate over (N, {sym}) with N* and its 95% interval" +
               (f"; l* = {star:g} dashed" if star is not None else ""), f"phase_{sh}",
               figures.phase_map, summary, nstar, axis, others, "", PATH, l_star=star)
        # Theory's scaling in l holds from l* on (Lemma 4.1); below it the router loses patches.
        tables = analyzer.exponent(axis, star)
        note = f"Fit over $l \\geq l^* = {star:g}$." if star is not None else ""
        for reading, stem, what in (("success", "nstar", "N* (success probability 0.5)"),
                                    ("mean_accuracy", "nacc", "N_acc (mean test accuracy 0.95)")):
            figure("sample-complexity", f"{what} against {sym}, log-log, with the fitted "
                   "exponent and the theory's order as a slope triangle", f"{stem}_{sh}",
                   figures.nstar_loglog, tables, axis, "", PATH, note, reading, n_grid=n_grid)
        figure("rates", f"Test accuracy against {sym} at fixed N", f"accuracy_vs_{sh}",
               figures.metric_vs_axis, summary, axis, others, "test_acc", "test accuracy", "",
               PATH)
        figure("rates", f"Router hit rate against {sym} at fixed N" +
               router_note.replace("\n", "; "), f"router_hit_vs_{sh}",
               figures.metric_vs_axis, summary, axis, others, "router_hit", "router hit rate", "",
               PATH, ylim=(0, 1.02))
    for x_axis, y_axis in two_axis_pairs(axes):
        nstar = analyzer.sample_complexity(x_axis)["nstar"]
        sx, sy = stem_of(x_axis), stem_of(y_axis)
        figure("nstar-map", f"N* over ({figures.short(x_axis)}, {figures.short(y_axis)}); red "
               "frame: trials near it mostly "
               "unconverged", f"nstar_map_{sx}_{sy}",
               figures.nstar_map, nstar, x_axis, y_axis, "N*", PATH)
    if not axes:  # N alone varies within each series: N* per series (per model, say)
        figure("sample-complexity", "Sample complexity per series, both readings", "nstar",
               figures.nstar_by_series, analyzer.sample_complexity(), "", PATH)
    others = [p for p in swept if p != "N"]
    figure("rates", "Test accuracy against N (mean, 95% interval)", "accuracy_vs_N",
           figures.accuracy_vs_n, summary, others, "", PATH)
    figure("rates", "Router hit rate against N" + router_note.replace("\n", "; "),
           "router_hit", figures.router_hit, summary, others, "", PATH)
    # The other rates the families declare (metric columns with rate = 1), against N: a rate
    # already drawn and its parts (router_hit_pos beside router_hit) are not drawn again.
    drawn = ["router_hit"]
    for metric, meaning in rate_metrics(results).items():
        if any(metric == d or metric.startswith(d + "_") for d in drawn):
            continue
        drawn.append(metric)
        figure("rates", f"{meaning} against N (mean, 95% interval)", f"{metric}_vs_N",
               figures.rate_vs_n, summary, others, metric, meaning, "", PATH)
    # Metrics the families declare per class (MODEL.md §7): one figure each, found by the form
    # of their columns (analyze.per_class_metrics), whatever the metric.
    for declared, metric in per_class_metrics(results).items():
        figure("rates", f"{metric['help']} against N, one line per class", f"{declared}_vs_N",
               figures.per_class_vs_n, summary, others, metric, "", PATH)
    with figures.page_of(summary):  # one style per setting in every figure (forked: shared)
        done = _run_drawers(jobs, workers)
    return [fig for fig, ok in zip((f for f, _ in jobs), done) if ok]


PATH = object()  # in a figure's arguments: the path it is written to


_JOBS = []  # the jobs of the draw() in progress, read by the forked workers


def _run_job(i):
    return bool(_JOBS[i][1]())


def _run_drawers(jobs, workers):
    """Whether each job drew its figure, in order. Matplotlib spends most of a figure's time in
    savefig (layout, and each format), one core per figure: forked workers draw several at once
    (forked: they read the parent's jobs and tables instead of pickled copies). A worker's
    exception is raised here; a worker that dies (killed, out of memory) raises
    BrokenProcessPool instead of leaving the pool waiting for it."""
    _JOBS[:] = jobs
    try:
        workers = min(workers, len(jobs))
        if workers <= 1:
            return [_run_job(i) for i in range(len(jobs))]
        with concurrent.futures.ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(_run_job, range(len(jobs))))
    finally:
        _JOBS.clear()


def two_axis_pairs(axes):
    """The pairs of numeric axes a 2-D N* map is drawn for: the first axis against each other."""
    return [(axes[0], other) for other in axes[1:]]


def formats_list(text):
    """--formats: figures.ALL_FORMATS in any subset, at least one, each once."""
    wanted = [f.strip() for f in text.split(",")]
    if any(f not in figures.ALL_FORMATS for f in wanted) or len(set(wanted)) != len(wanted):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a comma-separated subset of "
                                         f"{','.join(figures.ALL_FORMATS)}, each once")
    return tuple(wanted)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("outdir")
    ap.add_argument("--analyze", default="build/analysis/pmoe-analyze")
    ap.add_argument("--formats", default=",".join(figures.ALL_FORMATS), type=formats_list,
                    help="comma-separated files of every figure, a subset of "
                    f"{','.join(figures.ALL_FORMATS)} (default all; each costs about a third of "
                    "the drawing time)")
    ap.add_argument("--size", choices=sorted(figures.L.SIZES), default="double",
                    help="figure width: one journal column (single, 3.5 in) or two (double, "
                    "7.2 in; the default)")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    facts = file_facts(args.results)
    name = facts[0]
    analyzer = Analyzer(args.analyze, args.results)
    written = []

    def table(stem, *command):
        path = os.path.join(args.outdir, f"{stem_of(paths.component(name))}_{stem}.csv")
        out = subprocess.run([args.analyze, *command, args.results, "--csv"], check=True,
                             capture_output=True, text=True)
        atomic.write_text(path, out.stdout)
        written.append(path)

    table("summary", "summary")
    summary = analyzer.summary()
    if "N" not in swept_parameters(summary):
        print(f"{args.results}: N is not swept; only the summary table is written")
        print("\n".join(written))
        return
    axes = numeric_axes(summary, facts[3])
    for axis in axes:
        start = min(facts[2]) if axis == "model.l" and len(facts[2]) == 1 else None
        table(f"exponent_{stem_of(axis)}", "exponent", "--over", axis,
              *(["--from", str(start)] if start is not None else []))
    if not axes:
        table("nstar", "sample-complexity")
    with figures.only_formats(*args.formats), figures.size(args.size):
        written += [f.path for f in draw(args.results, args.outdir, analyzer, facts)]
    print("\n".join(written))


if __name__ == "__main__":
    main()
