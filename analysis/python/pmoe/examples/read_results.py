#!/usr/bin/python3
"""Reads a pmoe-sweep result file with pmoe.load and prints success rates per cell.

    /usr/bin/python3 analysis/examples/read_results.py results/demo.h5

pmoe.load returns one row per trial: the cell's parameters as columns (N, model.kind, ...),
then every /trials column, status and stop_reason as named categories. The file is checked
first: a damaged or foreign file is one clear error (pmoe.ResultFileError), not a traceback.
"""
import sys

import pmoe


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: read_results.py RESULTS.h5")
    path = argv[0]
    table = pmoe.load(path)
    print(f"{path}: sweep {table.attrs['name']}, seed {table.attrs['master_seed']}, "
          f"{table['cell_id'].nunique()} cells, {len(table)} trials")
    summary = table.groupby("label", sort=False).agg(
        trials=("trial", "size"), ok=("status", lambda s: int((s == "ok").sum())),
        success_rate=("success", "mean"), test_acc=("test_acc", "mean"))
    if "router_hit" in table:
        summary["router_hit"] = table.groupby("label", sort=False)["router_hit"].mean()
    print(summary.to_string())


if __name__ == "__main__":
    from pmoe.cli import run
    sys.exit(run(main))
