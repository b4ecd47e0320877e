"""Result files written by h5py in pmoe-sweep's schema (version 1; README "The result file"), for
tests that need a file without running a sweep: make() gives the contents as plain data a test
can damage, write() stores them as pmoe-sweep would."""
import numpy as np

from pmoe.results import hash_string

CORE = [("cell_id", "u64"), ("trial", "i32"), ("data_seed", "u64"), ("init_seed", "u64"),
        ("status", "u8"), ("success", "u8"), ("test_acc", "f64"), ("train_acc", "f64"),
        ("train_loss", "f64"), ("epochs", "i32"), ("steps", "i64"), ("stop_reason", "u8"),
        ("zero_train_error", "u8"), ("train_count_0", "i32"), ("train_count_1", "i32")]
METRICS = [("router_hit", "f64", 1), ("realized_l_star", "i64", 0), ("curve_entropy", "f64list", 0)]
TAIL = [("data_ms", "f64"), ("train_ms", "f64"), ("eval_ms", "f64"), ("wall_ms", "f64"),
        ("message", "string")]
NUMPY = {"u64": np.uint64, "i64": np.int64, "i32": np.int32, "u8": np.uint8, "f64": np.float64,
         "f64list": np.int64}


def default_cells():
    return [{"N": n, "data.l_star": 4, "model.kind": kind, "model.l": 4}
            for kind in ("separate", "cnn") for n in (50, 100)]


def key_of(params):
    return "".join(f"{k}={v};" for k, v in sorted(params.items()))


def make(cells=None, trials=3, seed=1):
    """{"attrs", "cells", "columns": [(name, type, values, attrs)], "lists"}: every trial ok,
    accuracies rising with N, the kind of numbers a small sweep gives."""
    cells = default_cells() if cells is None else cells
    rng = np.random.default_rng(seed)
    keys = [key_of(c) for c in cells]
    rows = [(i, t) for i in range(len(cells)) for t in range(trials)]
    n = len(rows)
    acc = np.array([min(1.0, 0.6 + cells[i]["N"] / 400 + 0.01 * t) for i, t in rows])
    values = {
        "cell_id": np.array([hash_string(keys[i]) for i, _ in rows], dtype=np.uint64),
        "trial": np.array([t for _, t in rows]), "data_seed": rng.integers(0, 2**62, n),
        "init_seed": rng.integers(0, 2**62, n), "status": np.zeros(n),
        "success": (acc >= 0.95).astype(int), "test_acc": acc, "train_acc": np.minimum(1, acc + 0.02),
        "train_loss": rng.uniform(0, 0.1, n), "epochs": rng.integers(1, 50, n),
        "steps": rng.integers(10, 500, n), "stop_reason": np.ones(n),
        "zero_train_error": np.ones(n), "train_count_0": np.full(n, 25),
        "train_count_1": np.full(n, 25), "router_hit": rng.uniform(0.8, 1, n),
        "realized_l_star": np.full(n, 4), "data_ms": rng.uniform(0, 5, n),
        "train_ms": rng.uniform(0, 50, n), "eval_ms": rng.uniform(0, 5, n),
        "wall_ms": rng.uniform(10, 60, n), "message": [""] * n}
    lists = {"curve_entropy": [rng.uniform(0, 1, 1 + r % 3) for r in range(n)]}
    values["curve_entropy"] = np.array([len(x) for x in lists["curve_entropy"]])
    columns = []
    for name, kind in CORE:
        columns.append((name, kind, values[name], {"description": name}))
    for name, kind, rate in METRICS:
        columns.append((name, kind, values[name],
                        {"description": name, "metric": 1, "rate": rate} if kind != "f64list"
                        else {"description": name, "list": 1}))
    for name, kind in TAIL:
        columns.append((name, kind, values[name], {"description": name}))
    attrs = {"schema_version": 1, "name": "synthetic", "config": "name = synthetic\n",
             "config_path": "synthetic.ini", "master_seed": 1, "trials_per_cell": trials,
             "shard": "", "numerics_version": 1,
             "trial_columns": ",".join(f"{name}:{kind}" for name, kind, _, _ in columns)}
    labels = [", ".join(f"{p}={v}" for p, v in c.items() if p in ("N", "model.kind"))
              for c in cells]
    return {"attrs": attrs, "cells": [(hash_string(k), k, label, c)
                                      for k, label, c in zip(keys, labels, cells)],
            "columns": columns, "lists": lists}


def column(contents, name):
    """The values array of a /trials column, to damage in place."""
    return next(v for n, _, v, _ in contents["columns"] if n == name)


def set_column(contents, name, values=None, kind=None):
    """Replaces a /trials column's values (and, given kind, its stored type)."""
    out = []
    for n, k, v, a in contents["columns"]:
        if n == name:
            k, v = kind or k, v if values is None else values
        out.append((n, k, v, a))
    contents["columns"] = out


def write(path, contents):
    import h5py
    string = h5py.string_dtype("utf-8")
    with h5py.File(path, "w") as f:
        for k, v in contents["attrs"].items():
            f.attrs[k] = v
        cells = f.create_group("cells")
        cells["cell_id"] = np.array([c[0] for c in contents["cells"]], dtype=np.uint64)
        cells.create_dataset("key", data=[c[1] for c in contents["cells"]], dtype=string)
        cells.create_dataset("label", data=[c[2] for c in contents["cells"]], dtype=string)
        names = sorted({p for c in contents["cells"] for p in c[3]})
        for p in names:
            cells.create_dataset(p, data=[str(c[3].get(p, "")) for c in contents["cells"]],
                                 dtype=string)
        trials = f.create_group("trials")
        lists = f.create_group("trial_lists")
        for name, kind, values, attrs in contents["columns"]:
            if kind == "string":
                ds = trials.create_dataset(name, data=list(values), dtype=string)
            else:
                ds = trials.create_dataset(name, data=np.asarray(values).astype(NUMPY[kind]))
            for k, v in attrs.items():
                ds.attrs[k] = v
            if kind == "f64list":
                flat = np.concatenate([np.asarray(x, dtype=float) for x in contents["lists"][name]]
                                      or [np.zeros(0)])
                lists.create_dataset(name, data=flat)
    return path
