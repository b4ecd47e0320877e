#!/usr/bin/python3
"""The shipped reference rows are what this build computes, bit for bit: for each named file of
results/reference/, the cheapest trial-0 row of every model kind it holds is computed again (a
one-cell sweep with the cell's recorded parameters and the file's master seed: rows are pure
functions of seed, cell and trial index) and every /trials column but the timings compared byte
for byte. A change of compiler flags, build mode (unity, LTO), kernel or library that moves a
single bit of a recorded number fails here.

Between a numerics-version bump and the regeneration of the reference answers (the files still
hold the older version), the same rows are compared with the pinned rows of this build's version,
tests/support/reference_rows_vN.json, written once by --pin when the version was bumped (and
checked then against the older version within Monte Carlo error: numerics_versions_test.py).
Without a pin for this version the check fails: regenerate the references or pin.

    reference_rows_check.py SWEEP_TOOL WORKDIR PAPER/NAME... [--pin]

Exit 0 when every row is equal; 1 (naming the row and column) otherwise."""
import json
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.environ.get("PMOE_REFERENCE_DIR") or os.path.abspath(
    os.path.join(HERE, "..", "..", "results", "reference"))
TIMING = ("data_ms", "eval_ms", "train_ms", "wall_ms")
TOP_LEVEL = ("N", "N_test", "success")


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def exact(value):
    """Every bit of a value: floats in hexadecimal (0x1.c3a...p-2)."""
    item = value.item() if hasattr(value, "item") else value
    return float(item).hex() if isinstance(item, float) else repr(item)


# Parameters renamed since a reference file's numerics version: version 8 has one step cap.
RENAMED = {"model.full_steps": "model.max_steps"}


def one_cell_config(key, seed):
    """A sweep config of exactly the cell `key` ("N=24;N_test=2000;...;model.m=80;")."""
    top, sections = [f"name = row\nseed = {seed}\ntrials = 1\n"], {"data": [], "model": []}
    for part in filter(None, key.split(";")):
        name, value = part.split("=", 1)
        name = RENAMED.get(name, name)
        if name in TOP_LEVEL:
            top.append(f"{name} = {value}\n")
        else:
            section, short = name.split(".", 1)
            sections[section].append(f"{short} = {value}\n")
    return "".join(top) + "".join(f"\n[{s}]\n" + "".join(lines) for s, lines in sections.items())


def cheapest_rows(f):
    """Per model kind, the trial-0 row with the smallest wall time: (row index, cell key)."""
    cells = f["cells"]
    key_of = {int(i): text(k) for i, k in zip(cells["cell_id"][()], cells["key"][()])}
    kind_of = {int(i): text(k) for i, k in zip(cells["cell_id"][()], cells["model.kind"][()])}
    trials = f["trials"]
    best = {}
    for row, (cell, trial, wall) in enumerate(
            zip(trials["cell_id"][()], trials["trial"][()], trials["wall_ms"][()])):
        if trial != 0:
            continue
        kind = kind_of[int(cell)]
        if kind not in best or wall < best[kind][0]:
            best[kind] = (wall, row, key_of[int(cell)])
    return [(row, key) for _, row, key in best.values()]


def pin_path(numerics):
    return os.path.join(HERE, "..", "support", f"reference_rows_v{numerics}.json")


def stored(value):
    """A value as the pin file keeps it: its dtype and its bytes in hexadecimal."""
    a = np.asarray(value)
    return [a.dtype.str, a.tobytes().hex()]


def tool_numerics(sweep):
    out = subprocess.run([sweep, "--version"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("numerics version"):
            return int(line.split()[-1])
    raise SystemExit(f"{sweep} --version printed no numerics version:\n{out}")


def recompute(sweep, workdir, name, row, key, seed):
    """The row `row` (cell `key`) of reference file `name` computed again: its /trials columns
    (timings aside) as {column: value}, or an error text."""
    tag = f"{name.replace('/', '_')}_{row}"
    config = os.path.join(workdir, tag + ".ini")
    with open(config, "w") as out:
        out.write(one_cell_config(key, seed))
    out_path = os.path.join(workdir, tag + ".h5")
    run = subprocess.run([sweep, "run", config, "--out", out_path], capture_output=True, text=True)
    if run.returncode != 0:
        return f"the sweep failed:\n{run.stderr}"
    with h5py.File(out_path, "r") as g:
        return {c: np.asarray(g["trials"][c][0]) for c in g["trials"] if c not in TIMING}


def main():
    args = [a for a in sys.argv[1:] if a != "--pin"]
    pin = "--pin" in sys.argv[1:]
    sweep, workdir = args[0:2]
    names = args[2:]
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    numerics = tool_numerics(sweep)
    pinned = {}
    if os.path.exists(pin_path(numerics)) and not pin:
        with open(pin_path(numerics)) as f:
            pinned = json.load(f)
    written = {}
    failures, compared, against_pins = [], 0, 0
    for name in names:
        path = os.path.join(REFERENCE, name + ".h5")
        with h5py.File(path, "r") as f:
            version = int(f.attrs["numerics_version"])
            own = version == numerics
            if not own and not pin and name not in pinned:
                failures.append(f"{name}: computed by numerics version {version}, this build is "
                                f"{numerics}, and {pin_path(numerics)} pins no rows of it: "
                                "regenerate the reference answers (results/reference/README.md) "
                                "with this build")
                continue
            seed = int(f.attrs["master_seed"])
            for row, key in cheapest_rows(f):
                new = recompute(sweep, workdir, name, row, key, seed)
                if isinstance(new, str):
                    failures.append(f"{name} row {row}: {new}")
                    continue
                if pin:
                    written.setdefault(name, {})[str(row)] = {
                        "key": key, "columns": {c: stored(v) for c, v in new.items()}}
                    compared += 1
                    continue
                if own:
                    expected = {c: np.asarray(f["trials"][c][row]) for c in f["trials"]
                                if c not in TIMING}
                else:
                    against_pins += 1
                    row_pin = pinned[name].get(str(row))
                    if row_pin is None or row_pin["key"] != key:
                        failures.append(f"{name} row {row}: not pinned ({key})")
                        continue
                    expected = {c: np.frombuffer(bytes.fromhex(h), dtype=np.dtype(t)).reshape(
                        np.asarray(new[c]).shape if c in new else -1)
                        for c, (t, h) in row_pin["columns"].items()}
                for column, a in expected.items():
                    if column not in new:  # another model kind's metric
                        continue
                    b = new[column]
                    if a.dtype != b.dtype or a.tobytes() != b.tobytes():
                        failures.append(f"{name} row {row} ({key}): {column} is {exact(b)} now, "
                                        f"{exact(a)} in the "
                                        f"{'reference' if own else 'pinned row'}")
                compared += 1
    if pin:
        with open(pin_path(numerics), "w") as out:
            json.dump(written, out, indent=1, sort_keys=True)
        print(f"{compared} rows pinned in {pin_path(numerics)}")
        return 1 if failures else 0
    for line in failures:
        print(line)
    print(f"{compared} reference rows recomputed ({against_pins} against the pinned rows of "
          f"numerics version {numerics}: the reference answers await regeneration), "
          f"{len(failures)} differences")
    return 1 if failures or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
