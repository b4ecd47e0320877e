"""The figures of a result file: phase-transition maps, log-log sample complexity against an
axis, a 2-D map of N* over two axes, sample complexity per series (rates.py: accuracy and router
rates against N and against any axis at fixed N). Each function draws one figure from
pmoe-analyze's tables; none fits anything itself.

Drawn by the rules of a journal (layout.py): sized for one or two journal columns
(layout.size), 7-8 pt text; human labels with symbols in math (labels.py); one colour and marker
per setting across a page; panels titled by what they hold, at most eight series each; the
theory's order as a slope triangle inside the axes; one legend below the panel grid, never wider
than it, with notes naming what a figure leaves out; no clipped label (constrained layout);
PNG (300 dpi), PDF (TrueType fonts embedded) and SVG (text as text); log axes ticked at the
grid's own values; rates and their bars within [0, 1]; a figure with no data is not written (the
functions return False).

Estimates outside the N grid are bounds: drawn as open triangles at the grid's edge, never as
points. Estimates whose nearby trials mostly did not reach zero training error (pmoe-analyze's
low_convergence flag) are ringed in red: they measure the training budget as much as the data."""
import contextlib
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import patheffects  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

from pmoe import atomic  # noqa: E402
from pmoe.plots import labels  # noqa: E402
from pmoe.plots import layout as L  # noqa: E402
from pmoe.plots.analyze import READINGS  # noqa: E402
from pmoe.plots.layout import (MAX_SERIES, MARKERS, PALETTE, natural,  # noqa: E402
                               shown, split_series)

STYLE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pmoe.mplstyle")
plt.style.use(STYLE_FILE)
ALL_FORMATS = ("png", "pdf", "svg")
FORMATS = ALL_FORMATS  # the files of every figure; only_formats narrows it


def panel():
    """(width, height) in inches of one panel at the current size (layout.size)."""
    return L.panel_size()


PANEL = L.panel_size()  # at the default size (two columns); panel() follows layout.size


@contextlib.contextmanager
def only_formats(*wanted):
    """Figures saved within the block are written in these formats alone: a report page embeds
    its figures as PNG and throws their folder away, and each format costs a drawing."""
    global FORMATS
    saved, FORMATS = FORMATS, tuple(wanted)
    try:
        yield
    finally:
        FORMATS = saved


# Callables run on every figure just before it is saved (the figure test records layouts).
SAVE_HOOKS = []

# The readings' names as a figure sets them (math).
_SYMBOL = {"N*": "$N^*$", "N_acc": r"$N_\mathrm{acc}$"}

FLAG_STYLE = dict(marker="o", ms=9, mfc="none", mec="red", mew=1.1, linestyle="none")


def label(name, log=False):
    return labels.axis_label(name, log)


def short(name):
    """The symbol of a parameter (or a ratio of two, "n/l"), for powers and captions."""
    return "/".join(labels.symbol(p) or p for p in name.split("/"))


def series_key(row, names):
    """The series a summary row belongs to, spelt as pmoe-analyze spells its series ("all" when
    nothing but the axis varies). A parameter the row's model does not read is empty there (a
    cell's key holds exactly what its families read), so it names no series of that model."""
    return ", ".join(f"{n}={row[n]}" for n in names if row.get(n) not in (None, "")) or "all"


def styles(count=MAX_SERIES):
    """(colour, marker) of `count` series outside a page: the palette in order, one each."""
    return [dict(color=PALETTE[i % len(PALETTE)], marker=MARKERS[i % len(MARKERS)],
                 linestyle="-") for i in range(count)]


def page_of(summary):
    """The page's settings (layout.page_settings) from its summary rows: every series over any
    parameters, as series_key spells them."""
    return L.page_settings(lambda keys: {series_key(r, keys) for r in summary})


def _by_series(rows, names):
    """{series name: rows}, series in numeric order."""
    groups = {}
    for r in rows:
        groups.setdefault(series_key(r, names), []).append(r)
    return {k: groups[k] for k in sorted(groups, key=natural)}


