"""The figures of a result file: phase-transition maps, accuracy and router rates against N and
against any axis at fixed N, log-log sample complexity against an axis, and a 2-D map of N* over
two axes. Each function draws one figure from pmoe-analyze's tables; none fits anything itself.

Paper-ready by construction: one style for every figure (pmoe.mplstyle beside this file: a
colour-blind-safe palette of eight colours, 8-pt text on ~2.5-inch panels); every figure is
written as PNG (300 dpi), PDF and SVG; log axes are ticked at the grid's own values; legends sit
outside the axes (right of a single panel, below a row of panels); at most eight series share a
panel, more are split into small multiples, series in numeric order (n=8, n=16, n=32); panels
wrap into rows of at most three; rates and their error bars are clipped to [0, 1]; a figure
with no data is not written (the functions return False).

Estimates outside the N grid are bounds: drawn as open triangles at the grid's edge, never as
points. Estimates whose nearby trials mostly did not reach zero training error (pmoe-analyze's
low_convergence flag) are ringed in red: they measure the training budget as much as the data."""
import contextlib
import math
import os
import re
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import patheffects  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

from pmoe import atomic  # noqa: E402
from pmoe.plots.analyze import READINGS  # noqa: E402

STYLE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pmoe.mplstyle")
plt.style.use(STYLE_FILE)
PALETTE = plt.rcParams["axes.prop_cycle"].by_key()["color"]
MAX_SERIES = len(PALETTE)  # series per panel: one colour each, never reused within a panel
MARKERS = "osD^vP*X"
PANEL = (2.3, 1.9)  # inches of one panel; three in a row (and a colour bar) fit 7.5 inches
MAX_COLUMNS = 3
ALL_FORMATS = ("png", "pdf", "svg")
FORMATS = ALL_FORMATS  # the files of every figure; only_formats narrows it


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

AXIS_LABELS = {"model.l": "l (patches routed per expert)", "model.k": "k (experts)",
               "data.c": "c (classes)",
               "data.n": "n (patches per sample)", "model.m": "m (neurons)",
               "N": "N (training samples)", "model.router_N": "router training samples"}

FLAG_STYLE = dict(marker="o", ms=9, mfc="none", mec="red", mew=1.1, linestyle="none")


def label(name):
    return AXIS_LABELS.get(name, name)


def short(name):
    return label(name).split(" ")[0]


# Parameters a model kind does not read; kept out of its series labels (as pmoe-analyze does).
# Names ending in "_" are prefixes (model.router_lr, model.router_N, ...).
NOT_READ = {"cnn": ("model.l", "model.k", "model.sigma_g", "model.sigma_r", "model.router_"),
            "separate": ("model.sigma_g",), "joint": ("model.sigma_r", "model.router_")}


def _reads(kind, name):
    return not any(name == p or (p.endswith("_") and name.startswith(p))
                   for p in NOT_READ.get(kind, ()))


def series_key(row, names):
    """The series a summary row belongs to, spelt as pmoe-analyze spells its series ("all" when
    nothing but the axis varies)."""
    kind = row.get("model.kind")
    return ", ".join(f"{n}={row[n]}" for n in names
                     if _reads(kind, n) and row.get(n) not in (None, "")) or "all"


def shown(name):
    """A series name as a legend shows it: nothing for the single series "all"."""
    return "" if name == "all" else name


def split_series(name):
    """{parameter: value} of a series name as pmoe-analyze spells it ("data.n=8, model.l=4")."""
    return dict(part.split("=", 1) for part in name.split(", ") if "=" in part)


def natural(text):
    """Sort key putting numbers in numeric order: n=8 < n=16 < n=32 (string order has 16 first)."""
    return [(0, float(p), "") if re.fullmatch(r"-?\d+(\.\d+)?(e-?\d+)?", p) else (1, 0.0, p)
            for p in re.split(r"(-?\d+(?:\.\d+)?(?:e-?\d+)?)", str(text)) if p != ""]


