"""One result file as the report's rules read it: pmoe-analyze's tables (summary, sample
complexity, exponents; every fit lives there), the claims' statistics with their intervals
(pmoe-analyze statistic: accuracies, paired accuracy differences, accuracy slopes, rates and
sample shares, computed by the precision targets' own C++ code, so that a claim page and a
precision target decide one claim on the same rows alike: issue 41), and the per-trial values
the pages count and draw."""
import json
import math
import os
import subprocess

import numpy as np

from pmoe import results

BOOTSTRAP = 1000


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
        self.attrs = rf.attrs  # the root attributes: config, precision record, ...

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

    def exponent(self, axis, start=None, where=None):
        """pmoe-analyze exponent --over AXIS [--from START] [--where P=V,...]."""
        return self._json("exponent", "--over", axis, *(["--from", str(start)] if start else []),
                          *(["--where", ",".join(f"{k}={v}" for k, v in where.items())]
                            if where else []))

    def cells_where(self, **params):
        """Indices of the cells whose parameters match (names with dots as __: model__kind)."""
        want = {k.replace("__", "."): str(v) for k, v in params.items()}
        return [i for i, c in enumerate(self.cells)
                if all(c.get(k) == v for k, v in want.items())]

    def where_of(self, cell, *leave):
        """--where for one cell: its values of every swept parameter but `leave` (dotted
        names), which single it out among the file's cells."""
        swept = [k for k in sorted({k for c in self.cells for k in c})
                 if len({c[k] for c in self.cells if k in c}) > 1 and k not in leave]
        return {k: self.cells[cell][k] for k in swept if k in self.cells[cell]}

    def statistic(self, target, where=None, model=None, baseline=None, metric=None, over=None,
                  reading=None, start=None, to=None, success_threshold=None):
        """pmoe-analyze statistic --target TARGET (exponent, ratio_exponent, share, accuracy,
        accuracy_slope, rate, accuracy_difference): the estimate with its 95 % interval as a one-look precision target
        draws it (the paired bootstrap over trial indices, widened as Student's t), the paired
        trial count and the places read. An end the bootstrap leaves open is ±inf; an estimate
        that cannot be computed (an N_acc outside the grid) NaN."""
        options = [("--over", over), ("--from", start), ("--to", to), ("--model", model),
                   ("--threshold", success_threshold),
                   ("--baseline", baseline), ("--metric", metric), ("--reading", reading),
                   ("--where", ",".join(f"{k}={v}" for k, v in where.items()) if where else None)]
        args = ["statistic", "--target", target]
        for name, value in options:
            if value is not None:
                args += [name, str(value)]
        out = dict(self._json(*args))
        for key, missing in (("estimate", math.nan), ("lo", -math.inf), ("hi", math.inf)):
            out[key] = missing if out[key] is None else float(out[key])
        return out

    def per_trial(self, cell, column):
        """The column's values of one cell by trial index (NaN where missing or not ok)."""
        values = np.full(self.trials_per_cell, np.nan)
        rows = (self.cell_of == cell) & (self.status == 0)
        data = self.columns[column][rows].astype(float)
        if np.issubdtype(self.columns[column].dtype, np.integer):
            data[data == -1] = np.nan
        values[self.trial[rows]] = data
        return values
