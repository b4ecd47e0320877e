#!/usr/bin/python3
"""Chen et al.'s experiment from a pmoe-sweep result file (MODEL.md §8), read with h5py.

  chen_report.py table FILE.h5 [--markdown]
                                    the published table's form: one row per setting (gamma range,
                                    sigma_p), one column per model; test accuracy (%) and
                                    dispatch entropy, mean ± sd over the cell's ok trials, as
                                    computed by `pmoe-analyze table` (build/analysis/, or
                                    --analyze PATH), with the settings numbered as published
  chen_report.py curves FILE.h5 --out DIR
                                    dispatch entropy and training accuracy along training (the
                                    paper's Figure 3) from the per-trial curves in /trial_lists:
                                    one PNG per quantity, one line per trial, colour per cell

A list metric is stored as its per-trial length in /trials/NAME and its values, trial after
trial, in /trial_lists/NAME (docs/ARCHITECTURE.md); `lists()` below splits them.
"""
import argparse
import csv
import io
import os
import subprocess
import sys

import h5py
import numpy as np

from pmoe import atomic
from pmoe.cli import result_files, run
from pmoe.paths import ANALYZE
from pmoe.plots import labels
SETTING_OF = {(3.0, 1.0): 1, (3.0, 2.0): 2, (2.0, 1.0): 3, (2.0, 2.0): 4}


def lists(f, name):
    """Per-trial lists of the list metric `name` (an empty array where a trial has none)."""
    lengths = f["/trials/" + name][:]
    values = f["/trial_lists/" + name][:]
    ends = np.cumsum(lengths)
    return [values[e - n:e] for e, n in zip(ends, lengths)]


def cell_params(f):
    """cell_id -> {parameter: value} from the /cells columns."""
    cells = f["/cells"]
    ids = cells["cell_id"][:]
    out = {int(i): {} for i in ids}
    for name in cells:
        if name in ("cell_id", "key", "label"):
            continue
        col = cells[name][:]
        for i, v in zip(ids, col):
            out[int(i)][name] = v.decode() if isinstance(v, bytes) else v
    return out


def grouped(f):
    """(params, row indices) per cell, in file order."""
    params = cell_params(f)
    cell_of = f["/trials/cell_id"][:]
    order, rows = [], {}
    for r, c in enumerate(cell_of):
        c = int(c)
        if c not in rows:
            order.append(c)
            rows[c] = []
        rows[c].append(r)
    return [(params[c], rows[c]) for c in order]


def model_name(p, kind_labels):
    """"switch MoE cubic": the model as its family labels it (labels.kind_labels), its activation
    and, for the paper's variant, the variant."""
    act = p.get("model.activation", "")
    kind = kind_labels.get(p.get("model.kind"), p.get("model.kind"))
    variant = p.get("model.variant", "")
    return f"{kind} {act}" + (f" ({variant})" if variant == "paper" else "")


def analyze_table(path, analyze):
    """pmoe-analyze table's records for the published table: settings down, models across,
    test accuracy (%) and dispatch entropy (the numbers are computed there, not here)."""
    with h5py.File(path, "r") as f:  # the variant is a column only where some cell reads it
        keys = [k.decode() if isinstance(k, bytes) else k for k in f["/cells/key"][:]]
    cols = "model.kind,model.activation" + \
        (",model.variant" if any("model.variant=" in k for k in keys) else "")
    cmd = [analyze, "table", path, "--rows", "data.gamma_lo,data.gamma_hi,data.sigma_p",
           "--cols", cols, "--metrics", "test_acc%,dispatch_entropy", "--csv"]
    try:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        sys.exit(f"chen_report.py: {analyze} not found: build it (cmake --build build "
                 "--target pmoe-analyze) or give --analyze PATH")
    except subprocess.CalledProcessError as e:
        sys.exit(f"chen_report.py: {' '.join(cmd)} failed:\n{e.stderr}")
    return list(csv.DictReader(io.StringIO(out)))


