"""Runs pmoe-analyze and returns its JSON tables: the figures draw what it computes, so every fit
lives in one place (C++)."""
import json
import subprocess


class Analyzer:
    def __init__(self, binary, result_file):
        self.binary = binary
        self.result_file = result_file

    def _run(self, *args):
        out = subprocess.run([self.binary, *args, self.result_file, "--json"], check=True,
                             capture_output=True, text=True)
        return json.loads(out.stdout)

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
