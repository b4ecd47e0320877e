#!/usr/bin/python3
"""A second opinion on Chen et al.'s experiment (MODEL.md §8): the same cells run by pmoe-sim and
by the PyTorch peer ../shared/peer/chen_peer.py (an independent implementation checked against
the authors' code), as sweeps/bench/peer/agreement.py does for pMoE.

Both sides get the same parameters and draw different random numbers (the peer one seed per
trial, its data drawn from that seed; pmoe-sim a fresh data set per trial), so what must agree is
the distribution of outcomes: per cell, mean test accuracy, mean dispatch entropy (MoE) and mean
steps taken, compared by Welch's z. |z| > 3 on any of them marks the cell as differing (exit
status 1). A screen, not a proof.

  /usr/bin/python3 sweeps/bench/peer/chen_agreement.py [--settings 1,2,3,4] [--trials 4] \
      [--trials-single 2] [--models single-linear,single-cubic,switch-linear,switch-cubic] \
      [--json out.json] [--markdown]

prints a line per cell as it finishes, then a table of every cell and statistic (ours, the
peer's, z). With --json the trials are kept after each cell; running again with the same file
extends it (more --trials run only the peer trials it lacks), and --report-only prints its
table without running anything.

Needs Debian's python3-torch and libopenblas0-pthread (../shared/peer/README.md) and a built
build/sim/pmoe-sim. Peer trials run --workers at a time, one thread each.
"""
import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import time

from pmoe import atomic
from pmoe.paths import ROOT, SIM

PEER = os.path.join(os.path.dirname(ROOT), "shared", "peer", "chen_peer.py")
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread"
# The published settings as data-C parameters (MODEL.md §8).
SETTINGS = {1: (3.0, 1.0), 2: (3.0, 2.0), 3: (2.0, 1.0), 4: (2.0, 2.0)}  # gamma_hi, sigma_p
STATS = ["test_acc", "dispatch_entropy", "epochs"]
DECIMALS = {"test_acc": 4, "dispatch_entropy": 3, "epochs": 1}


def ours(setting, model, activation, trials, seed, args):
    gamma_hi, sigma_p = SETTINGS[setting]
    cmd = [SIM, "--data", "cluster", "--n", "4", "--d", "50", "--N", str(args.N),
           "--N_test", str(args.N_test), "--data.gamma_hi", str(gamma_hi),
           "--data.sigma_p", str(sigma_p), "--model", model, "--model.activation", activation,
           "--trials", str(trials), "--seed", str(seed), "--threads", "1", "--json"]
    if model == "switch":  # the single model reads no variant (and refuses what it does not read)
        cmd += ["--model.variant", args.variant]
    t0 = time.perf_counter()
    record = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    seconds = time.perf_counter() - t0
    rows = [{"test_acc": t["test_acc"], "dispatch_entropy": t.get("dispatch_entropy"),
             "epochs": t["steps"]} for t in record["trials"]]
    return rows, seconds


def peer_trial(setting, model, activation, trial, seed, args):
    cmd = ["/usr/bin/python3", PEER, "--setting", str(setting), "--model",
           "moe" if model == "switch" else "single", "--activation", activation,
           "--N", str(args.N), "--N-test", str(args.N_test), "--seed", str(seed * 100003 + trial)]
    if args.variant == "paper" and model == "switch":
        cmd += ["--gate", "softmax", "--moe-loss", "logistic", "--no-test-noise"]
    env = dict(os.environ, LD_LIBRARY_PATH=OPENBLAS, OMP_NUM_THREADS="1")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    r = json.loads(out.strip().splitlines()[-1])
    return {"test_acc": r["test_acc"], "dispatch_entropy": r.get("dispatch_entropy"),
            "epochs": r["epochs"], "seconds": r["seconds_data"] + r["seconds_train"] +
            r["seconds_eval"]}


def mean_se(values):
    values = [v for v in values if v is not None and not math.isnan(v)]
    if not values:
        return None, None, 0
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, None, len(values)
    var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    return m, math.sqrt(var / len(values)), len(values)


def welch_z(a, b):
    (ma, sa, _), (mb, sb, _) = mean_se(a), mean_se(b)
    if ma is None or mb is None or sa is None or sb is None:
        return None
    se = math.sqrt(sa * sa + sb * sb)
    if se == 0:
        return 0.0 if ma == mb else math.copysign(math.inf, ma - mb)
    return (ma - mb) / se


def cell_key(setting, model, activation):
    return f"{setting}/{model}/{activation}"


def load_earlier(path):
    """The cells of an earlier --json (to resume or extend it): key -> cell record."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        return {cell_key(c["setting"], c["model"], c["activation"]): c for c in json.load(f)["cells"]}


def save(path, args, cells):
    if not path:
        return
    atomic.write_text(path, json.dumps({"args": vars(args), "cells": cells}, indent=1))


def describe(values, decimals):
    m, se, n = mean_se(values)
    if m is None:
        return "-"
    sd = se * math.sqrt(n) if se is not None else 0.0
    return f"{m:.{decimals}f} ± {sd:.{decimals}f} ({n})"


def cell_order(c):
    """Settings in order, then the published table's columns: single before MoE, linear first."""
    return (c["setting"], c["model"] != "single", c["activation"] != "linear")


