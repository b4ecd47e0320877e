"""Runs pmoe-analyze and returns its JSON tables: the figures draw what it computes, so every fit
lives in one place (C++)."""
import json
import re
import subprocess

import h5py


class Analyzer:
    """pmoe-analyze's JSON tables of one result file or several pooled (pmoe-analyze pools them),
    each command run once (the figures and the report page ask for the same tables)."""

    def __init__(self, binary, result_files, bootstrap=None):
        self.binary = binary
        self.files = [result_files] if isinstance(result_files, str) else list(result_files)
        self.result_file = self.files[0]
        self.bootstrap = bootstrap
        self._cache = {}

    def _run(self, *args):
        if args not in self._cache:
            # summary draws no bootstrap: pmoe-analyze refuses --bootstrap there.
            extra = (["--bootstrap", str(self.bootstrap)]
                     if self.bootstrap and args[0] != "summary" else [])
            out = subprocess.run([self.binary, *args, *self.files, "--json", *extra],
                                 check=True, capture_output=True, text=True)
            self._cache[args] = json.loads(out.stdout)
        return self._cache[args]

    def summary(self):
        return self._run("summary")

    def sample_complexity(self, axis=None):
        return self._run("sample-complexity", *(["--over", axis] if axis else []))

    def exponent(self, axis, start=None):
        return self._run("exponent", "--over", axis, *(["--from", str(start)] if start else []))


# The two readings of sample complexity in pmoe-analyze's nstar rows: the columns of each.
READINGS = {
    "success": {"estimate": "N_star", "lo": "lo", "hi": "hi", "grid": "grid", "flag": "flag",
                "converged": "converged", "name": "N*", "means": "success prob. 0.5"},
    "mean_accuracy": {"estimate": "N_acc", "lo": "acc_lo", "hi": "acc_hi", "grid": "acc_grid",
                      "flag": "acc_flag", "converged": "acc_converged", "name": "N_acc",
                      "means": "mean test accuracy 0.95"},
}


def swept_parameters(summary_rows):
    """The swept parameters: `pmoe-analyze summary` puts them first, before its "trials" column
    (or a "cell" column when nothing is swept); every column from "trials" on is a statistic."""
    if not summary_rows:
        return []
    names = []
    for k in summary_rows[0]:
        if k in ("trials", "cell"):
            break
        names.append(k)
    return names


# A per-class column, as the families' declarations expand (include/pmoe/core/metrics.hpp,
# PerClassName and PerClassHelp): the declared name and the class (pair) index, and a description
# ending in " (class I)" or " (class pair I)" with the same index.
_PER_CLASS_NAME = re.compile(r"(.*\D)(\d+)")
_PER_CLASS_HELP = re.compile(r"(.*) \((class|class pair) (\d+)\)")


def per_class_metrics(result_file):
    """The declared per-class metrics of a result file, from its /trials columns' attributes:
    {declared name: {"help", "pair", "rate", "columns": [column names by class index]}}, in
    column order. A metric declared per class is found by the form of its columns, never by its
    name, so a new family's per-class metric is drawn without a line of plotting code."""
    found = {}
    with h5py.File(result_file, "r") as f:
        if "trials" not in f:
            return found
        trials = f["trials"]
        for column in trials:
            attrs = trials[column].attrs
            if not int(attrs.get("metric", 0)):
                continue
            help_text = attrs.get("description", "")
            help_text = help_text.decode() if isinstance(help_text, bytes) else str(help_text)
            name, help_ = _PER_CLASS_NAME.fullmatch(column), _PER_CLASS_HELP.fullmatch(help_text)
            if not name or not help_ or name.group(2) != help_.group(3):
                continue
            entry = found.setdefault(name.group(1), {
                "help": help_.group(1), "pair": help_.group(2) == "class pair",
                "rate": bool(int(attrs.get("rate", 0))), "columns": {}})
            entry["columns"][int(name.group(2))] = column
    for entry in found.values():
        entry["columns"] = [entry["columns"][i] for i in sorted(entry["columns"])]
    return found


def rate_metrics(result_file):
    """The declared scalar rate metrics of a result file (/trials columns with the attributes
    metric = 1 and rate = 1, per-class columns left to per_class_metrics): {name: description},
    in column order. A family's rate is drawn against N by its declaration, never by its name."""
    found = {}
    with h5py.File(result_file, "r") as f:
        if "trials" not in f:
            return found
        trials = f["trials"]
        for column in trials:
            attrs = trials[column].attrs
            if not int(attrs.get("metric", 0)) or not int(attrs.get("rate", 0)):
                continue
            help_text = attrs.get("description", "")
            help_text = help_text.decode() if isinstance(help_text, bytes) else str(help_text)
            if _PER_CLASS_HELP.fullmatch(help_text):
                continue
            found[column] = help_text
    return found

