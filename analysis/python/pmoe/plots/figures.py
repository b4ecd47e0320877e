"""The figures of a result file: phase-transition maps, accuracy and router rates against N and
against any axis at fixed N, and log-log sample complexity against an axis. Each function draws
one figure from pmoe-analyze's tables; none fits anything itself.

Estimates outside the N grid are bounds: drawn as arrows at the grid's edge, never as points.
Estimates whose nearby trials mostly did not reach zero training error (pmoe-analyze's
low_convergence flag) are ringed in red: they measure the training budget as much as the data."""
import itertools
import math

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from pmoe.plots.analyze import READINGS  # noqa: E402

AXIS_LABELS = {"model.l": "l (patches routed per expert)", "model.k": "k (experts)",
               "data.c": "c (classes)",
               "data.n": "n (patches per sample)", "model.m": "m (neurons)",
               "N": "N (training samples)", "model.router_N": "router training samples"}

FLAG_STYLE = dict(marker="o", ms=11, mfc="none", mec="red", mew=1.4, linestyle="none")


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
    return ", ".join(f"{n}={row[n]}" for n in names
                     if _reads(kind, n) and row.get(n) not in (None, "")) or "all"


def styles():
    """Distinct (colour, marker, line style) for any number of series: the ten tab10 colours,
    then the same colours with another marker and dash pattern, and so on."""
    colours = plt.get_cmap("tab10").colors
    markers = "osD^vP*X"
    dashes = ["-", "--", ":", "-."]
    for round_, colour in ((r, c) for r in itertools.count() for c in colours):
        yield dict(color=colour, marker=markers[round_ % len(markers)],
                   linestyle=dashes[round_ % len(dashes)])


def phase_map(summary, nstar, axis, others, title, path):
    """Success rate over (N, axis) for each series, with the fitted N* and its interval on top."""
    groups = {}
    for row in summary:
        if row.get(axis) in (None, ""):
            continue  # a model that does not read the axis (the CNN in an l sweep)
        groups.setdefault(series_key(row, others), []).append(row)
    if not groups:
        return False
    fig, axes = plt.subplots(1, len(groups), figsize=(5.5 * len(groups), 4.2), squeeze=False)
    for ax, (name, rows) in zip(axes[0], groups.items()):
        Ns = sorted({r["N"] for r in rows})
        vals = sorted({r[axis] for r in rows})
        grid = np.full((len(vals), len(Ns)), np.nan)
        for r in rows:
            grid[vals.index(r[axis]), Ns.index(r["N"])] = r["success_rate"]
        # Geometric axes (k = 2, 4, 8, 16) get a log scale, so every value gets an equal row.
        log_y = _geometric(vals)
        edges = _edges(Ns, log=True)
        mesh = ax.pcolormesh(edges, _edges(vals, log=log_y), grid,
                             vmin=0, vmax=1, cmap="viridis", shading="flat")
        if log_y:
            ax.set_yscale("log")
            ax.set_yticks(vals, [f"{v:g}" for v in vals])
            ax.minorticks_off()
        mine = [p for p in nstar if p["series"] == name]
        beyond = [p[axis] for p in mine if p["grid"] == "above"]
        if beyond:  # N* past the largest N: the curve never reached the threshold
            ax.plot([edges[-1]] * len(beyond), beyond, ">", color="white", ms=7,
                    clip_on=False, label="N* > largest N (a bound)")
        below = [p[axis] for p in mine if p["grid"] == "below"]
        if below:  # the success rate is above the threshold already at the smallest N
            ax.plot([edges[0]] * len(below), below, "<", color="white", ms=7,
                    clip_on=False, label="N* < smallest N (a bound)")
        points = [p for p in mine if p["grid"] == "inside" and _finite(p["N_star"])]
        if points:
            ys = [p[axis] for p in points]
            lo = [_lower_end(p["lo"], edges[0]) for p in points]
            hi = [_upper_end(p["hi"], edges[-1]) for p in points]
            ax.fill_betweenx(ys, lo, hi, color="white", alpha=0.25, label="95% bootstrap interval")
            ax.plot([p["N_star"] for p in points], ys, "w-o", ms=4, label="N* (success prob. 0.5)")
        flagged = [p for p in points if p["flag"]]
        if flagged:
            ax.plot([p["N_star"] for p in flagged], [p[axis] for p in flagged], **FLAG_STYLE,
                    label="trials near N* mostly unconverged")
        if points or beyond or below:
            ax.legend(loc="lower right", fontsize=7, framealpha=0.6)
        ax.set_xscale("log")
        ax.set_xlim(edges[0], edges[-1])
        ax.set_xlabel(label("N"))
        ax.set_ylabel(label(axis))
        ax.set_title("" if name == "all" else name, fontsize=9)
        fig.colorbar(mesh, ax=ax, label="success rate")
    fig.suptitle(title)
    _save(fig, path)
    return True