def z_table(cells, markdown):
    """Every cell and statistic: ours, the peer's, Welch's z; and the largest |z|."""
    lines, largest = [], 0.0
    head = ["cell", "statistic", "pmoe-sim", "peer", "z"]
    rows = []
    for c in sorted(cells, key=cell_order):
        name = f"setting {c['setting']}, {'MoE' if c['model'] == 'switch' else 'single'} " \
               f"{c['activation']}"
        for stat in STATS:
            a, b = [r[stat] for r in c["ours"]], [r[stat] for r in c["peer"]]
            if mean_se(a)[0] is None and mean_se(b)[0] is None:
                continue  # no entropy for a single model
            z = welch_z(a, b)
            if z is not None and math.isfinite(z):
                largest = max(largest, abs(z))
            flag = " DIFFERS" if z is not None and abs(z) > 3 else ""
            rows.append([name, "steps" if stat == "epochs" else stat, describe(a, DECIMALS[stat]),
                         describe(b, DECIMALS[stat]),
                         ("-" if z is None else f"{z:+.2f}") + flag])
            name = ""
    if markdown:
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        width = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        for r in [head] + rows:
            lines.append("  ".join(str(x).ljust(w) for x, w in zip(r, width)).rstrip())
    return "\n".join(lines), largest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--settings", default="1,2,3,4")
    ap.add_argument("--models", default="single-linear,single-cubic,switch-linear,switch-cubic")
    ap.add_argument("--trials", type=int, default=4, help="trials a side per MoE cell (4)")
    ap.add_argument("--trials-single", type=int,
                    help="trials a side per single-model cell (default: --trials); a peer "
                         "single-model trial of 801 steps is several times a MoE trial")
    ap.add_argument("--N", type=int, default=16000)
    ap.add_argument("--N-test", type=int, default=16000)
    ap.add_argument("--variant", choices=["published", "paper"], default="published")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", help="every trial of both sides, rewritten after each cell; an "
                                   "existing file is resumed or extended: its peer trials are "
                                   "kept and only the missing ones run")
    ap.add_argument("--reuse-peer", metavar="JSON",
                    help="take the peer's trials from an earlier run's --json (same cells and "
                         "trials) instead of running them again")
    ap.add_argument("--report-only", action="store_true",
                    help="run nothing: print the z table of the cells in --json")
    ap.add_argument("--also", metavar="JSON", action="append", default=[],
                    help="with --report-only: cells from more --json files (a follow-up with "
                         "more trials); of two records of a cell the one with more trials counts")
    ap.add_argument("--markdown", action="store_true", help="the z table as Markdown")
    args = ap.parse_args()
    earlier = load_earlier(args.reuse_peer)
    resumed = load_earlier(args.json)
    if args.report_only:
        for path in args.also:
            for key, c in load_earlier(path).items():
                have = resumed.get(key)
                if not have or min(len(c["ours"]), len(c["peer"])) > \
                        min(len(have["ours"]), len(have["peer"])):
                    resumed[key] = c
        cells = list(resumed.values())
        text, largest = z_table(cells, args.markdown)
        print(text)
        print(f"largest |z| {largest:.2f}: " + ("no cell differs" if largest <= 3 else
                                               "some cell differs (|z| > 3)"))
        return 1 if largest > 3 else 0
    wanted = [(int(s), m.split("-")[0], m.split("-")[1])
              for s in args.settings.split(",") for m in args.models.split(",")]
    done = [c for k, c in resumed.items()
            if k not in {cell_key(*w) for w in wanted}]  # other cells of the file stay in it
    report = []
    with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
        for setting, model, activation in wanted:
            trials = args.trials_single if model == "single" and args.trials_single else \
                args.trials
            key = cell_key(setting, model, activation)
            old = resumed.get(key, {})
            peer = list(earlier.get(key, {}).get("peer", []) or old.get("peer", []))[:trials]
            futures = [pool.submit(peer_trial, setting, model, activation, t, args.seed, args)
                       for t in range(len(peer), trials)]
            if len(old.get("ours", [])) >= trials:
                mine, mine_seconds = old["ours"][:trials], old.get("ours_seconds", 0)
            else:
                mine, mine_seconds = ours(setting, model, activation, trials, args.seed, args)
            peer += [f.result() for f in futures]
            cell = {"setting": setting, "model": model, "activation": activation,
                    "ours": mine, "peer": peer, "ours_seconds": mine_seconds, "z": {}}
            line = f"setting {setting} {model:6s} {activation:6s}"
            for stat in STATS:
                a, b = [r[stat] for r in mine], [r[stat] for r in peer]
                ma, mb = mean_se(a)[0], mean_se(b)[0]
                if ma is None:
                    continue
                z = welch_z(a, b)
                cell["z"][stat] = z
                flag = z is not None and abs(z) > 3
                line += f" | {stat} {ma:.4f} vs {mb:.4f} z={'-' if z is None else f'{z:+.2f}'}"
                line += " DIFFERS" if flag else ""
            line += (f" | s/trial {mine_seconds / max(1, len(mine)):.1f} vs "
                     f"{sum(r['seconds'] for r in peer) / max(1, len(peer)):.1f}")
            print(line, flush=True)
            report.append(cell)
            save(args.json, args, done + report)
    text, largest = z_table(report, args.markdown)
    print()
    print(text)
    differs = largest > 3
    print(f"largest |z| {largest:.2f}: " + ("no cell differs" if not differs else
                                           "some cell differs (|z| > 3)"))
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
