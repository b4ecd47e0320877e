#!/usr/bin/python3
"""A second opinion on Chen et al.'s experiment (MODEL.md §8): the same cells run by pmoe-sim and
by the PyTorch peer ../shared/peer/chen_peer.py (an independent implementation checked against
the authors' code), as analysis/peer/agreement.py does for pMoE.

Both sides get the same parameters and draw different random numbers (the peer one seed per
trial, its data drawn from that seed; pmoe-sim a fresh data set per trial), so what must agree is
the distribution of outcomes: per cell, mean test accuracy, mean dispatch entropy (MoE) and mean
steps taken, compared by Welch's z. |z| > 3 on any of them marks the cell as differing (exit
status 1). A screen, not a proof.

  /usr/bin/python3 analysis/chen/chen_agreement.py --settings 1,3 --trials 4 \
      --models switch-linear,switch-cubic,single-linear,single-cubic [--json out.json]

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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER = os.path.join(os.path.dirname(ROOT), "shared", "peer", "chen_peer.py")
SIM = os.path.join(ROOT, "build", "sim", "pmoe-sim")
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread"
# The published settings as data-C parameters (MODEL.md §8).
SETTINGS = {1: (3.0, 1.0), 2: (3.0, 2.0), 3: (2.0, 1.0), 4: (2.0, 2.0)}  # gamma_hi, sigma_p
STATS = ["test_acc", "dispatch_entropy", "epochs"]


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
    (ma, sa, na), (mb, sb, nb) = mean_se(a), mean_se(b)
    if ma is None or mb is None or sa is None or sb is None:
        return None
    se = math.sqrt(sa * sa + sb * sb)
    if se == 0:
        return 0.0 if ma == mb else math.copysign(math.inf, ma - mb)
    return (ma - mb) / se


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--settings", default="1,3")
    ap.add_argument("--models", default="switch-linear,switch-cubic,single-linear,single-cubic")
    ap.add_argument("--trials", type=int, default=4)
    ap.add_argument("--N", type=int, default=16000)
    ap.add_argument("--N-test", type=int, default=16000)
    ap.add_argument("--variant", choices=["published", "paper"], default="published")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", help="write every trial of both sides here")
    ap.add_argument("--reuse-peer", metavar="JSON",
                    help="take the peer's trials from an earlier run's --json (same cells and "
                         "trials) instead of running them again")
    args = ap.parse_args()
    earlier = {}
    if args.reuse_peer:
        with open(args.reuse_peer) as f:
            for c in json.load(f)["cells"]:
                earlier[(c["setting"], c["model"], c["activation"])] = c["peer"]
    cells = [(int(s), m.split("-")[0], m.split("-")[1])
             for s in args.settings.split(",") for m in args.models.split(",")]
    report, differs = [], False
    with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
        for setting, model, activation in cells:
            cached = earlier.get((setting, model, activation))
            futures = [] if cached else [
                pool.submit(peer_trial, setting, model, activation, t, args.seed, args)
                for t in range(args.trials)]
            mine, mine_seconds = ours(setting, model, activation, args.trials, args.seed, args)
            peer = cached[:args.trials] if cached else [f.result() for f in futures]
            line = f"setting {setting} {model:6s} {activation:6s}"
            cell = {"setting": setting, "model": model, "activation": activation,
                    "ours": mine, "peer": peer, "ours_seconds": mine_seconds, "z": {}}
            for stat in STATS:
                a, b = [r[stat] for r in mine], [r[stat] for r in peer]
                z = welch_z(a, b)
                ma, mb = mean_se(a)[0], mean_se(b)[0]
                if ma is None:
                    continue
                cell["z"][stat] = z
                flag = z is not None and abs(z) > 3
                differs = differs or flag
                line += f" | {stat} {ma:.4f} vs {mb:.4f} z={'-' if z is None else f'{z:+.2f}'}"
                line += " DIFFERS" if flag else ""
            line += (f" | s/trial {mine_seconds / args.trials:.1f} vs "
                     f"{sum(r['seconds'] for r in peer) / len(peer):.1f}")
            print(line, flush=True)
            report.append(cell)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "cells": report}, f, indent=1)
    print("no cell differs" if not differs else "some cell differs (|z| > 3)")
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
