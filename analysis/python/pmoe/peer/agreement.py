#!/usr/bin/python3
"""A second opinion on results: the same cells run by pmoe-sim and by the PyTorch peer.

The peer (../shared/peer/torch_peer.py) is an independent implementation of MODEL.md; it is run
as a program, one trial per process, never imported. Both sides get the same parameters but
draw different random numbers, so what must agree is the distribution of outcomes: per cell,
mean test accuracy, success rate, epochs (early stop on, at most 150), router hit rate (separate:
overall; joint: the mean of the y = +1 and y = -1 rates) and the realized delta_r of the data,
compared by a z statistic (Welch's for means, the pooled two-proportion one for rates). |z| > 3
on any of them marks the cell as differing, and the exit status is then 1. It is a screen, not a
proof: with 6 cells and 5 statistics a chance |z| > 3 somewhere happens in ~8 % of runs.

  /usr/bin/python3 sweeps/bench/peer/agreement.py [--trials 20] [--N 100,300] [--workers 2]

Needs Debian's python3-torch and libopenblas0-pthread (../shared/peer/README.md) and a built
build/sim/pmoe-sim.
"""
import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys

from pmoe.paths import ROOT, SIM

PEER = os.path.join(os.path.dirname(ROOT), "shared", "peer", "torch_peer.py")
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread"

# (label, model, l, k): the models of the README's measured table, default data set.
MODELS = [("separate l=4", "separate", 4, 2), ("joint k=8 l=6", "joint", 6, 8),
          ("CNN", "cnn", 4, 2)]
STATS = ["test_acc", "success", "epochs", "router_hit", "delta_r"]


def RouterHit(model, overall, pos, neg):
    """Separate: the overall hit rate. Joint: the mean of the y = +1 and y = -1 rates, since the
    peer reports only those. CNN: none."""
    if model == "separate":
        return overall
    if model == "joint" and pos is not None and neg is not None:
        return (pos + neg) / 2
    return None


def ours(model, l, k, n_train, trials, seed):
    cmd = [SIM, "--model", model, "--l", str(l), "--k", str(k), "--N", str(n_train),
           "--trials", str(trials), "--seed", str(seed), "--json"]
    record = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return [{"test_acc": t["test_acc"], "success": float(t["success"]), "epochs": t["epochs"],
             "router_hit": RouterHit(model, t.get("router_hit"), t.get("router_hit_pos"),
                                     t.get("router_hit_neg")),
             "delta_r": t["realized_delta_r"]} for t in record["trials"]]


def peer_trial(model, l, k, n_train, trial, seed):
    # The peer's random numbers depend on --seed alone (--trial is only a label): one seed per trial.
    cmd = ["/usr/bin/python3", PEER, "--model", model, "--l", str(l), "--k", str(k),
           "--N", str(n_train), "--early-stop", "--trial", str(trial),
           "--seed", str(seed * 100003 + trial)]
    env = dict(os.environ, LD_LIBRARY_PATH=OPENBLAS, OMP_NUM_THREADS="1")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    r = json.loads(out.strip().splitlines()[-1])
    return {"test_acc": r["test_acc"], "success": float(r["success"]), "epochs": r["epochs"],
            "router_hit": RouterHit(model, r.get("router_hit_rate"), r.get("gating_hit_rate_pos"),
                                    r.get("gating_hit_rate_neg")),
            "delta_r": max(r["realized_train"]["delta_r"], r["realized_test"]["delta_r"])}


def mean_se(values):
    """Mean and standard error of the defined values; None where there are too few."""
    values = [v for v in values if v is not None and not math.isnan(v)]
    if not values:
        return None, None
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, None
    var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    return m, math.sqrt(var / len(values))


def z_means(a, b):
    (ma, sa), (mb, sb) = mean_se(a), mean_se(b)
    if None in (ma, mb, sa, sb):
        return None
    spread = math.sqrt(sa * sa + sb * sb)
    if spread > 0:
        return (ma - mb) / spread
    return 0.0 if ma == mb else math.copysign(math.inf, ma - mb)  # both constant


def z_rates(a, b):
    pa, pb = sum(a) / len(a), sum(b) / len(b)
    pooled = (sum(a) + sum(b)) / (len(a) + len(b))
    if pooled in (0.0, 1.0):
        return 0.0
    return (pa - pb) / math.sqrt(pooled * (1 - pooled) * (1 / len(a) + 1 / len(b)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20, help="trials per cell and side")
    ap.add_argument("--N", default="100,300", help="training set sizes, comma-separated")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="peer processes at once")
    ap.add_argument("--models", default="separate,joint,cnn", help="models, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.trials < 2:
        sys.exit("agreement.py: --trials must be 2 or more (got %d)" % args.trials)
    for path, what in ((SIM, "build/sim/pmoe-sim (bash scripts/build.sh)"),
                       (PEER, "the peer at ../shared/peer/torch_peer.py")):
        if not os.path.exists(path):
            sys.exit("agreement.py: missing %s: %s" % (what, path))
    sizes = [int(v) for v in args.N.split(",")]
    wanted = args.models.split(",")
    unknown = set(wanted) - {m[1] for m in MODELS}
    if unknown:
        sys.exit("agreement.py: --models: unknown %s (expected separate, joint, cnn)" %
                 ", ".join(sorted(unknown)))
    cells = [(label, model, l, k, n) for n in sizes for (label, model, l, k) in MODELS
             if model in wanted]

    with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
        peer_jobs = {(c, t): pool.submit(peer_trial, c[1], c[2], c[3], c[4], t, args.seed)
                     for c in cells for t in range(args.trials)}
        ours_by_cell = {c: ours(c[1], c[2], c[3], c[4], args.trials, args.seed) for c in cells}
        peer_by_cell = {c: [peer_jobs[(c, t)].result() for t in range(args.trials)]
                        for c in cells}

    print("%d trials per cell and side; ours = pmoe-sim, peer = torch_peer.py; mean (z)" %
          args.trials)
    header = "%-22s" % "cell" + "".join("%24s" % s for s in STATS)
    print(header)
    differing = 0
    for c in cells:
        a, b = ours_by_cell[c], peer_by_cell[c]
        row, worst = "%-22s" % ("%s N=%d" % (c[0], c[4])), 0.0
        for s in STATS:
            va, vb = [t[s] for t in a], [t[s] for t in b]
            z = z_rates(va, vb) if s == "success" else z_means(va, vb)
            (ma, _), (mb, _) = mean_se(va), mean_se(vb)
            if ma is None or mb is None:
                row += "%24s" % "-"
                continue
            worst = max(worst, abs(z)) if z is not None else worst
            fmt = "%.1f" if s == "epochs" else "%.3f"
            row += "%24s" % (("%s / %s (%s)" % (fmt % ma, fmt % mb,
                                               "%+.1f" % z if z is not None else "-")))
        flag = worst > 3
        differing += flag
        print(row + ("   DIFFERS" if flag else ""))
    print("%d of %d cells differ (|z| > 3 on some statistic)" % (differing, len(cells)))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
