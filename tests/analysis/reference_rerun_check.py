#!/usr/bin/python3
"""A quick rerun of the reference answers agrees with them (issue 27): each named sweep of
results/reference/PAPER/ is run again from the config its file records, with another seed
(independent data) and TRIALS trials per cell, and every claim's conditions are decided on both
(analysis/report/compare_reference.py): none may hold in one and fail in the other, and each
sweep must share at least one decided-or-open condition with the reference.

    reference_rerun_check.py PAPER SWEEP_TOOL ANALYZE_TOOL WORKDIR TRIALS NAME...

Exit 0 when every sweep agrees; 1 (with the contradictions printed) otherwise."""
import os
import re
import shutil
import subprocess
import sys

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis", "python"))
from pmoe.report import declarations  # noqa: E402


def rerun_config(text, trials, seed_offset=1000):
    """The recorded config with `trials` trials per cell and a seed `seed_offset` away: the same
    cells, models and budgets on data the reference never saw."""
    # A reference grown by a precision target reruns as a fixed grid: the section goes.
    text = re.sub(r"^\s*\[precision\][^\[]*", "", text, flags=re.M)
    seed = re.search(r"^\s*seed\s*=\s*(\d+)", text, re.M)
    base = int(seed.group(1)) if seed else 1
    text = re.sub(r"^\s*seed\s*=.*$", "", text, flags=re.M)
    text = re.sub(r"^\s*trials\s*=.*$", "", text, flags=re.M)
    head = f"seed = {base + seed_offset}\ntrials = {trials}\n"
    # Top-level keys must come before the first [section].
    first = re.search(r"^\s*\[", text, re.M)
    at = first.start() if first else len(text)
    return text[:at] + head + text[at:]


def with_claims(text, config_path):
    """The recorded config with the [claims] declarations of the config it was run from, when it
    recorded none (a reference file written before configs declared their claims): the rerun's
    pages decide on the declarations the reference's pages read (pmoe.report.declarations)."""
    path = os.path.join(ROOT, config_path)
    if declarations.section(text) or not config_path or not os.path.isfile(path):
        return text
    with open(path, encoding="utf-8") as f:
        return text.rstrip("\n") + "\n\n" + declarations.section(f.read())


def main():
    paper, sweep, analyze, workdir, trials = sys.argv[1:6]
    names = sys.argv[6:]
    reference = os.path.join(ROOT, "results", "reference", paper)
    shutil.rmtree(workdir, ignore_errors=True)
    rerun = os.path.join(workdir, "rerun")
    os.makedirs(rerun)
    for name in names:
        with h5py.File(os.path.join(reference, name + ".h5"), "r") as f:
            text = f.attrs["config"]
            text = text.decode() if isinstance(text, bytes) else text
            config_path = f.attrs.get("config_path", "")
            config_path = config_path.decode() if isinstance(config_path, bytes) else config_path
            text = with_claims(text, str(config_path))
        config = os.path.join(workdir, name + ".ini")
        with open(config, "w") as out:
            out.write(rerun_config(text, int(trials)))
        run = subprocess.run([sweep, "run", config, "--out", os.path.join(rerun, name + ".h5")],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout, run.stderr, file=sys.stderr)
            return 1
    # Only the rerun's sweeps are compared (the reference folder holds more).
    ref = os.path.join(workdir, "reference")
    os.makedirs(ref)
    for name in names:
        os.symlink(os.path.join(reference, name + ".h5"), os.path.join(ref, name + ".h5"))
    compare = subprocess.run(
        ["/usr/bin/python3", os.path.join(ROOT, "analysis", "report", "compare_reference.py"),
         rerun, ref, "--analyze", analyze, "--bootstrap", "200",
         "--paper", "chen" if paper == "chen" else "chowdhury"],
        capture_output=True, text=True)
    print(compare.stdout, end="")
    print(compare.stderr, end="", file=sys.stderr)
    return compare.returncode


if __name__ == "__main__":
    sys.exit(main())
