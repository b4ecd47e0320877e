"""The figures of a result file: phase-transition maps, accuracy and router hit rate against N,
and log-log N* against an axis. Each function draws one figure from pmoe-analyze's tables."""
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

AXIS_LABELS = {"model.l": "l (patches routed per expert)", "model.k": "k (experts)",
               "data.n": "n (patches per sample)", "model.m": "m (neurons)",
               "N": "N (training samples)"}


def label(name):
    return AXIS_LABELS.get(name, name)


# Parameters a model kind does not read; kept out of its series labels (as pmoe-analyze does).
# Names ending in "_" are prefixes (model.router_lr, model.router_N, ...).
NOT_READ = {"cnn": ("model.l", "model.k", "model.sigma_g", "model.sigma_r", "model.router_"),
            "separate": ("model.sigma_g",), "joint": ("model.sigma_r", "model.router_")}


def _reads(kind, name):
    return not any(name == p or (p.endswith("_") and name.startswith(p))
                   for p in NOT_READ.get(kind, ()))


def series_key(row, names):
    kind = row.get("model.kind")
    return ", ".join(f"{n}={row[n]}" for n in names if _reads(kind, n)) or "all"


def phase_map(summary, nstar, axis, others, title, path):
    """Success rate over (N, axis) for each series, with the fitted N* and its interval on top."""
    groups = {}
    for row in summary:
        groups.setdefault(series_key(row, others), []).append(row)
    fig, axes = plt.subplots(1, len(groups), figsize=(5.5 * len(groups), 4.2), squeeze=False)
    for ax, (name, rows) in zip(axes[0], groups.items()):
        Ns = sorted({r["N"] for r in rows})
        vals = sorted({r[axis] for r in rows})
        grid = np.full((len(vals), len(Ns)), np.nan)
        for r in rows:
            grid[vals.index(r[axis]), Ns.index(r["N"])] = r["success_rate"]
        # Geometric axes (k = 2, 4, 8, 16) get a log scale, so every value gets an equal row.
        log_y = _geometric(vals)
        mesh = ax.pcolormesh(_edges(Ns, log=True), _edges(vals, log=log_y), grid,
                             vmin=0, vmax=1, cmap="viridis", shading="flat")
        if log_y:
            ax.set_yscale("log")
            ax.set_yticks(vals, [f"{v:g}" for v in vals])
            ax.minorticks_off()
        beyond = [p[axis] for p in nstar if p["series"] == name and p["grid"] == "above"]
        if beyond:  # N* past the largest N: the curve never reached the threshold
            ax.plot([_edges(Ns, log=True)[-1]] * len(beyond), beyond, ">", color="white", ms=7,
                    clip_on=False, label="N* > largest N")
        below = [p[axis] for p in nstar if p["series"] == name and p["grid"] == "below"]
        if below:  # the success rate is above the threshold already at the smallest N
            ax.plot([_edges(Ns, log=True)[0]] * len(below), below, "<", color="white", ms=7,
                    clip_on=False, label="N* < smallest N")
        points = [p for p in nstar if p["series"] == name and p["grid"] == "inside"
                  and _finite(p["N_star"])]
        if points:
            ys = [p[axis] for p in points]
            est = [p["N_star"] for p in points]
            lo = [_lower_end(p["lo"]) for p in points]
            hi = [_upper_end(p["hi"]) for p in points]
            ax.fill_betweenx(ys, lo, hi, color="white", alpha=0.25, label="95% bootstrap interval")
            ax.plot(est, ys, "w-o", ms=4, label="N* (success prob. 0.5)")
        if points or beyond or below:
            ax.legend(loc="lower right", fontsize=7, framealpha=0.6)
        ax.set_xscale("log")
        ax.set_xlim(_edges(Ns, log=True)[0], _edges(Ns, log=True)[-1])
        ax.set_xlabel(label("N"))
        ax.set_ylabel(label(axis))
        ax.set_title("" if name == "all" else name, fontsize=9)
        fig.colorbar(mesh, ax=ax, label="success rate")
    fig.suptitle(title)
    _save(fig, path)


def accuracy_vs_n(summary, others, title, path):
    """Mean test accuracy against N, error bars one sd over trials (the paper's Figure 4 form)."""
    _mean_sd_vs_n(summary, others, "test_acc", "test accuracy (mean ± sd)", title, path)


def router_hit(summary, others, title, path, kinds):
    """Router hit rate against N: Lemma 4.1's rate (separate) or Assumption 4.4's (joint)."""
    rows_with_hits = [r for r in summary if r.get("router_hit") is not None]
    if not rows_with_hits:
        return False
    which = {"separate": "Lemma 4.1: discriminative patch routed to its class's expert",
             "joint": "Assumption 4.4: some expert ranks it first"}
    notes = "\n".join(f"{k}: {which[k]}" for k in sorted(kinds) if k in which)
    _mean_sd_vs_n(rows_with_hits, others, "router_hit", "router hit rate (mean ± sd)",
                  title + ("\n" + notes if notes else ""), path, ylim=(0, 1.05))
    return True


