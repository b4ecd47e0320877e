#!/usr/bin/python3
"""Adaptive search against a fixed N grid, on the same question, over several master seeds.

For each seed: runs the fixed-grid config, measures each series' N* and its 95 % interval with
pmoe-analyze (logistic fit, paired bootstrap), then runs the adaptive config with its target set
to the grid's median relative interval width for that seed (the precision the grid bought), and
prints per series: trials used, N* and interval of both, their relative widths, and whether the
two estimates agree (their difference within 1.96 standard errors, in log N). With --per-series,
each series runs alone with the width the grid bought for it as its target (the issue's question:
that width with at most a fifth of the grid's trials). Times are wall and CPU seconds of the
sweeps. A benchmark, not a test: it prints its figures and judges nothing.

  sweeps/bench/adaptive/adaptive_vs_grid.py sweeps/configs/adaptive/phase_l_grid.ini \\
      sweeps/configs/adaptive/phase_l.ini --seeds 1,2,3 [--set model.l=2:6] [--dir DIR]
      [--per-series] [--reuse-grid] [--markdown] [--threads N]

--set KEY=VALUE replaces a [grid] axis (or adds it) in both configs, to run a smaller question.
"""
import argparse
import json
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
SWEEP = os.path.join(ROOT, "build", "sweeps", "pmoe-sweep")
ANALYZE = os.path.join(ROOT, "build", "analysis", "pmoe-analyze")


def rewrite(text, seed, target=None, axes=()):
    """The config with its seed, its adaptive target and the given [grid] axes replaced."""
    text = re.sub(r"(?m)^[ \t]*seed[ \t]*=.*$", f"seed = {seed}", text)
    if target is not None:
        text = re.sub(r"(?m)^[ \t]*target[ \t]*=.*$", f"target = {target:.4f}", text)
    for key, value in axes:
        pattern = rf"(?m)^[ \t]*{re.escape(key)}[ \t]*=.*$"
        if re.search(pattern, text.split("[grid]", 1)[1]):
            head, grid = text.split("[grid]", 1)
            text = head + "[grid]" + re.sub(pattern, f"{key} = {value}", grid, count=1)
        else:
            text = text.replace("[grid]\n", f"[grid]\n{key} = {value}\n", 1)
    return text


