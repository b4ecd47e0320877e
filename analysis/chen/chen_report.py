#!/usr/bin/python3
"""Chen et al.'s experiment from a pmoe-sweep result file (MODEL.md §8), read with h5py.

  chen_report.py table FILE.h5      the published table's form: one row per setting (gamma range,
                                    sigma_p), one column per model; test accuracy (%) and
                                    dispatch entropy, mean ± sd over the cell's trials
  chen_report.py curves FILE.h5 --out DIR
                                    dispatch entropy and training accuracy along training (the
                                    paper's Figure 3) from the per-trial curves in /trial_lists:
                                    one PNG per quantity, one line per trial, colour per cell

A list metric is stored as its per-trial length in /trials/NAME and its values, trial after
trial, in /trial_lists/NAME (docs/ARCHITECTURE.md); `lists()` below splits them.
"""
import argparse
import math
import os
import sys

import h5py
import numpy as np

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


def mean_sd(values):
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return "-"
    m = sum(values) / len(values)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0
    return m, sd


def model_name(p):
    act = p.get("model.activation", "")
    kind = {"switch": "MoE", "single": "single"}.get(p.get("model.kind"), p.get("model.kind"))
    variant = p.get("model.variant", "")
    return f"{kind} {act}" + (f" ({variant})" if variant == "paper" else "")


def table(path):
    with h5py.File(path, "r") as f:
        acc = f["/trials/test_acc"][:]
        entropy = (f["/trials/dispatch_entropy"][:] if "dispatch_entropy" in f["/trials"]
                   else np.full(len(acc), np.nan))
        status = f["/trials/status"][:]
        by_setting, models = {}, []
        for p, rows in grouped(f):
            gamma = (float(p.get("data.gamma_lo", math.nan)), float(p.get("data.gamma_hi", math.nan)))
            sigma = float(p.get("data.sigma_p", math.nan))
            key = (gamma, sigma)
            name = model_name(p)
            if name not in models:
                models.append(name)
            ok = [r for r in rows if status[r] == 0]
            by_setting.setdefault(key, {})[name] = (mean_sd([100 * acc[r] for r in ok]),
                                                    mean_sd([entropy[r] for r in ok]), len(ok))
    print("test accuracy (%) and dispatch entropy, mean ± sd over trials "
          "(trials ok in brackets)")
    header = ["setting"] + models
    print(" | ".join(f"{h:>24s}" if i else f"{h:<22s}" for i, h in enumerate(header)))
    for (gamma, sigma), cells in by_setting.items():
        number = SETTING_OF.get((gamma[1], sigma))
        label = (f"{number}: " if number and gamma[0] == 0.5 else "") + \
            f"γ {gamma[0]:g}..{gamma[1]:g} σp {sigma:g}"
        accs, ents = [f"{label:<22s}"], [f"{'  entropy':<22s}"]
        for m in models:
            if m not in cells:
                accs.append(f"{'-':>24s}")
                ents.append(f"{'-':>24s}")
                continue
            a, e, n = cells[m]
            accs.append(f"{a[0]:10.2f} ± {a[1]:5.2f} [{n:2d}]" if a != "-" else f"{'-':>24s}")
            ents.append(f"{e[0]:10.3f} ± {e[1]:5.3f}     " if e != "-" else f"{'':>24s}")
        print(" | ".join(accs))
        if any(s.strip() for s in ents[1:]):
            print(" | ".join(ents))


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
    written = []
    for q in quantities:
        fig, ax = plt.subplots(figsize=(6, 4))
        for i, (p, rows) in enumerate(cells):
            colour = f"C{i}"
            for j, r in enumerate(rows):
                if len(steps[r]) and len(values[q][r]) == len(steps[r]):
                    ax.plot(steps[r], values[q][r], color=colour, alpha=0.6,
                            label=model_name(p) if j == 0 else None)
        ax.set_xlabel("training step (full batch)")
        ax.set_ylabel({"curve_entropy": "dispatch entropy (nats)",
                       "curve_train_acc": "training accuracy (noisy forward pass)",
                       "curve_loss": "training loss"}[q])
        ax.legend()
        fig.tight_layout()
        name = os.path.join(out, q.replace("curve_", "") + ".png")
        fig.savefig(name, dpi=120)
        plt.close(fig)
        written.append(name)
    print("\n".join(written))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["table", "curves"])
    ap.add_argument("file")
    ap.add_argument("--out", default="results/plots/chen")
    args = ap.parse_args()
    if args.command == "table":
        table(args.file)
    else:
        curves(args.file, args.out)


if __name__ == "__main__":
    main()
