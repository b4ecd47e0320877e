"""The rate figures: test accuracy and router hit rates against N, against any axis at fixed N,
and a per-class metric against N. Means with 95 % intervals of the mean, rates and their bars
clipped to [0, 1]; series styled by the page (layout.style), split into titled panels when more
than eight share one; every value of an axis drawn, or named in a note saying why not.
figures.py re-exports them (figures.accuracy_vs_n, ...)."""
import math

from pmoe.plots import figures as F
from pmoe.plots import labels
from pmoe.plots import layout as L


def rate_errors(means, halves):
    """Error bars of rates clipped to [0, 1]: [[down], [up]]."""
    return [[min(h, m) for m, h in zip(means, halves)],
            [min(h, 1.0 - m) for m, h in zip(means, halves)]]


def _is_rate(field):
    return field in ("test_acc", "success_rate", "train_acc") or field.startswith("router_hit")


def _half_width(row, field):
    """Half-width of the 95% interval of the mean over the row's ok trials (normal
    approximation; 0 for a single trial)."""
    sd, ok = row.get(field + "_sd"), row.get("ok") or 0
    return 1.96 * sd / math.sqrt(ok) if sd is not None and ok > 1 else 0.0


def accuracy_vs_n(summary, others, title, path):
    """Mean test accuracy against N, 95% intervals of the mean (the paper's Figure 4 form)."""
    return _mean_vs(summary, others, "N", "test_acc", "test accuracy", title, path,
                    ylim=(0, 1.02))


def router_hit(summary, others, title, path, note=""):
    """Router hit rate against N, `note` (rate_note: what the rate is, per model) under it."""
    rows_with_hits = [r for r in summary if r.get("router_hit") is not None]
    if not rows_with_hits:
        return False
    return _mean_vs(rows_with_hits, others, "N", "router_hit", "router hit rate", title, path,
                    ylim=(0, 1.02), notes=[note.strip()])


def rate_vs_n(summary, others, field, ylabel, title, path):
    """A rate a family declares (its /trials column has rate = 1) against N, 95% intervals of
    the mean, within [0, 1]. False, and nothing written, without data."""
    return _mean_vs(summary, others, "N", field, ylabel, title, path, ylim=(0, 1.02))


def rate_note(meaning, kinds):
    """What a declared rate is (its meaning as the file declares it, analyze.rate_metrics), one
    line per model kind drawn, each led by a newline ("" without a meaning). A meaning that
    speaks per kind ("separate: Lemma 4.1 hit rate; joint: Assumption 4.4 rate (test set)")
    gives each of `kinds` its part, the kind named by its family's label; a part for a kind not
    drawn is left out, and a meaning that names no kind is the one line."""
    parts = [part.partition(": ") for part in meaning.split("; ")] if meaning else []
    by_kind = {kind: text for kind, colon, text in parts if colon and kind in kinds}
    if not by_kind and not any(colon and kind in labels.family_labels().get("model.kind", {})
                               for kind, colon, _ in parts):
        return "\n" + meaning if meaning else ""
    return "".join(f"\n{labels.value_label('model.kind', k)}: {by_kind[k]}"
                   for k in sorted(by_kind))


INTERVAL_NOTE = "Bars and bands: 95 % intervals of the mean."


def _errorbar(ax, xs, means, halves, rate, **kw):
    ax.errorbar(xs, means, yerr=rate_errors(means, halves) if rate else halves, **kw)


def _mean_vs(rows, others, x, field, ylabel, title, path, ylim=None, notes=()):
    """One line per series: `field` mean against `x` (log, ticked at the grid), 95% intervals of
    the mean; more than eight series: titled panels."""
    rows = [r for r in rows if r.get(field) is not None and r.get(x) not in (None, "")]
    if not rows:
        return False
    groups = F._by_series(rows, others)
    panels = L.panels_of(groups, others)
    fig, axes = L.grid(len(panels), sharey=True)
    xs = sorted({r[x] for r in rows})
    rate = ylim is not None or _is_rate(field)
    keys = L.panel_keys(groups, others)
    local = {name: L.without(name, keys) for name in groups}  # as the panel's legend says it
    for ax, (panel_title, names) in zip(axes, panels):
        for name in names:
            series = sorted(groups[name], key=lambda r: r[x])
            _errorbar(ax, [r[x] for r in series], [r[field] for r in series],
                      [_half_width(r, field) for r in series], rate,
                      label=L.shown(local[name]) or None,
                      **L.style(local[name], set(local.values())))
        F.grid_ticks(ax.xaxis, xs, log=True)
        ax.tick_params(axis="x", labelrotation=90)
        if ylim:
            ax.set_ylim(ylim[0], min(ylim[1], 1.02) if rate else ylim[1])
        ax.set_title(panel_title or (title if len(panels) == 1 else ""))
    L.label_outer(axes, labels.axis_label(x), ylabel)
    L.footer(fig, axes, [*notes, INTERVAL_NOTE])
    F._save(fig, path)
    return True