def accuracy_vs_n(summary, others, title, path):
    """Mean test accuracy against N, 95% intervals of the mean (the paper's Figure 4 form)."""
    _mean_vs(summary, others, "N", "test_acc", "test accuracy (mean, 95% interval)", title, path)


def router_hit(summary, others, title, path, kinds):
    """Router hit rate against N: Lemma 4.1's rate (separate) or Assumption 4.4's (joint)."""
    rows_with_hits = [r for r in summary if r.get("router_hit") is not None]
    if not rows_with_hits:
        return False
    _mean_vs(rows_with_hits, others, "N", "router_hit", "router hit rate (mean, 95% interval)",
             title + _router_note(kinds), path, ylim=(0, 1.05))
    return True


def _router_note(kinds):
    which = {"separate": "Lemma 4.1: discriminative patch routed to its class's expert",
             "joint": "Assumption 4.4: some expert ranks it first"}
    notes = "\n".join(f"{k}: {which[k]}" for k in sorted(kinds) if k in which)
    return "\n" + notes if notes else ""


def metric_vs_axis(summary, axis, others, field, ylabel, title, path, ylim=None, max_panels=4):
    """`field` (test accuracy, a router rate) against `axis` at fixed N: one panel per N (up to
    `max_panels`, spread over the grid), one line per series, 95% intervals of the mean. A model
    that does not read the axis (the CNN in an l sweep) is a horizontal band: the same trials at
    every axis value. The paper's Figures 6 and 7 form."""
    rows = [dict(r) for r in summary if r.get(field) is not None]
    for r in rows:
        r.setdefault("N", math.nan)  # N not swept: one panel
    Ns = sorted({r["N"] for r in rows}, key=lambda v: (math.isnan(v), v))
    if not Ns:
        return False
    if len(Ns) > max_panels:
        Ns = [Ns[round(i * (len(Ns) - 1) / (max_panels - 1))] for i in range(max_panels)]
    fig, axes = plt.subplots(1, len(Ns), figsize=(4.6 * len(Ns) + 1.8, 4.2), squeeze=False,
                             sharey=True)
    series_names = sorted({series_key(r, [o for o in others if o != "N"]) for r in rows})
    style = dict(zip(series_names, styles()))
    values = sorted({r[axis] for r in rows if r.get(axis) not in (None, "")})
    for ax, N in zip(axes[0], Ns):
        at_n = [r for r in rows if r["N"] == N or (N != N and r["N"] != r["N"])]
        for name, group in _by_series(at_n, [o for o in others if o != "N"]).items():
            st = style[name]
            on_axis = sorted((r for r in group if r.get(axis) not in (None, "")),
                             key=lambda r: r[axis])
            off_axis = [r for r in group if r.get(axis) in (None, "")]
            if on_axis:
                ax.errorbar([r[axis] for r in on_axis], [r[field] for r in on_axis],
                            yerr=[_half_width(r, field) for r in on_axis], capsize=2, ms=4,
                            label=name, **st)
            for r in off_axis:  # the same cell at every axis value
                half = _half_width(r, field)
                ax.axhline(r[field], color=st["color"], linestyle=":", label=name + " (all "
                           + label(axis).split(" ")[0] + ")")
                if values:
                    ax.fill_between([values[0], values[-1]], r[field] - half, r[field] + half,
                                    color=st["color"], alpha=0.12)
        if _geometric(values):
            ax.set_xscale("log")
            ax.set_xticks(values, [f"{v:g}" for v in values])
            ax.minorticks_off()
        if ylim:
            ax.set_ylim(*ylim)
        ax.set_xlabel(label(axis))
        ax.set_title(f"N = {N:g}" if N == N else "", fontsize=9)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel(ylabel)
    handles, labels = axes[0][-1].get_legend_handles_labels()
    seen = {}
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    if seen:
        fig.legend(list(seen.values()), list(seen.keys()), loc="center left",
                   bbox_to_anchor=(1.0, 0.5), fontsize=7)
    fig.suptitle(title, fontsize=10)
    _save(fig, path)
    return True


