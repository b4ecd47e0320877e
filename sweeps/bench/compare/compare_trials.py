#!/usr/bin/python3
"""Byte-for-byte comparison of the result files of two builds: for every OLD_DIR/NAME.h5 and
NEW_DIR/NAME.h5, /cells, every /trials column but the timings (*_ms) and /trial_lists: the same
names, types, shapes and bytes, and the same trial_columns, numerics_version, master_seed and
trials_per_cell. Prints one line per file and exits 1 if any differs.

    /usr/bin/python3 sweeps/bench/compare/compare_trials.py OLD_DIR NEW_DIR
"""
import glob, os, sys
import h5py, numpy as np

TIMING = ("data_ms", "eval_ms", "train_ms", "wall_ms")

def datasets(f, group):
    if group not in f: return {}
    return {k: f[group][k] for k in f[group] if isinstance(f[group][k], h5py.Dataset)}

def raw(d):
    a = d[()]
    if d.dtype.kind == "O":  # variable-length strings
        return repr([x if isinstance(x, bytes) else str(x).encode() for x in a]).encode()
    return np.ascontiguousarray(a).tobytes()

def compare(a_path, b_path):
    problems, rows = [], 0
    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
        for group in ("cells", "trials", "trial_lists"):
            da, db = datasets(a, group), datasets(b, group)
            names = set(da) | set(db)
            for n in sorted(names):
                if group == "trials" and n in TIMING: continue
                if n not in da or n not in db:
                    problems.append(f"/{group}/{n} only in {'new' if n in db else 'old'}"); continue
                if da[n].dtype != db[n].dtype or da[n].shape != db[n].shape:
                    problems.append(f"/{group}/{n} dtype/shape differ"); continue
                if raw(da[n]) != raw(db[n]):
                    problems.append(f"/{group}/{n} bytes differ")
            if group == "trials" and "cell_id" in da: rows = da["cell_id"].shape[0]
        for attr in ("trial_columns", "numerics_version", "master_seed", "trials_per_cell"):
            if a.attrs.get(attr) != b.attrs.get(attr): problems.append(f"attribute {attr} differs")
        extra = sorted(set(b.keys()) - set(a.keys()))
    return rows, problems, extra

total = same = 0
old_dir, new_dir = sys.argv[1], sys.argv[2]
for old in sorted(glob.glob(os.path.join(old_dir, "*.h5"))):
    new = os.path.join(new_dir, os.path.basename(old))
    tag = os.path.basename(old)[:-3]
    if not os.path.exists(new):
        print(f"{tag}: no new file"); continue
    rows, problems, extra = compare(old, new)
    total += 1
    same += not problems
    print(f"{tag}: {rows} rows, {'identical' if not problems else '; '.join(problems)}"
          f"{' (new groups: ' + ', '.join(extra) + ')' if extra else ''}")
print(f"{same} of {total} files identical in /cells and every non-timing /trials column")
sys.exit(0 if same == total else 1)
