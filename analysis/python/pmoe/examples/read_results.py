#!/usr/bin/python3
"""Reads a pmoe-sweep result file into pandas DataFrames and prints success rates per cell.

    /usr/bin/python3 analysis/examples/read_results.py results/demo.h5

/trials has one row per finished trial, /cells one row per cell (one column per parameter);
they join on cell_id. String columns are stored as UTF-8 variable-length strings: h5py returns
them as bytes unless read with .asstr(), as below.
"""
import sys

import h5py
import pandas as pd


def read_table(group):
    columns = {}
    for name, dataset in group.items():
        columns[name] = dataset.asstr()[:] if dataset.dtype.kind == "O" else dataset[:]
    return pd.DataFrame(columns)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: read_results.py RESULTS.h5")
    path = argv[0]
    with h5py.File(path, "r") as f:
        if f.attrs.get("schema_version") != 1:
            sys.exit(f"{path}: schema version {f.attrs.get('schema_version')}; expected 1")
        trials = read_table(f["trials"])
        cells = read_table(f["cells"])
        print(f"{path}: sweep {f.attrs['name']}, seed {f.attrs['master_seed']}, "
              f"{len(cells)} cells, {len(trials)} trials")
    table = trials.merge(cells, on="cell_id")
    summary = table.groupby("label", sort=False).agg(
        trials=("trial", "size"), success_rate=("success", "mean"),
        test_acc=("test_acc", "mean"), router_hit=("router_hit", "mean"))
    print(summary.to_string())


if __name__ == "__main__":
    main()