def per_class_vs_n(summary, others, metric, title, path, max_columns=3):
    """A metric declared per class (or per class pair), `metric` as analyze.per_class_metrics
    finds it, against N: one panel per series, one line per class (the same colour for a class
    in every panel), means with 95% intervals. Series without a value in any of its columns
    (two classes: binary files and c = 2 cells record none) get no panel. False if none has."""
    columns = metric["columns"]
    groups = {name: sorted(rows, key=lambda r: r["N"])
              for name, rows in _by_series(summary, others).items()
              if any(r.get(c) is not None for r in rows for c in columns)}
    if not groups:
        return False
    cols = min(max_columns, len(groups))
    rows_ = math.ceil(len(groups) / cols)
    height = 3.2 * rows_ + 0.9
    fig, axes = plt.subplots(rows_, cols, figsize=(4.3 * cols, height), squeeze=False,
                             sharex=True, sharey=True)
    # A colour and a marker per class, and each class's points nudged sideways a little, so that
    # classes with equal values (every router hit 1, l* the same for every pair) stay visible.
    markers = "osD^vP*X"
    style = [dict(st, marker=markers[i % len(markers)])
             for i, st in zip(range(len(columns)), styles())]
    which = "class pair" if metric["pair"] else "class"
    Ns = sorted({r["N"] for rows in groups.values() for r in rows})
    ticks = Ns[::2] if len(Ns) > 6 else Ns
    for ax, (name, rows) in zip(axes.flat, groups.items()):
        for i, column in enumerate(columns):
            have = [r for r in rows if r.get(column) is not None]
            if have:
                nudge = math.exp(0.02 * (i - (len(columns) - 1) / 2))
                ax.errorbar([r["N"] * nudge for r in have], [r[column] for r in have],
                            yerr=[_half_width(r, column) for r in have], ms=3.5, capsize=1.5,
                            elinewidth=0.8, lw=1.2, label=f"{which} {i}", **style[i])
        ax.set_title(name, fontsize=8)
        ax.set_xscale("log")
        ax.set_xticks(ticks, [f"{v:g}" for v in ticks])  # the grid's N, every other if many
        ax.minorticks_off()
        ax.xaxis.set_tick_params(labelbottom=True)
        ax.grid(alpha=0.3)
        if metric["rate"]:
            ax.set_ylim(0, 1.05)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for column in range(cols):  # the lowest panel of each column names the axis
        lowest = max(r for r in range(rows_) if r * cols + column < len(groups))
        axes[lowest, column].set_xlabel(label("N"))
    for ax in axes[:, 0]:
        ax.set_ylabel("mean, 95% interval", fontsize=8)
    seen = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    fig.legend(list(seen.values()), list(seen.keys()), loc="center left",
               bbox_to_anchor=(1.0, 0.5), fontsize=8)
    fig.subplots_adjust(right=0.98, top=1 - 0.9 / height)  # room for the two-line title
    fig.suptitle(f"{title}\n{metric['help']}, one line per {which}", fontsize=10)
    _save(fig, path)
    return True


def _half_width(row, field):
    """Half-width of the 95% interval of the mean over the row's ok trials (normal
    approximation; 0 for a single trial)."""
    sd, ok = row.get(field + "_sd"), row.get("ok") or 0
    return 1.96 * sd / math.sqrt(ok) if sd is not None and ok > 1 else 0.0