def metric_vs_axis(summary, axis, others, field, ylabel, title, path, ylim=None, max_panels=9):
    """`field` (test accuracy, a router rate) against `axis` at fixed N: one panel per N (up to
    `max_panels`, spread over the grid; a note names the N left out), one line per series, 95%
    intervals of the mean. A model that does not read the axis (the CNN in an l sweep) is a
    dotted line with a band: the same trials at every axis value. The paper's Figures 6 and 7
    form. More than eight series: one row of panels per group of series. False, and nothing
    written, without data."""
    rows = [dict(r) for r in summary if r.get(field) is not None]
    for r in rows:
        r.setdefault("N", math.nan)  # N not swept: one panel
    values = sorted({r[axis] for r in rows if r.get(axis) not in (None, "")})
    if not rows or not values:
        return False  # nothing measured, or no cell reads the axis (d of image data)
    all_ns = sorted({r["N"] for r in rows}, key=lambda v: (math.isnan(v), v))
    Ns = all_ns
    if len(all_ns) > max_panels:
        Ns = [all_ns[round(i * (len(all_ns) - 1) / (max_panels - 1))] for i in range(max_panels)]
    series_others = [o for o in others if o != "N"]
    all_series = F._by_series(rows, series_others)
    groups = L.panels_of(all_series, series_others)
    keys = L.panel_keys(all_series, series_others)
    local = {name: L.without(name, keys) for name in all_series}  # as the legend says it
    panels = [(N, group_title, names) for group_title, names in groups for N in Ns]
    fig, axes = L.grid(len(panels), sharey=True)
    rate = ylim is not None or _is_rate(field)
    for ax, (N, group_title, names) in zip(axes, panels):
        for name in names:
            group = [r for r in all_series[name] if r["N"] == N or (N != N and r["N"] != r["N"])]
            _draw_axis_series(ax, axis, field, local[name], group, rate,
                              L.style(local[name], set(local.values())))
        F.grid_ticks(ax.xaxis, values, log=F._geometric(values))
        if ylim or rate:
            ax.set_ylim(ylim[0] if ylim else 0, 1.02)
        ax.set_title(", ".join(t for t in (group_title, f"$N = {N:g}$" if N == N else "") if t))
    L.label_outer(axes, labels.axis_label(axis), ylabel)
    notes = [L.left_out_note("$N$", Ns, all_ns, f"at most {max_panels} panels; every N is in "
                             "the figure against N"), INTERVAL_NOTE]
    L.footer(fig, axes, notes)
    F._save(fig, path)
    return True


def _draw_axis_series(ax, axis, field, name, group, rate, st):
    """One series of metric_vs_axis in one panel: a line over the axis, or for cells that do not
    read the axis a dotted level with its interval as a band."""
    on_axis = sorted((r for r in group if r.get(axis) not in (None, "")), key=lambda r: r[axis])
    if on_axis:
        _errorbar(ax, [r[axis] for r in on_axis], [r[field] for r in on_axis],
                  [_half_width(r, field) for r in on_axis], rate,
                  label=L.shown(name) or None, **st)
    for r in (r for r in group if r.get(axis) in (None, "")):
        half = _half_width(r, field)
        ax.axhline(r[field], color=st["color"], linestyle=":",
                   label=(L.shown(name) + " " if L.shown(name) else "") +
                   f"(reads no ${labels.symbol(axis) or labels.words(axis)}$)")
        low, high = r[field] - half, r[field] + half
        if rate:
            low, high = max(low, 0.0), min(high, 1.0)
        ax.axhspan(low, high, color=st["color"], alpha=0.12, lw=0)


def per_class_vs_n(summary, others, metric, title, path, max_columns=None):
    """A metric declared per class (or per class pair), `metric` as analyze.per_class_metrics
    finds it, against N: one panel per series, one line per class (the same colour for a class
    in every panel), means with 95% intervals. Series without a value in any of its columns
    (two classes: binary files and c = 2 cells record none) get no panel. False if none has."""
    columns = metric["columns"][:L.MAX_SERIES]
    groups = {name: sorted(rows, key=lambda r: r["N"])
              for name, rows in F._by_series(summary, others).items()
              if any(r.get(c) is not None for r in rows for c in columns)}
    if not groups:
        return False
    fig, axes = L.grid(len(groups), sharex=True, sharey=True)
    which = "class pair" if metric["pair"] else "class"
    Ns = sorted({r["N"] for rows in groups.values() for r in rows})
    for ax, (name, rows) in zip(axes, groups.items()):
        for i, column in enumerate(columns):
            have = [r for r in rows if r.get(column) is not None]
            if have:
                # Each class nudged sideways a little, so equal values stay visible.
                nudge = math.exp(0.02 * (i - (len(columns) - 1) / 2))
                _errorbar(ax, [r["N"] * nudge for r in have], [r[column] for r in have],
                          [_half_width(r, column) for r in have], metric["rate"],
                          elinewidth=0.8, label=f"{which} {i}",
                          color=L.PALETTE[i % len(L.PALETTE)], marker=L.MARKERS[i])
        ax.set_title(L.shown(name))
        F.grid_ticks(ax.xaxis, Ns, log=True)
        ax.tick_params(axis="x", labelrotation=90)
        ax.xaxis.set_tick_params(labelbottom=True)
        if metric["rate"]:
            ax.set_ylim(0, 1.02)
    L.label_outer(axes, labels.axis_label("N"), L.wrap(metric["help"], L.panel_size()[1], 8))
    left = metric["columns"][L.MAX_SERIES:]
    plural = "class pairs" if metric["pair"] else "classes"
    notes = [f"Not shown: {plural} {L.MAX_SERIES} to {len(metric['columns']) - 1} (at most "
             f"{L.MAX_SERIES} lines per panel)." if left else "", INTERVAL_NOTE]
    L.footer(fig, axes, notes)
    F._save(fig, path)
    return True
