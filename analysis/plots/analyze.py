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


# Columns of `pmoe-analyze summary` that are statistics; the others are swept parameters.
STAT_COLUMNS = {"cell", "trials", "ok", "diverged", "infeasible", "successes", "success_rate",
                "success_lo", "success_hi", "test_acc", "test_acc_sd", "router_hit",
                "router_hit_sd", "router_hit_pos", "router_hit_neg", "epochs"}


def swept_parameters(summary_rows):
    if not summary_rows:
        return []
    return [k for k in summary_rows[0] if k not in STAT_COLUMNS]