def _mean_vs(rows, others, x, field, ylabel, title, path, ylim=None):
    """One line per series: `field` mean against `x` (log), 95% intervals of the mean."""
    fig, ax = plt.subplots(figsize=(7.6, 4.6))
    groups = _by_series(rows, others)
    for (name, series), st in zip(sorted(groups.items()), styles()):
        # A cell without trials (an N an adaptive search never tried) has no mean.
        series = sorted((r for r in series if r.get(field) is not None), key=lambda r: r[x])
        ax.errorbar([r[x] for r in series], [r[field] for r in series],
                    yerr=[_half_width(r, field) for r in series], ms=3, capsize=2, label=name,
                    **st)
    ax.set_xscale("log")
    if ylim:
        ax.set_ylim(*ylim)
    ax.set_xlabel(label(x))
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    ax.set_title(title, fontsize=10)
    _save(fig, path)


def nstar_loglog(exponent_tables, axis, title, path, fit_note="", reading="success"):
    """log-log sample complexity (one reading) against the axis, fitted line and exponent (with
    interval) in the legend; bounds as arrows at the N grid's edge; flagged estimates ringed."""
    cols = READINGS[reading]
    nstar = exponent_tables["nstar"]
    exponents = [e for e in exponent_tables["exponents"] if e.get("reading", "success") == reading]
    fig, ax = plt.subplots(figsize=(7.6, 4.6))
    drawn_flag = False
    edges = [v for p in nstar for v in (p["N_min"], p["N_max"])]
    for e, st in zip([e for e in exponents if not e["series"].startswith("cnn/")], styles()):
        pts = [p for p in nstar if p["series"] == e["series"]]
        inside = [p for p in pts if p[cols["grid"]] == "inside"]
        x = [p[axis] for p in inside]
        y = [p[cols["estimate"]] for p in inside]
        err = [[p[cols["estimate"]] - _lower_end(p[cols["lo"]], p["N_min"]) for p in inside],
               [_upper_end(p[cols["hi"]], p["N_max"]) - p[cols["estimate"]] for p in inside]]
        colour = st["color"]
        ax.errorbar(x, y, yerr=err, fmt=st["marker"], color=colour, ms=4, capsize=2)
        above = [p for p in pts if p[cols["grid"]] == "above"]
        below = [p for p in pts if p[cols["grid"]] == "below"]
        ax.plot([p[axis] for p in above], [p["N_max"] for p in above], "^", mfc="none",
                color=colour, ms=8)
        ax.plot([p[axis] for p in below], [p["N_min"] for p in below], "v", mfc="none",
                color=colour, ms=8)
        flagged = [p for p in inside if p[cols["flag"]]]
        if flagged:
            ax.plot([p[axis] for p in flagged], [p[cols["estimate"]] for p in flagged],
                    **FLAG_STYLE, label=None if drawn_flag else
                    "trials near it mostly unconverged (budget)")
            drawn_flag = True
        line_label = f"{e['series']}: exponent {_fmt(e['exponent'])} [{_fmt(e['lo'])}, " \
                     f"{_fmt(e['hi'])}] (theory bound {_fmt(e['theory'])})"
        if _finite(e["exponent"]) and x:
            xs = np.geomspace(min(x), max(x), 50)
            ax.plot(xs, np.exp(e["intercept"]) * xs ** e["exponent"], color=colour,
                    linestyle=st["linestyle"], label=line_label)
        else:
            ax.plot([], [], color=colour, label=f"{e['series']}: too few estimates in the grid")
    ax.set_xscale("log")
    ax.set_yscale("log")
    _plain_log_ticks(ax.xaxis)
    _plain_log_ticks(ax.yaxis)
    if edges:
        ax.set_ylim(min(edges) / 1.5, max(edges) * 1.5)
    ax.set_xlabel(label(axis) + " (log)")
    ax.set_ylabel(f"{cols['name']} (log): N where {cols['means']}")
    ax.grid(alpha=0.3, which="both")
    ratio_notes = [f"{cols['name']} ratio {e['series']} grows as "
                   f"{label(axis).split(' ')[0]}^{_fmt(e['exponent'])} "
                   f"[{_fmt(e['lo'])}, {_fmt(e['hi'])}]"
                   for e in exponents if e["series"].startswith("cnn/") and _finite(e["exponent"])]
    notes = "\n".join(([fit_note] if fit_note else []) + ratio_notes)
    ax.legend(fontsize=7, title=notes or None, title_fontsize=7, loc="center left",
              bbox_to_anchor=(1.0, 0.5))
    ax.set_title(title + "\n▲ ▼: outside the N grid, a bound at its edge, not fitted", fontsize=10)
    _save(fig, path)