def styles(count=MAX_SERIES):
    """(colour, marker) per series of one panel: the palette's eight colours, one each."""
    return [dict(color=PALETTE[i % len(PALETTE)], marker=MARKERS[i % len(MARKERS)],
                 linestyle="-") for i in range(count)]


def _by_series(rows, names):
    """{series name: rows}, series in numeric order."""
    groups = {}
    for r in rows:
        groups.setdefault(series_key(r, names), []).append(r)
    return {k: groups[k] for k in sorted(groups, key=natural)}


def panels_of(series_names, others):
    """Series split into panels of at most MAX_SERIES: by the values of the first parameter of
    `others` whose groups are all small enough (kind, say), else in consecutive runs. Returns
    [(panel title, [series names])]; one untitled panel when all fit."""
    names = sorted(series_names, key=natural)
    if len(names) <= MAX_SERIES:
        return [("", names)]
    for p in others:
        groups = {}
        for n in names:
            value = split_series(n).get(p, "")
            groups.setdefault(value, []).append(n)
        if len(groups) > 1 and all(len(g) <= MAX_SERIES for g in groups.values()):
            return [(f"{p}={v}" if v else f"no {p}", g)
                    for v, g in sorted(groups.items(), key=lambda kv: natural(kv[0]))]
    return [(f"series {i + 1}-{min(i + MAX_SERIES, len(names))}", names[i:i + MAX_SERIES])
            for i in range(0, len(names), MAX_SERIES)]


def _grid(count, sharex=False, sharey=False, extra_width=0.0):
    """count panels wrapped into rows of at most MAX_COLUMNS; unused slots hidden."""
    count = max(count, 1)
    cols = min(MAX_COLUMNS, count)
    rows = math.ceil(count / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(PANEL[0] * cols + extra_width, PANEL[1] * rows),
                             squeeze=False, sharex=sharex, sharey=sharey,
                             # Rows of panels need the layout engine; one panel's legend to its
                             # right would make the engine shrink the axes to nothing.
                             layout="constrained" if count > 1 else None)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:count])


def grid_ticks(axis, values, log):
    """Ticks at the grid's own values (12, 24, 48, ... on a log N axis), labelled as plain
    numbers; every other label left blank when more than eight would crowd the axis."""
    values = sorted({float(v) for v in values if v is not None and math.isfinite(float(v))})
    if not values:
        return
    if log:
        axis.axes.set_xscale("log") if axis is axis.axes.xaxis else axis.axes.set_yscale("log")
    step = 1 if len(values) <= 8 else 2
    labels = [f"{v:g}" if i % step == 0 else "" for i, v in enumerate(values)]
    axis.set_major_locator(matplotlib.ticker.FixedLocator(values))
    axis.set_major_formatter(matplotlib.ticker.FixedFormatter(labels))
    axis.set_minor_locator(matplotlib.ticker.NullLocator())