def grid_ticks(axis, values, log):
    """Ticks at the grid's own values (12, 24, 48, ... on a log N axis), labelled as plain
    numbers; every other label left blank when more than eight would crowd the axis."""
    values = sorted({float(v) for v in values if v is not None and math.isfinite(float(v))})
    if not values:
        return
    if log:
        axis.axes.set_xscale("log") if axis is axis.axes.xaxis else axis.axes.set_yscale("log")
    step = 1 if len(values) <= 8 else 2
    texts = [f"{v:g}" if i % step == 0 else "" for i, v in enumerate(values)]
    axis.set_major_locator(matplotlib.ticker.FixedLocator(values))
    axis.set_major_formatter(matplotlib.ticker.FixedFormatter(texts))
    axis.set_minor_locator(matplotlib.ticker.NullLocator())


def phase_map(summary, nstar, axis, others, title, path, l_star=None):
    """Success rate over (N, axis) for each series, with the fitted N* and its interval on top,
    l* marked when the axis is l. One panel per series, rows of three; the colour bar and the
    legend shared."""
    groups = {}
    for row in summary:
        if row.get(axis) in (None, "") or row.get("success_rate") is None:
            continue  # a model that does not read the axis (the CNN in an l sweep)
        groups.setdefault(series_key(row, others), []).append(row)
    if not groups:
        return False
    names = sorted(groups, key=natural)
    left_out = _unread_note(summary, axis, others)
    fig, axes = L.grid(len(names), extra_width=0.5)
    for ax, name in zip(axes, names):
        rows = groups[name]
        Ns = sorted({r["N"] for r in rows})
        vals = sorted({r[axis] for r in rows})
        grid = np.full((len(vals), len(Ns)), np.nan)
        for r in rows:
            grid[vals.index(r[axis]), Ns.index(r["N"])] = r["success_rate"]
        log_y = _geometric(vals)
        edges = _edges(Ns, log=True)
        y_edges = _edges(vals, log=log_y)
        ax.grid(False)
        mesh = ax.pcolormesh(edges, y_edges, grid, vmin=0, vmax=1, cmap="viridis",
                             shading="flat", rasterized=True)
        mine = [p for p in nstar if p["series"] == name]
        beyond = [p[axis] for p in mine if p["grid"] == "above"]
        if beyond:  # N* past the largest N: the curve never reached the threshold
            ax.plot([edges[-1]] * len(beyond), beyond, ">", color="white", mec="black", mew=0.5,
                    ms=6, clip_on=False, label="$N^*$ > largest N (a bound)")
        below = [p[axis] for p in mine if p["grid"] == "below"]
        if below:  # the success rate is above the threshold already at the smallest N
            ax.plot([edges[0]] * len(below), below, "<", color="white", mec="black", mew=0.5,
                    ms=6, clip_on=False, label="$N^*$ < smallest N (a bound)")
        points = [p for p in mine if p["grid"] == "inside" and _finite(p["N_star"])]
        if points:
            ys = [p[axis] for p in points]
            lo = [_lower_end(p["lo"], edges[0]) for p in points]
            hi = [_upper_end(p["hi"], edges[-1]) for p in points]
            ax.fill_betweenx(ys, lo, hi, fc=(1, 1, 1, 0.3), ec="0.3", lw=0.4,
                             label="95 % bootstrap interval")
            ax.plot([p["N_star"] for p in points], ys, "w-o", ms=3, lw=1, mec="black", mew=0.5,
                    path_effects=[patheffects.withStroke(linewidth=1.8, foreground="black")],
                    label="$N^*$ (success probability 0.5)")
        flagged = [p for p in points if p["flag"]]
        if flagged:
            ax.plot([p["N_star"] for p in flagged], [p[axis] for p in flagged], **FLAG_STYLE,
                    label="trials near $N^*$ mostly unconverged")
        if l_star is not None and axis == "model.l" and vals[0] <= l_star <= vals[-1]:
            ax.axhline(l_star, color="white", ls="--", lw=0.9)
            ax.text(edges[0] * 1.08, l_star, f"$l^* = {l_star:g}$", color="white", fontsize=7,
                    va="bottom", ha="left")
        ax.set_xlim(edges[0], edges[-1])
        ax.set_ylim(y_edges[0], y_edges[-1])
        grid_ticks(ax.xaxis, Ns, log=True)
        ax.tick_params(axis="x", labelrotation=90)
        grid_ticks(ax.yaxis, vals, log=log_y)
        ax.grid(False)
        ax.set_title(shown(name) or title)
    L.label_outer(axes, label("N"), label(axis))
    fig.colorbar(mesh, ax=axes, label="success rate", fraction=0.05, pad=0.04)
    L.footer(fig, axes, [left_out])
    _save(fig, path)
    return True


