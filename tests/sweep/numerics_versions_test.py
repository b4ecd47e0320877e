#!/usr/bin/env python3
"""Numerics version 7 against this build (issue 42): files of version 7 stay readable, are
refused for growth and merge with a message naming both versions and the way out, and this
build's answers agree with version 7's within the Monte Carlo error, cell by cell.

tests/support/numerics7/ holds two small sweeps (every model kind: separate and joint pMoE and
the CNN on the pattern model, Chen's switch MoE and single model on the cluster model) as
numerics version 7 computed them. This test runs the same configs with this build and compares,
per cell, mean test accuracy, the converged share and the success rate, and per series N* and
N_acc. A build of version 7 must reproduce the rows bit for bit instead.

usage: numerics_versions_test.py PMOE_SWEEP PMOE_ANALYZE TMP_DIR
"""
import json
import math
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SUPPORT = os.path.join(HERE, "..", "support", "numerics7")
KINDS = ("kinds_pattern", "kinds_cluster")
OLD = 7
# 30 + 8 cells, three statistics each, 6 + 2 series, two readings each: about 130 comparisons;
# z = 3.6 keeps the chance of one false alarm over all of them near 4 % (Bonferroni) when
# nothing moved but the Monte Carlo draw, while a wrong gradient or a lost expert moves accuracy
# by far more.
Z = 3.6

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def run(args, expect=0):
    r = subprocess.run(args, capture_output=True, text=True, timeout=900)
    if expect is not None and r.returncode != expect:
        raise SystemExit(f"{' '.join(args)} exited {r.returncode}, expected {expect}:\n"
                         f"{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return r


def build_numerics(sweep):
    for line in run([sweep, "--version"]).stdout.splitlines():
        if line.startswith("numerics version"):
            return int(line.split()[2])
    raise SystemExit(f"{sweep} --version printed no numerics version")


def summary(analyze, path):
    rows = json.loads(run([analyze, "summary", path, "--json"]).stdout)
    keys = [k for k in rows[0] if k in ("model.kind", "model.activation", "data.n", "N")]
    return {tuple(str(r[k]) for k in keys): r for r in rows}


def nstar(analyze, path, over):
    args = [analyze, "sample-complexity", path, "--json"] + (["--over", over] if over else [])
    return {(r["series"], str(r[over] if over else r["axis"])): r
            for r in json.loads(run(args).stdout)["nstar"]}


def mean_within(name, a, b):
    """Mean test accuracy of two cells within Z combined standard errors (+ 0.002: a cell whose
    trials all reach the same accuracy has no spread to compare with)."""
    se = math.sqrt(a["test_acc_sd"] ** 2 / a["trials"] + b["test_acc_sd"] ** 2 / b["trials"])
    diff = abs(a["test_acc"] - b["test_acc"])
    check(diff <= Z * se + 0.002,
          f"{name}: test accuracy {a['test_acc']:.4f} (v{OLD}) vs {b['test_acc']:.4f}, "
          f"apart by {diff:.4f} > {Z} x {se:.4f}")


def rate_within(name, what, a, b):
    """Two shares of n trials each within Z standard errors of their difference (the pooled
    share, never below 1/n so that 0 against 1/n passes)."""
    pa, pb, n = a[what], b[what], a["trials"]
    pool = min(max((pa + pb) / 2, 1.0 / n), 1 - 1.0 / n)
    se = math.sqrt(2 * pool * (1 - pool) / n)
    check(abs(pa - pb) <= Z * se + 1e-9,
          f"{name}: {what} {pa:.3f} (v{OLD}) vs {pb:.3f}: apart by more than {Z} x {se:.3f}")


def intervals_meet(name, reading, a, b, est, lo, hi):
    """Two estimates of the same reading within Z combined standard errors on the log scale,
    each error read from its 95 % bootstrap interval."""
    if a[est] is None or b[est] is None or a[lo] is None or b[lo] is None:
        check(a[est] is None and b[est] is None or a["grid"] != "inside" or b["grid"] != "inside",
              f"{name}: {reading} estimated in one version only ({a[est]} vs {b[est]})")
        return
    se = math.hypot(math.log(a[hi] / a[lo]), math.log(b[hi] / b[lo])) / (2 * 1.96)
    check(abs(math.log(a[est] / b[est])) <= Z * se,
          f"{name}: {reading} {a[est]:.1f} [{a[lo]:.1f}, {a[hi]:.1f}] (v{OLD}) vs "
          f"{b[est]:.1f} [{b[lo]:.1f}, {b[hi]:.1f}]: apart by more than {Z} standard errors")


def trials_of(path):
    """The columns of /trials but timings, rows in (cell, trial) order, as lists of values."""
    with h5py.File(path, "r") as f:
        t = f["trials"]
        order = np.lexsort((np.asarray(t["trial"]), np.asarray(t["cell_id"])))
        return {name: [np.asarray(v).tolist() for v in np.asarray(t[name])[order]]
                for name in t if not name.endswith("_ms")}


def compare(sweep, analyze, tmp, numerics):
    for kind in KINDS:
        config = os.path.join(SUPPORT, kind + ".ini")
        old = os.path.join(SUPPORT, kind + "_v7.h5")
        new = os.path.join(tmp, kind + "_new.h5")
        run([sweep, "run", config, "--out", new])
        if numerics == OLD:  # the same version: the same rows, bit for bit
            a, b = trials_of(old), trials_of(new)
            for name in a:
                check(repr(a[name]) == repr(b.get(name)),
                      f"{kind}: /trials/{name} differs under the same numerics version")
            continue
        cells_old, cells_new = summary(analyze, old), summary(analyze, new)
        check(cells_old.keys() == cells_new.keys(), f"{kind}: other cells in the new file")
        for key in cells_old.keys() & cells_new.keys():
            name = f"{kind} {', '.join(key)}"
            a, b = cells_old[key], cells_new[key]
            check(a["trials"] == b["trials"] and b["ok"] == b["trials"],
                  f"{name}: {b['ok']} of {b['trials']} trials ok")
            mean_within(name, a, b)
            rate_within(name, "converged", a, b)
            rate_within(name, "success_rate", a, b)
        over = "data.n" if kind == "kinds_pattern" else None
        series_old, series_new = nstar(analyze, old, over), nstar(analyze, new, over)
        check(series_old.keys() == series_new.keys(), f"{kind}: other series")
        for key in series_old.keys() & series_new.keys():
            name = f"{kind} {key[0]} at {key[1]}"
            a, b = series_old[key], series_new[key]
            intervals_meet(name, "N*", a, b, "N_star", "lo", "hi")
            a_acc = dict(a, grid=a["acc_grid"])
            b_acc = dict(b, grid=b["acc_grid"])
            intervals_meet(name, "N_acc", a_acc, b_acc, "N_acc", "acc_lo", "acc_hi")


def readable(sweep, analyze, tmp):
    """Every command that reads a file reads a version-7 file."""
    old = os.path.join(SUPPORT, "kinds_pattern_v7.h5")
    with h5py.File(old, "r") as f:
        check(int(f.attrs["numerics_version"]) == OLD, f"{old} is not of numerics version {OLD}")
    for args in (["summary", old], ["sample-complexity", old], ["exponent", old, "--over", "data.n"],
                 ["table", old, "--rows", "model.kind", "--cols", "N", "--where", "data.n=8"],
                 ["report", old, "--out", os.path.join(tmp, "v7_report.html")]):
        r = run([analyze] + args, expect=None)
        check(r.returncode == 0, f"pmoe-analyze {args[0]} on a version-{OLD} file exited "
                                 f"{r.returncode}: {r.stderr.strip()[:300]}")
    r = run([sweep, "status", old], expect=None)
    check(r.returncode == 0, f"pmoe-sweep status on a version-{OLD} file exited {r.returncode}")


def refusal_says(r, what, numerics):
    check(r.returncode == 2, f"{what}: exit {r.returncode}, expected 2")
    for words in (f"numerics version {OLD}", f", {numerics} in", "rerun the sweep into a new file",
                  "7a0ed56"):
        check(words in r.stderr, f"{what}: the message lacks \"{words}\":\n{r.stderr.strip()}")


def refused(sweep, tmp, numerics):
    """Growing or merging a version-7 file with this build is refused and loses nothing."""
    config = os.path.join(SUPPORT, "kinds_pattern.ini")
    held = os.path.join(tmp, "held_v7.h5")
    shutil.copyfile(os.path.join(SUPPORT, "kinds_pattern_v7.h5"), held)
    before = open(held, "rb").read()
    r = run([sweep, "run", config, "--out", held], expect=None)
    refusal_says(r, "growing a version-7 file", numerics)
    check(open(held, "rb").read() == before, "a refused growth changed the version-7 file")
    check(not os.path.exists(held + ".journal"), "a refused growth left a journal")

    # Two shards of one sweep, one of them as version 7 computed it.
    shards = os.path.join(tmp, "shards.h5")
    for i in (1, 2):
        run([sweep, "run", config, "--out", shards, "--shard", f"{i}/2"])
    shard_dir = shards[:-3] + ".shards"
    first, second = (os.path.join(shard_dir, f"shard-{i}-of-2.h5") for i in (1, 2))
    with h5py.File(first, "r+") as f:
        f.attrs["numerics_version"] = OLD
    merged = os.path.join(tmp, "merged.h5")
    r = run([sweep, "merge", merged, first, second], expect=None)
    refusal_says(r, "merging a version-7 shard", numerics)
    check(not os.path.exists(merged), "a refused merge wrote its output")


def main():
    sweep, analyze, tmp = sys.argv[1:4]
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    numerics = build_numerics(sweep)
    readable(sweep, analyze, tmp)
    if numerics != OLD:
        refused(sweep, tmp, numerics)
    compare(sweep, analyze, tmp, numerics)
    for f in failures:
        print("FAIL", f)
    print(f"numerics {OLD} against {numerics}: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