def table(path, analyze, markdown):
    records = analyze_table(path, analyze)
    with h5py.File(path, "r") as f:
        kind_labels = labels.kind_labels(f)
    fixed = {"data.gamma_lo", "data.gamma_hi", "data.sigma_p", "metric", "mean", "sd", "n",
             "trials"}
    by_setting, models = {}, []
    for r in records:
        p = {k: v for k, v in r.items() if k not in fixed}
        gamma = (float(r["data.gamma_lo"]), float(r["data.gamma_hi"]))
        key = (gamma, float(r["data.sigma_p"]))
        name = model_name(p, kind_labels)
        if name not in models:
            models.append(name)
        cell = by_setting.setdefault(key, {}).setdefault(name, {})
        cell[r["metric"]] = (float(r["mean"]) if r["mean"] else None,
                             float(r["sd"]) if r["sd"] else None, int(r["n"]), int(r["trials"]))

    def label(gamma, sigma):
        number = SETTING_OF.get((gamma[1], sigma))
        return (f"{number} " if number and gamma[0] == 0.5 else "") + \
            f"(γ {gamma[0]:g}..{gamma[1]:g}, σp {sigma:g})"

    def text(cell):
        a, e = cell.get("test_acc%"), cell.get("dispatch_entropy")
        if not a or a[0] is None:
            return "-"
        out = f"{a[0]:.2f} ± {a[1]:.2f}"
        if e and e[0] is not None:
            out += f", entropy {e[0]:.3f} ± {e[1]:.3f}"
        return out + ("" if a[2] == a[3] else f" ({a[2]} of {a[3]} ok)")

    trials = sorted({c["test_acc%"][3] for cells in by_setting.values() for c in cells.values()
                     if "test_acc%" in c})
    if markdown:
        print("| setting (γ range, σ_p) | " + " | ".join(models) + " |")
        print("|---|" + "---|" * len(models))
        for (gamma, sigma), cells in by_setting.items():
            print(f"| {label(gamma, sigma)} | " +
                  " | ".join(text(cells[m]) if m in cells else "-" for m in models) + " |")
        return
    print("test accuracy (%) and dispatch entropy, mean ± sd over "
          f"{'/'.join(map(str, trials))} trials per cell")
    width = max(len(text(c)) for cells in by_setting.values() for c in cells.values())
    print((f"{'setting':<28s}" + "".join(f"  {m:<{width}s}" for m in models)).rstrip())
    for (gamma, sigma), cells in by_setting.items():
        print((f"{label(gamma, sigma):<28s}" +
               "".join(f"  {text(cells[m]) if m in cells else '-':<{width}s}"
                       for m in models)).rstrip())


def curves(path, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(out, exist_ok=True)
    with h5py.File(path, "r") as f:
        if "curve_step" not in f["/trials"]:
            sys.exit(f"{path}: no curves (run with model.curve_every > 0)")
        steps = lists(f, "curve_step")
        quantities = [q for q in ("curve_entropy", "curve_train_acc", "curve_loss")
                      if q in f["/trials"]]
        values = {q: lists(f, q) for q in quantities}
        cells = grouped(f)
        kind_labels = labels.kind_labels(f)
    written = []
    for q in quantities:
        fig, ax = plt.subplots(figsize=(6, 4))
        for i, (p, rows) in enumerate(cells):
            colour = f"C{i}"
            for j, r in enumerate(rows):
                if len(steps[r]) and len(values[q][r]) == len(steps[r]):
                    ax.plot(steps[r], values[q][r], color=colour, alpha=0.6,
                            label=model_name(p, kind_labels) if j == 0 else None)
        ax.set_xlabel("training step (full batch)")
        ax.set_ylabel({"curve_entropy": "dispatch entropy (nats)",
                       "curve_train_acc": "training accuracy (noisy forward pass)",
                       "curve_loss": "training loss"}[q])
        ax.legend()
        fig.tight_layout()
        name = os.path.join(out, q.replace("curve_", "") + ".png")
        atomic.save_figure(fig, name, dpi=120)
        plt.close(fig)
        written.append(name)
    print("\n".join(written))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["table", "curves"])
    ap.add_argument("file")
    ap.add_argument("--out", default="results/plots/chen")
    ap.add_argument("--analyze", default=ANALYZE, help="the pmoe-analyze to call (table)")
    ap.add_argument("--markdown", action="store_true", help="table: as Markdown")
    args = ap.parse_args()
    if args.command == "table":
        table(args.file, args.analyze, args.markdown)
    else:
        curves(args.file, args.out)


if __name__ == "__main__":
    sys.exit(run(main, check=result_files))