def _unread_note(summary, axis, others):
    """The note naming the models a map over `axis` has no panel for: they do not read it."""
    unread = [r for r in summary if r.get(axis) in (None, "")]
    if not unread:
        return ""
    kinds = sorted({r.get("model.kind", "") for r in unread} - {""})
    who = (", ".join(labels.value_label("model.kind", k) for k in kinds) if kinds else
           ", ".join(sorted({shown(series_key(r, others)) for r in unread}, key=natural)))
    return (f"No panel for {who}: it does not read {label(axis)} (the same cell at every "
            "value); its success rate is in the figures against N.")


def nstar_map(nstar, x_axis, y_axis, title, path, reading="success"):
    """N* (one reading) over two swept axes as a 2-D map, log colour scale, the number written in
    each cell; bounds as "> N_max" / "< N_min", flagged cells marked with a red frame. One panel
    per series of the remaining parameters. nstar: pmoe-analyze's rows over x_axis, whose series
    names carry y_axis ("data.n=8")."""
    cols = READINGS[reading]
    groups, skipped = {}, set()
    for p in nstar:
        parts = split_series(p["series"])
        if p.get(x_axis) in (None, "") or y_axis not in parts:
            skipped.add(parts.get("model.kind") or p["series"])
            continue
        y = float(parts.pop(y_axis))
        rest = ", ".join(f"{k}={v}" for k, v in parts.items()) or "all"
        groups.setdefault(rest, []).append(dict(p, **{y_axis: y}))
    if not groups:
        return False
    names = sorted(groups, key=natural)
    fig, axes = L.grid(len(names), extra_width=0.5)
    lo_all = min(p["N_min"] for g in groups.values() for p in g)
    hi_all = max(p["N_max"] for g in groups.values() for p in g)
    norm = matplotlib.colors.LogNorm(vmin=lo_all, vmax=hi_all)
    for ax, name in zip(axes, names):
        pts = groups[name]
        xs = sorted({p[x_axis] for p in pts})
        ys = sorted({p[y_axis] for p in pts})
        grid = np.full((len(ys), len(xs)), np.nan)
        for p in pts:
            est, where = p[cols["estimate"]], p[cols["grid"]]
            value = est if where == "inside" and _finite(est) else (
                p["N_max"] if where == "above" else p["N_min"] if where == "below" else np.nan)
            grid[ys.index(p[y_axis]), xs.index(p[x_axis])] = value
        mesh = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis", norm=norm,
                         extent=(-0.5, len(xs) - 0.5, -0.5, len(ys) - 0.5))
        for p in pts:
            i, j = xs.index(p[x_axis]), ys.index(p[y_axis])
            est, where = p[cols["estimate"]], p[cols["grid"]]
            text = (f"{est:.0f}" if where == "inside" and _finite(est) else
                    f">{p['N_max']:g}" if where == "above" else
                    f"<{p['N_min']:g}" if where == "below" else "n/a")
            value = grid[j, i]
            dark = value != value or norm(value) < 0.55
            ax.text(i, j, text, ha="center", va="center", fontsize=6,
                    color="white" if dark else "black")
            if where == "inside" and p[cols["flag"]]:
                ax.add_patch(plt.Rectangle((i - 0.5, j - 0.5), 1, 1, fill=False, ec="red", lw=1))
        ax.set_xticks(range(len(xs)), [f"{v:g}" for v in xs])
        ax.set_yticks(range(len(ys)), [f"{v:g}" for v in ys])
        ax.grid(False)
        ax.set_title(shown(name) or title)
    L.label_outer(axes, label(x_axis), label(y_axis))
    bar = fig.colorbar(mesh, ax=axes, label=f"{_SYMBOL[cols['name']]} (log scale)", fraction=0.05,
                       pad=0.04)
    _plain_log_ticks(bar.ax.yaxis)
    who = ", ".join(labels.value_label("model.kind", k) for k in sorted(skipped))
    L.footer(fig, axes, ["Each cell: the estimate; > or <: a bound beyond the N grid; red frame: "
                         "trials near it mostly unconverged.",
                         f"No panel for {who}: it does not read both {label(x_axis)} and "
                         f"{label(y_axis)}." if skipped else ""])
    _save(fig, path)
    return True



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
    return v is not None and isinstance(v, (int, float)) and math.isfinite(v)


