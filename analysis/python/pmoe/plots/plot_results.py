#!/usr/bin/python3
"""Draws the figures of one pmoe-sweep result file into a folder, from pmoe-analyze's tables.

    /usr/bin/python3 analysis/plots/plot_results.py results/phase_l.h5 results/plots/phase_l \
        --analyze build/analysis/pmoe-analyze

For every numeric swept axis besides N: a phase-transition map (success rate over N and the
axis, fitted N* with its interval on top), log-log sample complexity against the axis with the
fitted exponent in both readings (N* of success probability, N_acc of mean accuracy), and test
accuracy and router hit rate against the axis at fixed N. For every file that sweeps N: test
accuracy and router hit rate against N, and every metric declared per class (per-class accuracy
and router hit rate, MODEL.md §7) against N, one line per class. The tables
behind them are written beside the figures as CSV.
"""
import argparse
import os
import subprocess

import h5py

from pmoe.plots import figures
from pmoe.plots.analyze import Analyzer, per_class_metrics, swept_parameters

SHORT = {"model.l": "l", "model.k": "k", "data.n": "n", "model.m": "m", "data.d": "d",
         "data.c": "c"}


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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("outdir")
    ap.add_argument("--analyze", default="build/analysis/pmoe-analyze")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    name, config, l_star, grid_axes, kinds = file_facts(args.results)
    analyzer = Analyzer(args.analyze, args.results)
    summary = analyzer.summary()
    swept = swept_parameters(summary)
    written = []

    def out(stem):
        path = os.path.join(args.outdir, f"{name}_{stem}")
        written.append(path)
        return path

    with open(out("summary.csv"), "w") as csv:
        subprocess.run([args.analyze, "summary", args.results, "--csv"], check=True, stdout=csv)
    if "N" not in swept:
        print(f"{args.results}: N is not swept; only the summary table is written")
        print("\n".join(written))
        return
    axes = [p for p in swept if p != "N" and p in grid_axes and is_numeric(summary, p)]
    for axis in axes:
        short = SHORT.get(axis, axis)
        others = [p for p in swept if p not in ("N", axis)]
        title = f"{name} ({config})"
        nstar = analyzer.sample_complexity(axis)["nstar"]
        if not figures.phase_map(summary, nstar, axis, others, f"{title}: success rate",
                                 out(f"phase_{short}.png")):
            written.pop()
        # Theory's scaling in l holds from l* on (Lemma 4.1); below it the router loses patches.
        start = min(l_star) if axis == "model.l" and len(l_star) == 1 else None
        tables = analyzer.exponent(axis, start)
        note = f"fit over {short} >= l* = {start}" if start else ""
        figures.nstar_loglog(tables, axis, f"{title}: sample complexity (success reading)",
                             out(f"nstar_{short}.png"), note, reading="success")
        figures.nstar_loglog(tables, axis, f"{title}: sample complexity (mean-accuracy reading)",
                             out(f"nacc_{short}.png"), note, reading="mean_accuracy")
        with open(out(f"exponent_{short}.csv"), "w") as csv:
            subprocess.run([args.analyze, "exponent", args.results, "--over", axis, "--csv",
                            *(["--from", str(start)] if start else [])], check=True, stdout=csv)
        figures.metric_vs_axis(summary, axis, others, "test_acc",
                               "test accuracy (mean, 95% interval)",
                               f"{name}: test accuracy against {short} at fixed N",
                               out(f"accuracy_vs_{short}.png"))
        if not figures.metric_vs_axis(summary, axis, others, "router_hit",
                                      "router hit rate (mean, 95% interval)",
                                      f"{name}: router hit rate against {short} at fixed N" +
                                      figures._router_note(kinds),
                                      out(f"router_hit_vs_{short}.png"), ylim=(0, 1.05)):
            written.pop()
    if not axes:  # N alone varies within each series: N* per series (per model, say)
        figures.nstar_by_series(analyzer.sample_complexity(), f"{name}: sample complexity",
                                out("nstar.png"))
        with open(out("nstar.csv"), "w") as csv:
            subprocess.run([args.analyze, "sample-complexity", args.results, "--csv"],
                           check=True, stdout=csv)
    others = [p for p in swept if p != "N"]
    figures.accuracy_vs_n(summary, others, f"{name}: test accuracy", out("accuracy_vs_N.png"))
    if not figures.router_hit(summary, others, f"{name}: router hit rate", out("router_hit.png"),
                              kinds):
        written.pop()
    # Metrics the families declare per class (MODEL.md §7): one figure each, found by the form
    # of their columns (analyze.per_class_metrics), whatever the metric.
    for declared, metric in per_class_metrics(args.results).items():
        if not figures.per_class_vs_n(summary, others, metric, f"{name}: {declared}<i> against N",
                                      out(f"{declared}_vs_N.png")):
            written.pop()
    print("\n".join(written))


if __name__ == "__main__":
    main()
