#!/usr/bin/python3
"""How correlated one trial index's outcomes are across N, in fixed-grid result files.

Per series: the logistic fit's N* and slope (per unit of log N), and the number of inversions
(a success at some N, a failure at a larger N, within one trial index) against those expected
under a Gaussian copula with latent correlation rho (0: independent trials; 1: a trial that
succeeds at N succeeds at every larger N), simulated with the series' fitted curve. The adaptive
search's choice of fresh trial indices rests on this (README, "Adaptive against a fixed grid").

    sweeps/bench/adaptive/trial_correlation.py results/bench-adaptive/grid-*.h5
"""
import math
import sys

import h5py
import numpy as np
import pandas as pd

PHI = np.frompyfunc(lambda x: 0.5 * math.erfc(-x / math.sqrt(2)), 1, 1)

def table(g):
    return pd.DataFrame({k: (v.asstr()[:] if v.dtype.kind == "O" else v[:]) for k, v in g.items()})

def fit(x, s, n):
    a, b = 0.0, 1.0
    xm = x.mean(); xs = x.std() or 1
    z = (x - xm) / xs
    for _ in range(100):
        p = 1 / (1 + np.exp(-(a + b * z)))
        g = np.array([np.sum(s - n * p), np.sum((s - n * p) * z)]) - 0.05 * np.array([a, b])
        w = n * p * (1 - p)
        H = np.array([[w.sum() + .05, (w * z).sum()], [(w * z).sum(), (w * z * z).sum() + .05]])
        d = np.linalg.solve(H, g); a += d[0]; b += d[1]
        if abs(d).max() < 1e-10: break
    B = b / xs; A = a - B * xm
    return A, B

def inversions(M):  # M[index][N] 0/1 (nan missing)
    c = 0
    for row in M:
        for i in range(len(row)):
            for j in range(i + 1, len(row)):
                c += row[i] == 1 and row[j] == 0
    return c

def simulate(A, B, logN, T, rho, reps=200, rng=np.random.default_rng(1)):
    """Mean inversions of T trial indices under the copula, over `reps` draws."""
    p = 1 / (1 + np.exp(-(A + B * logN)))
    out = []
    for _ in range(reps):
        z = rng.standard_normal((T, 1)); e = rng.standard_normal((T, len(logN)))
        u = PHI(np.sqrt(rho) * z + np.sqrt(1 - rho) * e).astype(float)
        out.append(inversions((u < p).astype(int)))
    return np.mean(out)

total = {"observed": 0}
for path in sys.argv[1:]:
    f = h5py.File(path, "r")
    t = table(f["trials"]).merge(table(f["cells"]), on="cell_id")
    keys = [k for k in ("model.kind", "model.l", "data.n") if k in t]
    for series, g in t.groupby(keys):
        Ns = np.sort(g["N"].unique()); logN = np.log(Ns)
        M = g.pivot_table(index="trial", columns="N", values="success", aggfunc="first").reindex(columns=Ns).values
        s = np.nansum(M, 0); n = np.sum(~np.isnan(M), 0)
        A, B = fit(logN, s, n)
        obs = inversions(M)
        sims = {r: simulate(A, B, logN, M.shape[0], r) for r in (0, 0.5, 0.8, 0.9, 0.95, 1.0)}
        total["observed"] += obs
        for r, v in sims.items():
            total[r] = total.get(r, 0) + v
        print(f"{path} {series}: N*={np.exp(-A/B):.1f} slope/lnN={B:.2f} (/log2N {B*np.log(2):.2f}) "
              f"trials {M.shape[0]} inversions obs {obs}; copula " +
              " ".join(f"rho{r}:{v:.1f}" for r, v in sims.items()))
print("all series: inversions observed " + str(total.pop("observed")) + "; expected " +
      " ".join(f"rho {r}: {v:.0f}" for r, v in total.items()))
