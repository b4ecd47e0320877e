"""One result file as the report's rules read it: pmoe-analyze's tables (summary, sample
complexity, exponents; every fit lives there) and the per-trial values that paired comparisons of
mean accuracy need, with the paired bootstrap over trial indices that pmoe-analyze uses (trial t
of every cell shares its data set, so differences keep that pairing)."""
import json
import math
import os
import subprocess

import numpy as np

from pmoe import results

BOOTSTRAP = 1000
LEVEL = 0.95


class Evidence:
    def __init__(self, path, analyze):
        self.path = path
        self.analyze = analyze
        self.name = os.path.splitext(os.path.basename(path))[0]
        self._cache = {}
        rf = results.read(path)  # validated: a damaged file never reaches a rule
        self.config_text = rf.attrs["config"]
        self.config_path = str(rf.attrs.get("config_path", ""))
        self.cells = rf.params
        self.cell_of = rf.cell_index()
        self.trial = rf.trials["trial"].astype(int)
        self.status = rf.trials["status"].astype(int)
        self.columns = {k: v for k, v in rf.trials.items()
                        if isinstance(v, np.ndarray) and v.dtype.kind in "fiu"}
        self.lists = rf.lists
        self.wall_seconds = (float(rf.trials["wall_ms"].sum() / 1000) if "wall_ms" in rf.trials
                             else math.nan)
        self.trials_per_cell = rf.trials_per_cell

    def _json(self, *args):
        if args not in self._cache:
            # summary draws no bootstrap: pmoe-analyze refuses --bootstrap there.
            extra = [] if args[0] == "summary" else ["--bootstrap", str(BOOTSTRAP)]
            out = subprocess.run([self.analyze, *args, self.path, "--json", *extra], check=True,
                                 capture_output=True, text=True)
            self._cache[args] = json.loads(out.stdout)
        return self._cache[args]

    def summary(self):
        return self._json("summary")

    def sample_complexity(self, axis=None):
        return self._json("sample-complexity", *(["--over", axis] if axis else []))

    def exponent(self, axis, start=None):
        return self._json("exponent", "--over", axis, *(["--from", str(start)] if start else []))

    def cells_where(self, **params):
        """Indices of the cells whose parameters match (names with dots as __: model__kind)."""
        want = {k.replace("__", "."): str(v) for k, v in params.items()}
        return [i for i, c in enumerate(self.cells)
                if all(c.get(k) == v for k, v in want.items())]

    def per_trial(self, cell, column):
        """The column's values of one cell by trial index (NaN where missing or not ok)."""
        values = np.full(self.trials_per_cell, np.nan)
        rows = (self.cell_of == cell) & (self.status == 0)
        data = self.columns[column][rows].astype(float)
        if np.issubdtype(self.columns[column].dtype, np.integer):
            data[data == -1] = np.nan
        values[self.trial[rows]] = data
        return values


def bootstrap(statistic, trials, seed=1):
    """statistic(weights) -> float, weights one per trial index; returns (value, lo, hi), the
    interval a percentile interval of the paired bootstrap (NaN replicates left out)."""
    value = statistic(np.ones(trials))
    rng = np.random.default_rng(seed)
    reps = []
    for _ in range(BOOTSTRAP):
        weights = np.bincount(rng.integers(0, trials, trials), minlength=trials).astype(float)
        r = statistic(weights)
        if not math.isnan(r):
            reps.append(r)
    if not reps:
        return value, math.nan, math.nan
    lo, hi = np.percentile(reps, [100 * (1 - LEVEL) / 2, 100 * (1 + LEVEL) / 2])
    return value, float(lo), float(hi)


def weighted_mean(values, weights):
    ok = ~np.isnan(values)
    w = weights[ok]
    return float(np.sum(values[ok] * w) / np.sum(w)) if np.sum(w) > 0 else math.nan


def slope_vs_log(xs, columns, weights):
    """Least-squares slope of the weighted cell means against log x (NaN with < 2 points)."""
    means = [weighted_mean(c, weights) for c in columns]
    pts = [(math.log(x), m) for x, m in zip(xs, means) if not math.isnan(m)]
    if len(pts) < 2:
        return math.nan
    lx, ly = np.array(pts).T
    return float(np.polyfit(lx, ly, 1)[0])