def legend_right(ax, **kw):
    """The axes' legend outside it, to the right; none when nothing is labelled."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), **kw)


def legend_below(fig, axes, **kw):
    """One legend for all panels, below them and their tick and axis labels; each label once."""
    seen = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    if not seen:
        return
    fig.canvas.draw()  # runs the layout, so the panels' labels are where they will be saved
    renderer = fig.canvas.get_renderer()
    bottom = min(ax.get_tightbbox(renderer).y0 for ax in axes)
    y = fig.transFigure.inverted().transform((0, bottom))[1]
    fig.legend(list(seen.values()), list(seen.keys()), loc="upper center",
               bbox_to_anchor=(0.5, y - 0.01), ncol=min(3, len(seen)), **kw)


def rate_errors(means, halves):
    """Error bars of rates clipped to [0, 1]: [[down], [up]]."""
    return [[min(h, m) for m, h in zip(means, halves)],
            [min(h, 1.0 - m) for m, h in zip(means, halves)]]


def _is_rate(field):
    return field in ("test_acc", "success_rate", "train_acc") or field.startswith("router_hit")


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
    fig, axes = _grid(len(names), extra_width=0.6)
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
                    ms=6, clip_on=False, label="N* > largest N (a bound)")
        below = [p[axis] for p in mine if p["grid"] == "below"]
        if below:  # the success rate is above the threshold already at the smallest N
            ax.plot([edges[0]] * len(below), below, "<", color="white", mec="black", mew=0.5,
                    ms=6, clip_on=False, label="N* < smallest N (a bound)")
        points = [p for p in mine if p["grid"] == "inside" and _finite(p["N_star"])]
        if points:
            ys = [p[axis] for p in points]
            lo = [_lower_end(p["lo"], edges[0]) for p in points]
            hi = [_upper_end(p["hi"], edges[-1]) for p in points]
            ax.fill_betweenx(ys, lo, hi, fc=(1, 1, 1, 0.3), ec="0.3", lw=0.4,
                             label="95% bootstrap interval")
            ax.plot([p["N_star"] for p in points], ys, "w-o", ms=3, lw=1, mec="black", mew=0.5,
                    path_effects=[patheffects.withStroke(linewidth=1.8, foreground="black")],
                    label="N* (success prob. 0.5)")
        flagged = [p for p in points if p["flag"]]
        if flagged:
            ax.plot([p["N_star"] for p in flagged], [p[axis] for p in flagged], **FLAG_STYLE,
                    label="trials near N* mostly unconverged")
        if l_star is not None and axis == "model.l" and vals[0] <= l_star <= vals[-1]:
            ax.axhline(l_star, color="white", ls="--", lw=0.9)
            ax.text(edges[0] * 1.08, l_star, f"l* = {l_star:g}", color="white", fontsize=7,
                    va="bottom", ha="left")
        ax.set_xlim(edges[0], edges[-1])
        ax.set_ylim(y_edges[0], y_edges[-1])
        grid_ticks(ax.xaxis, Ns, log=True)
        ax.tick_params(axis="x", labelrotation=90)
        grid_ticks(ax.yaxis, vals, log=log_y)
        ax.set_xlabel(label("N"))
        ax.set_ylabel(label(axis))
        ax.grid(False)
        ax.set_title(shown(name) or title)
    fig.colorbar(mesh, ax=axes, label="success rate", fraction=0.05, pad=0.04)
    legend_below(fig, axes)
    _save(fig, path)
    return True


def nstar_map(nstar, x_axis, y_axis, title, path, reading="success"):
    """N* (one reading) over two swept axes as a 2-D map, log colour scale, the number written in
    each cell; bounds as "> N_max" / "< N_min", flagged cells marked with a red frame. One panel
    per series of the remaining parameters. nstar: pmoe-analyze's rows over x_axis, whose series
    names carry y_axis ("data.n=8")."""
    cols = READINGS[reading]
    groups = {}
    for p in nstar:
        parts = split_series(p["series"])
        if p.get(x_axis) in (None, "") or y_axis not in parts:
            continue
        y = float(parts.pop(y_axis))
        rest = ", ".join(f"{k}={v}" for k, v in parts.items()) or "all"
        groups.setdefault(rest, []).append(dict(p, **{y_axis: y}))
    if not groups:
        return False
    names = sorted(groups, key=natural)
    fig, axes = _grid(len(names), extra_width=0.6)
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
        ax.set_xlabel(label(x_axis))
        ax.set_ylabel(label(y_axis))
        ax.grid(False)
        ax.set_title(shown(name) or title)
    bar = fig.colorbar(mesh, ax=axes, label=f"{cols['name']} (log)", fraction=0.05, pad=0.04)
    _plain_log_ticks(bar.ax.yaxis)
    _save(fig, path)
    return True


def accuracy_vs_n(summary, others, title, path):
    """Mean test accuracy against N, 95% intervals of the mean (the paper's Figure 4 form)."""
    return _mean_vs(summary, others, "N", "test_acc", "test accuracy (mean, 95% interval)", title,
                    path, ylim=(0, 1.02))


def router_hit(summary, others, title, path, kinds):
    """Router hit rate against N: Lemma 4.1's rate (separate) or Assumption 4.4's (joint)."""
    rows_with_hits = [r for r in summary if r.get("router_hit") is not None]
    if not rows_with_hits:
        return False
    return _mean_vs(rows_with_hits, others, "N", "router_hit",
                    "router hit rate (mean, 95% interval)", title + _router_note(kinds), path,
                    ylim=(0, 1.02))


def _router_note(kinds):
    which = {"separate": "Lemma 4.1: discriminative patch routed to its class's expert",
             "joint": "Assumption 4.4: some expert ranks it first"}
    notes = "\n".join(f"{k}: {which[k]}" for k in sorted(kinds) if k in which)
    return "\n" + notes if notes else ""


def metric_vs_axis(summary, axis, others, field, ylabel, title, path, ylim=None, max_panels=6):
    """`field` (test accuracy, a router rate) against `axis` at fixed N: one panel per N (up to
    `max_panels`, spread over the grid), one line per series, 95% intervals of the mean. A model
    that does not read the axis (the CNN in an l sweep) is a horizontal band: the same trials at
    every axis value. The paper's Figures 6 and 7 form. More than eight series: one row of panels
    per group of series (small multiples). False, and nothing written, without data."""
    rows = [dict(r) for r in summary if r.get(field) is not None]
    for r in rows:
        r.setdefault("N", math.nan)  # N not swept: one panel
    values = sorted({r[axis] for r in rows if r.get(axis) not in (None, "")})
    if not rows or not values:
        return False  # nothing measured, or no cell reads the axis (d of image data)
    Ns = sorted({r["N"] for r in rows}, key=lambda v: (math.isnan(v), v))
    if len(Ns) > max_panels:
        Ns = [Ns[round(i * (len(Ns) - 1) / (max_panels - 1))] for i in range(max_panels)]
    series_others = [o for o in others if o != "N"]
    all_series = _by_series(rows, series_others)
    groups = panels_of(all_series, series_others)
    panels = [(N, group_title, names) for group_title, names in groups for N in Ns]
    fig, axes = _grid(len(panels), sharey=True)
    rate = ylim is not None or _is_rate(field)
    for ax, (N, group_title, names) in zip(axes, panels):
        for name, st in zip(names, styles(len(names))):
            group = [r for r in all_series[name]
                     if r["N"] == N or (N != N and r["N"] != r["N"])]
            on_axis = sorted((r for r in group if r.get(axis) not in (None, "")),
                             key=lambda r: r[axis])
            off_axis = [r for r in group if r.get(axis) in (None, "")]
            if on_axis:
                means = [r[field] for r in on_axis]
                halves = [_half_width(r, field) for r in on_axis]
                ax.errorbar([r[axis] for r in on_axis], means,
                            yerr=rate_errors(means, halves) if rate else halves,
                            label=shown(name) or None, **st)
            for r in off_axis:  # the same cell at every axis value
                half = _half_width(r, field)
                ax.axhline(r[field], color=st["color"], linestyle=":",
                           label=(shown(name) + " " if shown(name) else "") +
                           f"(reads no {short(axis)})")
                low, high = r[field] - half, r[field] + half
                if rate:
                    low, high = max(low, 0.0), min(high, 1.0)
                ax.fill_between([values[0], values[-1]], low, high, color=st["color"],
                                alpha=0.12, lw=0)
        grid_ticks(ax.xaxis, values, log=_geometric(values))
        if ylim or rate:
            ax.set_ylim(*(ylim or (0, 1.02)))
            if ylim and ylim[1] > 1:
                ax.set_ylim(ylim[0], 1.02)
        ax.set_xlabel(label(axis))
        ax.set_title(", ".join(t for t in (group_title, f"N = {N:g}" if N == N else "") if t))
    for ax in axes[::MAX_COLUMNS]:
        ax.set_ylabel(ylabel)
    legend_below(fig, axes)
    _save(fig, path)
    return True


def per_class_vs_n(summary, others, metric, title, path, max_columns=MAX_COLUMNS):
    """A metric declared per class (or per class pair), `metric` as analyze.per_class_metrics
    finds it, against N: one panel per series, one line per class (the same colour for a class
    in every panel), means with 95% intervals. Series without a value in any of its columns
    (two classes: binary files and c = 2 cells record none) get no panel. False if none has."""
    columns = metric["columns"][:MAX_SERIES]
    groups = {name: sorted(rows, key=lambda r: r["N"])
              for name, rows in _by_series(summary, others).items()
              if any(r.get(c) is not None for r in rows for c in columns)}
    if not groups:
        return False
    fig, axes = _grid(len(groups), sharex=True, sharey=True)
    style = styles(len(columns))
    which = "class pair" if metric["pair"] else "class"
    Ns = sorted({r["N"] for rows in groups.values() for r in rows})
    for ax, (name, rows) in zip(axes, groups.items()):
        for i, column in enumerate(columns):
            have = [r for r in rows if r.get(column) is not None]
            if have:
                # Each class nudged sideways a little, so equal values stay visible.
                nudge = math.exp(0.02 * (i - (len(columns) - 1) / 2))
                means = [r[column] for r in have]
                halves = [_half_width(r, column) for r in have]
                ax.errorbar([r["N"] * nudge for r in have], means,
                            yerr=rate_errors(means, halves) if metric["rate"] else halves,
                            elinewidth=0.8, label=f"{which} {i}", **style[i])
        ax.set_title(shown(name))
        grid_ticks(ax.xaxis, Ns, log=True)
        ax.tick_params(axis="x", labelrotation=90)
        ax.xaxis.set_tick_params(labelbottom=True)
        if metric["rate"]:
            ax.set_ylim(0, 1.02)
        ax.set_xlabel(label("N"))
    for ax in axes[::max_columns]:
        ax.set_ylabel(textwrap.fill(f"{metric['help']} (mean, 95% interval)", 34))
    legend_below(fig, axes)
    _save(fig, path)
    return True


def _half_width(row, field):
    """Half-width of the 95% interval of the mean over the row's ok trials (normal
    approximation; 0 for a single trial)."""
    sd, ok = row.get(field + "_sd"), row.get("ok") or 0
    return 1.96 * sd / math.sqrt(ok) if sd is not None and ok > 1 else 0.0


def _mean_vs(rows, others, x, field, ylabel, title, path, ylim=None):
    """One line per series: `field` mean against `x` (log, ticked at the grid), 95% intervals of
    the mean; more than eight series: small multiples."""
    rows = [r for r in rows if r.get(field) is not None and r.get(x) not in (None, "")]
    if not rows:
        return False
    groups = _by_series(rows, others)
    panels = panels_of(groups, others)
    fig, axes = _grid(len(panels), sharey=True)
    xs = sorted({r[x] for r in rows})
    rate = ylim is not None or _is_rate(field)
    for ax, (panel_title, names) in zip(axes, panels):
        for name, st in zip(names, styles(len(names))):
            series = sorted(groups[name], key=lambda r: r[x])
            means = [r[field] for r in series]
            halves = [_half_width(r, field) for r in series]
            ax.errorbar([r[x] for r in series], means,
                        yerr=rate_errors(means, halves) if rate else halves,
                        label=shown(name) or None, **st)
        grid_ticks(ax.xaxis, xs, log=True)
        ax.tick_params(axis="x", labelrotation=90)
        if ylim:
            ax.set_ylim(ylim[0], min(ylim[1], 1.02) if rate else ylim[1])
        ax.set_xlabel(label(x))
        ax.set_title(panel_title or (title if len(panels) == 1 else ""))
    for ax in axes[::MAX_COLUMNS]:
        ax.set_ylabel(ylabel)
    if len(panels) == 1:
        legend_right(axes[0])
    else:
        legend_below(fig, axes)
    _save(fig, path)
    return True


def nstar_loglog(exponent_tables, axis, title, path, fit_note="", reading="success",
                 n_grid=None):
    """log-log sample complexity (one reading) against the axis: estimates with intervals, the
    fitted line, and the theory's order drawn as a reference slope (dashed grey, through the
    fit's first point) beside the fitted exponent with its interval; bounds as open triangles at
    the N grid's edge; flagged estimates ringed. More than eight series: small multiples.
    n_grid: the N values of the grid, for the y ticks. False, and nothing written, without a
    single estimate."""
    cols = READINGS[reading]
    nstar = exponent_tables["nstar"]
    exponents = [e for e in exponent_tables["exponents"]
                 if e.get("reading", "success") == reading and not e["series"].startswith("cnn/")]
    if not exponents or not any(p[cols["grid"]] in ("inside", "above", "below") for p in nstar):
        return False
    by_name = {e["series"]: e for e in exponents}
    panels = panels_of(by_name, [])
    fig, axes = _grid(len(panels), sharey=True)
    edges = [v for p in nstar for v in (p["N_min"], p["N_max"])]
    xs_all = sorted({p[axis] for p in nstar if p.get(axis) not in (None, "")})
    theory_drawn = False
    for ax, (panel_title, names) in zip(axes, panels):
        drawn_flag = False
        for name, st in zip(names, styles(len(names))):
            e = by_name[name]
            pts = [p for p in nstar if p["series"] == name]
            inside = [p for p in pts if p[cols["grid"]] == "inside"]
            x = [p[axis] for p in inside]
            y = [p[cols["estimate"]] for p in inside]
            err = [[p[cols["estimate"]] - _lower_end(p[cols["lo"]], p["N_min"]) for p in inside],
                   [_upper_end(p[cols["hi"]], p["N_max"]) - p[cols["estimate"]] for p in inside]]
            colour = st["color"]
            ax.errorbar(x, y, yerr=err, fmt=st["marker"], color=colour)
            for where, marker, edge in (("above", "^", "N_max"), ("below", "v", "N_min")):
                out = [p for p in pts if p[cols["grid"]] == where]
                ax.plot([p[axis] for p in out], [p[edge] for p in out], marker, mfc="none",
                        color=colour, ms=6)
            flagged = [p for p in inside if p[cols["flag"]]]
            if flagged:
                ax.plot([p[axis] for p in flagged], [p[cols["estimate"]] for p in flagged],
                        **FLAG_STYLE, label=None if drawn_flag else
                        "trials near it mostly unconverged")
                drawn_flag = True
            prefix = f"{shown(name)}: " if shown(name) else ""
            if _finite(e["exponent"]) and x:
                xs = np.geomspace(min(x), max(x), 50)
                ax.plot(xs, np.exp(e["intercept"]) * xs ** e["exponent"], color=colour,
                        label=f"{prefix}fit {short(axis)}^{_fmt(e['exponent'])} "
                              f"[{_fmt(e['lo'])}, {_fmt(e['hi'])}]")
                if _finite(e.get("theory")):
                    # The theory's order as a slope through the fit's value at the first point:
                    # only its slope is comparable (the theorem's constant is unknown).
                    x0 = min(x)
                    y0 = np.exp(e["intercept"]) * x0 ** e["exponent"]
                    ax.plot(xs, y0 * (xs / x0) ** e["theory"], color="grey", ls="--", lw=0.9,
                            label=None if theory_drawn else
                            f"theory's order {short(axis)}^{e['theory']:g} (slope only)")
                    theory_drawn = True
            else:
                ax.plot([], [], color=colour, label=f"{prefix}too few estimates in the grid")
        ax.set_xscale("log")
        ax.set_yscale("log")
        grid_ticks(ax.xaxis, xs_all, log=True)
        if edges:
            ax.set_ylim(min(edges) / 1.5, max(edges) * 1.5)
        if n_grid:
            grid_ticks(ax.yaxis, [v for v in n_grid if min(edges) <= v <= max(edges)], log=True)
        else:
            _plain_log_ticks(ax.yaxis)
        ax.set_xlabel(label(axis) + " (log)")
        ax.set_title(panel_title or (title if len(panels) == 1 else ""))
    axes[0].set_ylabel(f"{cols['name']} (log): N where\n{cols['means']}")
    ratio_notes = [f"{cols['name']} ratio {e['series']} grows as "
                   f"{short(axis)}^{_fmt(e['exponent'])} [{_fmt(e['lo'])}, {_fmt(e['hi'])}]"
                   for e in exponent_tables["exponents"]
                   if e.get("reading", "success") == reading and e["series"].startswith("cnn/")
                   and _finite(e["exponent"])]
    axes[0].plot([], [], "^", mfc="none", color="grey", label="outside the N grid (a bound)")
    notes = "\n".join(([fit_note] if fit_note else []) + ratio_notes)
    if len(panels) == 1:
        legend_right(axes[0], title=notes or None)
    else:
        legend_below(fig, axes, title=notes or None)
    _save(fig, path)
    return True


def nstar_by_series(tables, title, path):
    """Both readings of each series' sample complexity (e.g. each model) with their intervals,
    bounds as triangles at the grid's edge, and the CNN/pMoE ratios in the title."""
    rows = sorted(tables["nstar"], key=lambda p: natural(p["series"]))
    if not rows:
        return False
    fig, ax = plt.subplots(figsize=(PANEL[0] * 1.6, 0.3 * len(rows) + 1.2))
    ys = np.arange(len(rows))
    for offset, (reading, st) in zip((-0.12, 0.12), zip(READINGS, styles(2))):
        cols = READINGS[reading]
        for y, p in zip(ys + offset, rows):
            grid = p[cols["grid"]]
            if grid == "inside":
                est = p[cols["estimate"]]
                lo = _lower_end(p[cols["lo"]], p["N_min"])
                hi = _upper_end(p[cols["hi"]], p["N_max"])
                ax.errorbar([est], [y], xerr=[[est - lo], [hi - est]], fmt=st["marker"],
                            color=st["color"])
                if p[cols["flag"]]:
                    ax.plot([est], [y], **FLAG_STYLE)
            elif grid in ("above", "below"):
                edge = p["N_max"] if grid == "above" else p["N_min"]
                ax.plot([edge], [y], ">" if grid == "above" else "<", color=st["color"], ms=7)
        ax.plot([], [], st["marker"], color=st["color"],
                label=f"{cols['name']}: N where {cols['means']}")
    ax.plot([], [], **FLAG_STYLE, label="trials near it mostly unconverged")
    ax.plot([], [], ">", color="grey", label="beyond the N grid (a bound)")
    ax.set_yticks(ys, [shown(p["series"]) or "all" for p in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xscale("log")
    _plain_log_ticks(ax.xaxis)
    ax.set_xlabel("training samples (log); bars: 95% paired bootstrap interval")
    ratios = "\n".join(f"{r['reading']} ratio {r['ratio']}: " + (
        f"{r['N_star_ratio']:.2f} [{_fmt(r['lo'])}, {_fmt(r['hi'])}]" if not r["bound"]
        else r["bound"]) for r in tables.get("ratios", []))
    legend_right(ax, title=ratios or None)
    ax.set_title(title)
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


def _save(fig, path):
    """The figure as PNG (300 dpi, the style's), PDF and SVG beside it (FORMATS): path names the
    PNG. Each file is written to a temporary file and renamed (pmoe.atomic), never left
    half-written; a format not drawn is removed where an earlier drawing left it."""
    for hook in SAVE_HOOKS:
        hook(fig, path)
    stem = path[:-4] if path.endswith(".png") else path
    try:
        for fmt in FORMATS:
            atomic.save_figure(fig, f"{stem}.{fmt}")  # whole or not at all
        for fmt in ALL_FORMATS:  # an earlier drawing's other formats would not match this one
            if fmt not in FORMATS and os.path.exists(f"{stem}.{fmt}"):
                os.remove(f"{stem}.{fmt}")
    finally:
        plt.close(fig)


def claimed_levels(rates, title, path):
    """Measured rates (mean, lo, hi) beside the levels a claim names: {name: (m, lo, hi, level)}."""
    fig, ax = plt.subplots(figsize=(PANEL[0] * 1.3, PANEL[1] * 1.2))
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
    legend_right(ax)
    ax.set_title(title)
    _save(fig, path)
    return True