def run(config_text, name, workdir, threads, reuse=False):
    """Runs the config into WORKDIR/NAME.h5 and reads its N* table. With `reuse`, a finished file
    of the same config text is kept (pmoe-sweep resumes it: nothing is rerun)."""
    path = os.path.join(workdir, name + ".ini")
    out = os.path.join(workdir, name + ".h5")
    same = reuse and os.path.exists(out) and os.path.exists(path) and open(path).read() == config_text
    with open(path, "w") as f:
        f.write(config_text)
    if not same:  # its journal too: --force would replay the rows held there, costing nothing
        for stale in (out, out + ".journal"):
            if os.path.exists(stale):
                os.remove(stale)
    start, cpu = time.time(), ChildCpu()
    subprocess.run([SWEEP, "run", path, "--out", out] + ([] if same else ["--force"]) +
                   (["--threads", str(threads)] if threads else []),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = (time.time() - start, ChildCpu() - cpu)
    table = json.loads(subprocess.run([ANALYZE, "sample-complexity", out, "--json"], check=True,
                                      capture_output=True, text=True).stdout)
    return {row["series"]: row for row in table["nstar"]}, seconds


def ChildCpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def width(row):
    lo, hi, n = row["lo"], row["hi"], row["N_star"]
    if row["grid"] != "inside" or lo is None or hi is None or not n:
        return None
    return (hi - lo) / n


def Agree(g, a):
    """Whether two estimates of N* differ by less than 1.96 standard errors of the difference,
    in log N, each standard error read off its 95 % interval; two bounds on the same side agree."""
    if g["grid"] != "inside" or a["grid"] != "inside":
        return g["grid"] == a["grid"]
    if None in (g["lo"], g["hi"], a["lo"], a["hi"]):
        return False
    se = lambda r: (math.log(r["hi"]) - math.log(r["lo"])) / 3.92
    return abs(math.log(a["N_star"]) - math.log(g["N_star"])) <= 1.96 * math.hypot(se(g), se(a))


def fmt(row):
    if row["grid"] != "inside":
        return f"{row['grid']:>24}"
    lo = "-" if row["lo"] is None else f"{row['lo']:.0f}"
    hi = "-" if row["hi"] is None else f"{row['hi']:.0f}"
    return f"{row['N_star']:7.1f} [{lo:>5}, {hi:>5}]".rjust(24)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("grid_config")
    parser.add_argument("adaptive_config")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--dir", default=os.path.join(ROOT, "results", "bench-adaptive"))
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--reuse-grid", action="store_true",
                        help="keep a finished grid file of the same config (its time is then not "
                        "the grid's cost)")
    parser.add_argument("--per-series", action="store_true",
                        help="run each series alone with its own grid width as the target")
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table")
    args = parser.parse_args()
    axes = [tuple(item.split("=", 1)) for item in args.set]
    os.makedirs(args.dir, exist_ok=True)
    grid_text = open(args.grid_config).read()
    adaptive_text = open(args.adaptive_config).read()
    totals = {"grid": 0, "adaptive": 0, "agree": 0, "series": 0, "met": 0}
    time_of = {"grid": [0.0, 0.0], "adaptive": [0.0, 0.0]}  # wall, CPU seconds
    ratios, width_pairs, markdown = [], [], []

    def timed(kind, result):
        table, (wall, cpu) = result
        time_of[kind][0] += wall
        time_of[kind][1] += cpu
        return table, wall, cpu

    for seed in [int(s) for s in args.seeds.split(",")]:
        grid, grid_s, grid_cpu = timed("grid", run(rewrite(grid_text, seed, axes=axes),
                                                   f"grid-{seed}", args.dir, args.threads,
                                                   reuse=args.reuse_grid))
        widths = [w for w in (width(r) for r in grid.values()) if w is not None]
        median = statistics.median(widths) if widths else 0.25
        if args.per_series:
            # Each series alone, its target the width the grid bought for it.
            adaptive, adaptive_s, adaptive_cpu = {}, 0.0, 0.0
            for n, (series, g) in enumerate(grid.items()):
                fixed = [tuple(part.split("=", 1)) for part in series.split(", ") if "=" in part]
                target = width(g) or median
                table, wall, cpu = timed("adaptive", run(
                    rewrite(adaptive_text, seed, target, axes + fixed),
                    f"adaptive-{seed}-{n}", args.dir, args.threads))
                # Alone, the series is the file's only one (pmoe-analyze names it "all").
                if len(table) == 1:
                    adaptive[series] = next(iter(table.values()))
                adaptive_s += wall
                adaptive_cpu += cpu
            how = "each series its own grid width"
        else:
            adaptive, adaptive_s, adaptive_cpu = timed("adaptive", run(
                rewrite(adaptive_text, seed, median, axes), f"adaptive-{seed}", args.dir,
                args.threads))
            how = f"the grid's median relative width {median:.3f}"
        print(f"seed {seed}: target = {how}; grid {grid_s:.0f} s wall {grid_cpu:.0f} s CPU, "
              f"adaptive {adaptive_s:.0f} s wall {adaptive_cpu:.0f} s CPU (this machine)")
        print(f"  {'series':<28} {'grid trials':>11} {'grid N* [95%]':>24} {'width':>6}  "
              f"{'adapt trials':>12} {'adaptive N* [95%]':>24} {'width':>6}  agree")
        for series, g in grid.items():
            a = adaptive.get(series)
            if a is None:
                continue
            wg, wa = width(g), width(a)
            agree = Agree(g, a)
            totals["grid"] += g["trials"]
            totals["adaptive"] += a["trials"]
            totals["agree"] += agree
            totals["series"] += 1
            # The target: the grid's width with at most a fifth of its trials, agreeing.
            totals["met"] += (wg is not None and wa is not None and wa <= wg and agree and
                              5 * a["trials"] <= g["trials"])
            ratios.append(a["trials"] / g["trials"])
            if wg is not None and wa is not None:
                width_pairs.append((wg, wa))
            print(f"  {series:<28} {g['trials']:>11} {fmt(g)} "
                  f"{'-' if wg is None else f'{wg:6.3f}':>6}  {a['trials']:>12} {fmt(a)} "
                  f"{'-' if wa is None else f'{wa:6.3f}':>6}  {'yes' if agree else 'NO'}")
            markdown.append(f"| {seed} | {series} | {g['trials']}, {fmt(g).strip()}, "
                            f"{'-' if wg is None else f'{wg:.2f}'} | {a['trials']}, "
                            f"{fmt(a).strip()}, {'-' if wa is None else f'{wa:.2f}'} | "
                            f"{a['trials'] / g['trials']:.2f} | {'yes' if agree else 'NO'} |")
    print(f"\nall seeds: {totals['series']} series; trials adaptive/grid = "
          f"{totals['adaptive']}/{totals['grid']} = {totals['adaptive'] / max(1, totals['grid']):.3f}"
          f" (per series median {statistics.median(ratios) if ratios else float('nan'):.3f}); "
          f"estimates agree in {totals['agree']}/{totals['series']}; the target (grid's width, at "
          f"most 1/5 of its trials, agreeing) met in {totals['met']}/{totals['series']}")
    print(f"time: grid {time_of['grid'][0]:.0f} s wall, {time_of['grid'][1]:.0f} s CPU; adaptive "
          f"{time_of['adaptive'][0]:.0f} s wall, {time_of['adaptive'][1]:.0f} s CPU")
    if width_pairs:
        print(f"relative 95% widths, median over series with both inside the range: grid "
              f"{statistics.median(w for w, _ in width_pairs):.3f}, adaptive "
              f"{statistics.median(w for _, w in width_pairs):.3f}")
    if args.markdown:
        print("\n| seed | series | grid: trials, N* [95 %], width | adaptive: trials, N* [95 %], "
              "width | trials ratio | agree |\n|---|---|---|---|---|---|")
        print("\n".join(markdown))

if __name__ == "__main__":
    sys.exit(main())