# pmoe-analyze's JSON writes an interval end outside the N grid as null (a bound): it is drawn
# to the grid's edge.
def _upper_end(v, edge):
    return v if _finite(v) else edge


def _lower_end(v, edge):
    return v if _finite(v) else edge


def _fmt(v):
    return f"{v:.2f}" if _finite(v) else "-"


def _plain_log_ticks(axis):
    """Plain numbers (20, 50, 100, 200) on a log axis instead of 2x10^1."""
    axis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_locator(matplotlib.ticker.NullLocator())


# No creation date in PDF and SVG: the same figure gives the same bytes.
_METADATA = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}


def _save(fig, path):
    """The figure as PNG (300 dpi, the style's), PDF and SVG beside it (FORMATS): path names the
    PNG. Each file is written to a temporary file and renamed (pmoe.atomic), never left
    half-written; a format not drawn is removed where an earlier drawing left it."""
    for hook in SAVE_HOOKS:
        hook(fig, path)
    stem = path[:-4] if path.endswith(".png") else path
    try:
        for fmt in FORMATS:
            atomic.save_figure(fig, f"{stem}.{fmt}", metadata=_METADATA.get(fmt))
        for fmt in ALL_FORMATS:  # an earlier drawing's other formats would not match this one
            if fmt not in FORMATS and os.path.exists(f"{stem}.{fmt}"):
                os.remove(f"{stem}.{fmt}")
    finally:
        plt.close(fig)


def claimed_levels(rates, title, path):
    """Measured rates (mean, lo, hi) beside the levels a claim names: {name: (m, lo, hi, level)}."""
    fig, ax = plt.subplots(figsize=(panel()[0] * 1.3, panel()[1] * 1.2), layout="constrained")
    names = list(rates)
    for x, (name, st) in enumerate(zip(names, styles(len(names)))):
        m, lo, hi, level = rates[name]
        ax.errorbar([x], [m], yerr=[[max(m - lo, 0)], [max(min(hi, 1.0) - m, 0)]], fmt="o",
                    color=st["color"], capsize=4,
                    label="measured (mean, 95% interval)" if x == 0 else None)
        ax.hlines(level, x - 0.3, x + 0.3, colors="black", linestyles="--",
                  label="the paper's level" if x == 0 else None)
    ax.set_xticks(range(len(names)), names)
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.set_ylim(min(0.5, min(r[1] for r in rates.values()) - 0.05), 1.02)
    ax.set_ylabel("rate")
    ax.set_title(title)
    L.footer(fig, [ax])
    _save(fig, path)
    return True


# The rate figures live in rates.py, their names still figures.accuracy_vs_n etc. for callers;
# ... and the sample-complexity figures in sample_figures.py: the same for them. Looked up when
# first asked for (PEP 562), so either module may be imported first.
_ELSEWHERE = {"rates": ("accuracy_vs_n", "router_hit", "metric_vs_axis", "per_class_vs_n",
                        "rate_errors", "rate_note", "rate_vs_n"),
              "sample_figures": ("nstar_loglog", "nstar_by_series", "ratio_label")}


def __getattr__(name):
    import importlib
    for module, names in _ELSEWHERE.items():
        if name in names:
            return getattr(importlib.import_module(f"pmoe.plots.{module}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


size, panels_of = L.size, L.panels_of
