"""Made-up evidence's claim statistics computed as a page's are: the cells and their per-trial
columns written to a result file (synthetic.py's schema) and read by pmoe-analyze statistic
(Evidence.statistic), so that a rule under test on made-up numbers runs the precision targets'
code as on a real file. Needs pmoe-analyze (PMOE_ANALYZE, else build/analysis/pmoe-analyze)."""
import math
import os
import tempfile

import numpy as np

import synthetic
from pmoe.report.evidence import Evidence
from pmoe.results import hash_string

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ANALYZE = os.environ.get("PMOE_ANALYZE", os.path.join(ROOT, "build", "analysis", "pmoe-analyze"))
# Every cell has an N and a model kind in a result file; made-up cells may omit them.
DEFAULTS = {"N": "100", "model.kind": "separate"}


def write(path, cells, values, trials, curves=None):
    """cells: parameter dicts (text values); values: per cell {column: trials values, NaN where
    none}. A NaN test accuracy is a trial that did not finish ok (status 1), as in a sweep.
    curves: per cell, trial by trial, its curve_entropy list (a trial beyond them: none)."""
    params = [dict(DEFAULTS, **c) for c in cells]
    contents = synthetic.make(cells=[{"N": 100} for _ in params], trials=trials)
    keys = [synthetic.key_of(p) for p in params]
    contents["cells"] = [(hash_string(k), k, f"cell {i}", p)
                         for i, (k, p) in enumerate(zip(keys, params))]
    rows = [(i, t) for i in range(len(params)) for t in range(trials)]
    synthetic.set_column(contents, "cell_id",
                         np.array([hash_string(keys[i]) for i, _ in rows], dtype=np.uint64))
    columns = sorted({name for v in values for name in v})
    table = {name: np.array([float(values[i].get(name, [math.nan] * trials)[t]) for i, t in rows])
             for name in columns}
    if "test_acc" in table:
        synthetic.set_column(contents, "test_acc", table["test_acc"])
        synthetic.set_column(contents, "status", np.isnan(table["test_acc"]).astype(int))
    known = {n for n, _, _, _ in contents["columns"]}
    for name in columns:
        if name == "test_acc":
            continue
        if name in known:
            synthetic.set_column(contents, name, table[name], kind="f64")
        else:  # a metric of its own (router_hit_pos, dispatch_entropy, ...): a rate in [0, 1]
            finite = table[name][np.isfinite(table[name])]
            rate = int(bool(np.all((finite >= 0) & (finite <= 1))))
            contents["columns"].insert(len(synthetic.CORE), (name, "f64", table[name],
                                                             {"description": name, "metric": 1,
                                                              "rate": rate}))
    if curves is not None:
        lists = [np.asarray(curves[i][t] if t < len(curves[i]) else [], dtype=float)
                 for i, t in rows]
        contents["lists"]["curve_entropy"] = lists
        synthetic.set_column(contents, "curve_entropy", np.array([len(x) for x in lists]))
    contents["attrs"]["trial_columns"] = ",".join(f"{n}:{k}" for n, k, _, _ in contents["columns"])
    synthetic.write(path, contents)
    return path


class Statistics:
    """Evidence.statistic and where_of for a fake with `cells`, `values` and `trials_per_cell`:
    the file is written at the first statistic asked (after a test has set its values)."""
    _file = None

    def statistic(self, *args, **kwargs):
        if self._file is None:
            path = os.path.join(tempfile.mkdtemp(prefix="fake_rows_"), "fake.h5")
            write(path, self.cells, self.values, self.trials_per_cell, self.curves())
            self._file = Evidence(path, ANALYZE)
        return self._file.statistic(*args, **kwargs)

    def curves(self):
        """Per cell, the curve_entropy lists a fake holds as rows (cell_of, lists), or None."""
        lists = getattr(self, "lists", {}).get("curve_entropy")
        if lists is None:
            return None
        per_cell = [[] for _ in self.cells]
        for row, cell in enumerate(self.cell_of):
            per_cell[cell].append(lists[row])
        return per_cell

    where_of = Evidence.where_of