def nstar_by_series(tables, title, path):
    """Both readings of each series' sample complexity (e.g. each model) with their intervals,
    bounds as arrows at the grid's edge, and the CNN/pMoE ratios in the title."""
    rows = tables["nstar"]
    fig, ax = plt.subplots(figsize=(8.5, 0.7 * len(rows) + 2.4))
    ys = np.arange(len(rows))
    for offset, (reading, st) in zip((-0.12, 0.12), zip(READINGS, styles())):
        cols = READINGS[reading]
        for y, p in zip(ys + offset, rows):
            grid = p[cols["grid"]]
            if grid == "inside":
                est = p[cols["estimate"]]
                lo = _lower_end(p[cols["lo"]], p["N_min"])
                hi = _upper_end(p[cols["hi"]], p["N_max"])
                ax.errorbar([est], [y], xerr=[[est - lo], [hi - est]], fmt=st["marker"],
                            color=st["color"], capsize=3)
                if p[cols["flag"]]:
                    ax.plot([est], [y], **FLAG_STYLE)
            elif grid in ("above", "below"):
                edge = p["N_max"] if grid == "above" else p["N_min"]
                ax.plot([edge], [y], ">" if grid == "above" else "<", color=st["color"], ms=9)
        ax.plot([], [], st["marker"], color=st["color"],
                label=f"{cols['name']}: N where {cols['means']}")
    ax.plot([], [], **FLAG_STYLE, label="trials near it mostly unconverged")
    ax.plot([], [], ">", color="grey", label="beyond the N grid (a bound)")
    ax.set_yticks(ys, [p["series"] for p in rows], fontsize=8)
    ax.set_xscale("log")
    _plain_log_ticks(ax.xaxis)
    ax.set_xlabel("training samples (log); bars: 95% paired bootstrap interval")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ratios = "\n".join(f"{r['reading']} ratio {r['ratio']}: " + (
        f"{r['N_star_ratio']:.2f} [{_fmt(r['lo'])}, {_fmt(r['hi'])}]" if not r["bound"]
        else r["bound"]) for r in tables.get("ratios", []))
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


# pmoe-analyze's JSON writes an interval end outside the N grid as null (a bound): it is drawn
# to the grid's edge.
def _upper_end(v, edge):
    return v if _finite(v) else edge


def _lower_end(v, edge):
    return v if _finite(v) else edge


def _fmt(v):
    return f"{v:.2f}" if _finite(v) else "-"


def _plain_log_ticks(axis):
    """Plain numbers (4, 6, 10, 200) on a log axis instead of 4x10^0."""
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(matplotlib.ticker.FuncFormatter(
        lambda v, _: f"{v:g}" if f"{v:g}"[0] in "2468" and len(f"{v:g}".strip("0.")) == 1 else ""))


def _save(fig, path):
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def claimed_levels(rates, title, path):
    """Measured rates (mean, lo, hi) beside the levels a claim names: {name: (m, lo, hi, level)}."""
    fig, ax = plt.subplots(figsize=(5.6, 3.6))
    names = list(rates)
    for x, (name, st) in enumerate(zip(names, styles())):
        m, lo, hi, level = rates[name]
        ax.errorbar([x], [m], yerr=[[m - lo], [hi - m]], fmt="o", color=st["color"], capsize=4,
                    label="measured (mean, 95% interval)" if x == 0 else None)
        ax.hlines(level, x - 0.3, x + 0.3, colors="black", linestyles="--",
                  label="the paper's level" if x == 0 else None)
    ax.set_xticks(range(len(names)), names)
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.set_ylim(min(0.5, min(r[1] for r in rates.values()) - 0.05), 1.02)
    ax.set_ylabel("rate")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title(title, fontsize=10)
    _save(fig, path)