def _mean_sd_vs_n(rows, others, field, ylabel, title, path, ylim=None):
    """One line per series: `field` mean against N (log), error bars its sd over trials."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for name, series in _by_series(rows, others).items():
        series.sort(key=lambda r: r["N"])
        ax.errorbar([r["N"] for r in series], [r[field] for r in series],
                    yerr=[r[field + "_sd"] or 0 for r in series], marker="o", ms=3, capsize=2,
                    label=name, linestyle="--" if "model.kind=cnn" in name else "-")
    ax.set_xscale("log")
    if ylim:
        ax.set_ylim(*ylim)
    ax.set_xlabel(label("N"))
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    ax.set_title(title, fontsize=10)
    _save(fig, path)


def nstar_loglog(exponent_tables, axis, title, path, fit_note=""):
    """log-log N* against the axis, fitted line and exponent (with interval) in the legend."""
    nstar, exponents = exponent_tables["nstar"], exponent_tables["exponents"]
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for e in exponents:
        if e["series"].startswith("cnn/"):
            continue
        pts = [p for p in nstar if p["series"] == e["series"]]
        inside = [p for p in pts if p["grid"] == "inside"]
        outside = [p for p in pts if p["grid"] != "inside" and _finite(p["N_star"])]
        x = [p[axis] for p in inside]
        y = [p["N_star"] for p in inside]
        err = [[p["N_star"] - _lower_end(p["lo"]) for p in inside],
               [_upper_end(p["hi"]) - p["N_star"] for p in inside]]
        line = ax.errorbar(x, y, yerr=err, fmt="o", ms=4, capsize=2)
        color = line[0].get_color()
        if outside:
            ax.plot([p[axis] for p in outside], [p["N_star"] for p in outside], "o", mfc="none",
                    color=color)
        if _finite(e["exponent"]) and x:
            xs = np.geomspace(min(x), max(x), 50)
            ax.plot(xs, np.exp(e["intercept"]) * xs ** e["exponent"], "-", color=color,
                    label=f"{e['series']}: exponent {e['exponent']:.2f} "
                          f"[{_fmt(e['lo'])}, {_fmt(e['hi'])}] (theory bound {_fmt(e['theory'])})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(label(axis) + " (log)")
    ax.set_ylabel("N* (log): N where success prob. = 0.5")
    ax.grid(alpha=0.3, which="both")
    ratio_notes = [f"N* ratio {e['series']} grows as {label(axis).split(' ')[0]}^{e['exponent']:.2f} "
                   f"[{_fmt(e['lo'])}, {_fmt(e['hi'])}]"
                   for e in exponents if e["series"].startswith("cnn/") and _finite(e["exponent"])]
    notes = "\n".join(([fit_note] if fit_note else []) + ratio_notes)
    ax.legend(fontsize=7, title=notes or None, title_fontsize=7)
    ax.set_title(title + "\nhollow: N* outside the N grid, not fitted", fontsize=10)
    _save(fig, path)


def nstar_by_series(tables, title, path):
    """N* of each series (e.g. each model) with its interval, and the CNN/pMoE ratios."""
    nstar = [p for p in tables["nstar"] if _finite(p["N_star"])]
    fig, ax = plt.subplots(figsize=(8.5, 0.6 * len(nstar) + 2.2))
    ys = np.arange(len(nstar))
    est = [p["N_star"] for p in nstar]
    err = [[p["N_star"] - p["lo"] for p in nstar], [min(p["hi"], 1e12) - p["N_star"] for p in nstar]]
    ax.errorbar(est, ys, xerr=err, fmt="o", capsize=3)
    ax.set_yticks(ys, [p["series"] for p in nstar], fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("N* (log): N where success prob. = 0.5; bars: 95% bootstrap interval")
    ratios = "\n".join(f"N* ratio {r['ratio']}: {r['N_star_ratio']:.2f} "
                       f"[{_fmt(r['lo'])}, {_fmt(r['hi'])}]"
                       for r in tables.get("ratios", []) if _finite(r["N_star_ratio"]))
    ax.set_title(title + ("\n" + ratios if ratios else ""), fontsize=9)
    ax.grid(alpha=0.3, which="both")
    _save(fig, path)


def _by_series(rows, names):
    groups = {}
    for r in rows:
        groups.setdefault(series_key(r, names), []).append(r)
    return groups


def _edges(values, log):
    v = np.log(values) if log else np.asarray(values, dtype=float)
    if len(v) == 1:
        e = np.array([v[0] - 0.5, v[0] + 0.5])
    else:
        mid = (v[1:] + v[:-1]) / 2
        e = np.concatenate([[v[0] - (mid[0] - v[0])], mid, [v[-1] + (v[-1] - mid[-1])]])
    return np.exp(e) if log else e


def _geometric(values):
    """Three or more positive values with one common ratio > 1.5 (2, 4, 8, 16)."""
    if len(values) < 3 or min(values) <= 0:
        return False
    ratios = [b / a for a, b in zip(values, values[1:])]
    return ratios[0] > 1.5 and all(abs(r - ratios[0]) < 1e-6 * ratios[0] for r in ratios)


def _finite(v):
    return v is not None and math.isfinite(v)


# pmoe-analyze's JSON writes an infinite interval end as null: an upper end is then open (too few
# bootstrap replicates crossed 0.5 in the grid) and is drawn to a cap far above any plot.
def _upper_end(v):
    return min(v, 1e12) if v is not None else 1e12


def _lower_end(v):
    return v if v is not None else np.nan


def _fmt(v):
    return f"{v:.2f}" if _finite(v) else "-"


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
