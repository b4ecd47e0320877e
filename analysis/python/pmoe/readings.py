"""The readings of sample complexity in pmoe-analyze's JSON (issue 39), for scripts and pages.

The theorems hold "with probability 1 - delta", so pmoe-analyze reads N where the success
probability reaches 1 - delta for several delta (--delta, default 0.5, 0.2, 0.1, 0.05), at the
recorded success and at test accuracy >= 1 - epsilon for each --epsilon. Every fit lives in
pmoe-analyze; this module only runs it and sorts its rows:

    from pmoe import readings
    tables = readings.run("build/analysis/pmoe-analyze", "results/f.h5", axis="n/l",
                          where={"data.n": 64})
    readings.names(tables)              # [{"reading": "success", "delta": 0.5, ...}, ...]
    readings.estimates(tables, 0.1)     # N at success probability 0.9, per series and axis value
    readings.shape(tables, "cnn/separate", "success")["says"]  # "grows like a step at n/l ≈ 8 ..."

Sections (JSON keys): nstar (N* at delta 0.5 and N_acc, as before), quantiles (every success
reading), exponents and ratios (a row per reading), shapes (trend test, best of constant / power law
/ step, upper-half slope) and controls (the CNN/pMoE ratio at l = n, which should include 1)."""
import json
import math
import subprocess


def run(analyze, files, axis=None, command=None, deltas=None, epsilons=None, where=None,
        bootstrap=None):
    """pmoe-analyze's JSON: `exponent` when an axis is given, else `sample-complexity`."""
    files = [files] if isinstance(files, str) else list(files)
    command = command or ("exponent" if axis else "sample-complexity")
    args = [analyze, command, *files, "--json"]
    if axis:
        args += ["--over", axis]
    if deltas:
        args += ["--delta", ",".join(str(d) for d in deltas)]
    if epsilons:
        args += ["--epsilon", ",".join(str(e) for e in epsilons)]
    if where:
        args += ["--where", ",".join(f"{k}={v}" for k, v in where.items())]
    if bootstrap:
        args += ["--bootstrap", str(bootstrap)]
    out = subprocess.run(args, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def _same(a, b):
    """Equal numbers, or both null (epsilon null: the recorded success)."""
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def names(tables):
    """The success readings in pmoe-analyze's order: {"reading", "delta", "epsilon"} each."""
    seen = []
    for row in tables.get("quantiles", []):
        entry = {"reading": row["reading"], "delta": row["delta"], "epsilon": row["epsilon"]}
        if entry not in seen:
            seen.append(entry)
    return seen


def estimates(tables, delta, epsilon=None):
    """The quantile rows of one reading (success probability 1 - delta; epsilon None: the
    recorded success). N, lo and hi are null outside the grid: `grid` says which bound."""
    return [r for r in tables.get("quantiles", [])
            if _same(r["delta"], delta) and _same(r["epsilon"], epsilon)]


def reading_name(tables, delta, epsilon=None):
    """pmoe-analyze's name of a reading ("success", "success@0.9", "success@0.9,eps=0.1")."""
    rows = estimates(tables, delta, epsilon)
    return rows[0]["reading"] if rows else None


def exponents(tables, reading):
    """The exponent rows (series and cnn/... ratios) of one reading, by name."""
    return [e for e in tables.get("exponents", []) if e["reading"] == reading]


def shape(tables, series, reading):
    """The shape row of one series or ratio and reading: trend_p, shape, step_above, says..."""
    for row in tables.get("shapes", []):
        if row["series"] == series and row["reading"] == reading:
            return row
    return None


def controls(tables):
    """The l = n control rows: the CNN/pMoE ratio where the pMoE routes every patch, with
    includes_1 ("yes"/"no")."""
    return list(tables.get("controls", []))
