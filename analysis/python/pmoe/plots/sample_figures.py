"""The sample-complexity figures: N* (or N_acc) against an axis on log-log axes with the fitted
exponent and the theory's order as a slope triangle, and both readings per series (a model, say)
with the CNN/pMoE ratios. figures.py re-exports them (figures.nstar_loglog, ...)."""
import matplotlib.pyplot as plt
import numpy as np

from pmoe.plots import figures, labels
from pmoe.plots import layout as L
from pmoe.plots.analyze import READINGS
from pmoe.plots.figures import (FLAG_STYLE, _finite, _fmt, _lower_end, _plain_log_ticks,
                                _save, _upper_end, grid_ticks, label, panel, short, styles)
from pmoe.plots.layout import natural, panels_of, shown, split_series


def _is_ratio(series):
    head = series.split(" (")[0]
    return "/" in head and "=" not in head


def ratio_label(series):
    """pmoe-analyze's ratio series ("cnn/separate (model.l=2)") as a reader says it."""
    head, _, rest = series.partition(" (")
    models = " / ".join(labels.value_label("model.kind", k) for k in head.split("/"))
    parts = split_series(rest.rstrip(")"))
    return models + (f" ({labels.setting_label(parts)})" if parts else "")


def _power(axis, exponent):
    return f"${short(axis)}^{{{exponent}}}$"


def _draw_series(ax, name, e, pts, cols, axis, st, flag_label):
    """One series of nstar_loglog: estimates with intervals, bounds as open triangles at the
    grid's edge, flagged estimates ringed, the fitted line labelled with its exponent."""
    inside = [p for p in pts if p[cols["grid"]] == "inside"]
    x = [p[axis] for p in inside]
    err = [[p[cols["estimate"]] - _lower_end(p[cols["lo"]], p["N_min"]) for p in inside],
           [_upper_end(p[cols["hi"]], p["N_max"]) - p[cols["estimate"]] for p in inside]]
    colour = st["color"]
    ax.errorbar(x, [p[cols["estimate"]] for p in inside], yerr=err, fmt=st["marker"],
                color=colour)
    for where, marker, edge in (("above", "^", "N_max"), ("below", "v", "N_min")):
        out = [p for p in pts if p[cols["grid"]] == where]
        ax.plot([p[axis] for p in out], [p[edge] for p in out], marker, mfc="none",
                color=colour, ms=6)
    flagged = [p for p in inside if p[cols["flag"]]]
    if flagged:
        ax.plot([p[axis] for p in flagged], [p[cols["estimate"]] for p in flagged],
                **FLAG_STYLE, label=flag_label)
    prefix = f"{shown(name)}: " if shown(name) else ""
    if _finite(e["exponent"]) and x:
        xs = np.geomspace(min(x), max(x), 50)
        ax.plot(xs, np.exp(e["intercept"]) * xs ** e["exponent"], color=colour,
                marker=st["marker"], markevery=[0],
                label=f"{prefix}fit {_power(axis, _fmt(e['exponent']))} "
                      f"[{_fmt(e['lo'])}, {_fmt(e['hi'])}]")
    else:
        ax.plot([], [], color=colour, marker=st["marker"],
                label=f"{prefix}too few estimates in the grid")
    return bool(flagged)


def nstar_loglog(exponent_tables, axis, title, path, fit_note="", reading="success",
                 n_grid=None):
    """log-log sample complexity (one reading) against the axis: estimates with intervals, the
    fitted line with its exponent and interval, and the theory's order as a slope triangle in
    the corner (only its slope is comparable); bounds as open triangles at the N grid's edge;
    flagged estimates ringed. More than eight series: titled panels. n_grid: the N values of
    the grid, for the y ticks. False, and nothing written, without a single estimate."""
    cols = READINGS[reading]
    nstar = exponent_tables["nstar"]
    exponents = [e for e in exponent_tables["exponents"]
                 if e.get("reading", "success") == reading and not _is_ratio(e["series"])]
    if not exponents or not any(p[cols["grid"]] in ("inside", "above", "below") for p in nstar):
        return False
    by_name = {e["series"]: e for e in exponents}
    params = list(dict.fromkeys(k for n in by_name for k in split_series(n)))
    panels = panels_of(by_name, params)
    keys = L.panel_keys(by_name, params)
    local = {name: L.without(name, keys) for name in by_name}  # as the panel's legend says it
    fig, axes = L.grid(len(panels), sharey=True)
    edges = [v for p in nstar for v in (p["N_min"], p["N_max"])]
    xs_all = sorted({p[axis] for p in nstar if p.get(axis) not in (None, "")})
    flag_drawn = False
    for ax, (panel_title, names) in zip(axes, panels):
        for name in names:
            pts = [p for p in nstar if p["series"] == name]
            flag_drawn |= _draw_series(ax, local[name], by_name[name], pts, cols, axis,
                                       L.style(local[name], set(local.values())),
                                       None if flag_drawn else
                                       "trials near it mostly unconverged")
        ax.set_xscale("log")
        ax.set_yscale("log")
        grid_ticks(ax.xaxis, xs_all, log=True)
        if edges:
            ax.set_ylim(min(edges) / 1.5, max(edges) * 1.5)
        if n_grid:
            grid_ticks(ax.yaxis, [v for v in n_grid if min(edges) <= v <= max(edges)], log=True)
        else:
            _plain_log_ticks(ax.yaxis)
        ax.set_title(panel_title or (title if len(panels) == 1 else ""))
        _theory_triangles(ax, [by_name[n] for n in names], axis)
    L.label_outer(axes, label(axis), SYMBOL[cols["name"]])
    axes[0].plot([], [], "^", mfc="none", color="grey", label="outside the N grid (a bound)")
    L.footer(fig, axes, _loglog_notes(exponent_tables, axis, reading, fit_note))
    _save(fig, path)
    return True


def _theory_triangles(ax, exponents, axis):
    """One slope triangle per distinct positive theory order among the panel's series, stacked
    up the lower right corner; labelled with the models it is the order of."""
    orders = {}
    for e in exponents:
        if _finite(e.get("theory")) and e["theory"] > 0:
            orders.setdefault(e["theory"], []).append(e["series"])
    for i, order in enumerate(sorted(orders)):
        L.slope_triangle(ax, order, short(axis), slot=i)


SYMBOL = figures._SYMBOL  # the readings' names as a figure sets them


def _loglog_notes(exponent_tables, axis, reading, fit_note):
    """What the figure's marks mean: the reading, the theory's order (naming the models when
    they differ), the fit's range, and the CNN/pMoE ratios' exponents on one line."""
    cols = READINGS[reading]
    mine = [e for e in exponent_tables["exponents"] if e.get("reading", "success") == reading]
    orders = {}
    for e in mine:
        if not _is_ratio(e["series"]) and _finite(e.get("theory")) and e["theory"] > 0:
            kind = split_series(e["series"]).get("model.kind", "")
            orders.setdefault(e["theory"], set()).add(labels.value_label("model.kind", kind)
                                                      if kind else "")
    notes = [f"{SYMBOL[cols['name']]}: the N where the {cols['means']} is reached."]
    if orders:
        notes.append("Triangle: the theory's order, slope only: " + "; ".join(
            _power(axis, f"{o:g}") + (f" ({', '.join(sorted(k for k in who if k))})"
                                      if len(orders) > 1 or any(who) else "")
            for o, who in sorted(orders.items())) + ".")
    if fit_note:
        notes.append(fit_note)
    ratios = [e for e in mine if _is_ratio(e["series"]) and _finite(e["exponent"])]
    if ratios:
        head = ratio_label(ratios[0]["series"].split(" (")[0])
        notes.append(f"{SYMBOL[cols['name']]} ratio {head} grows as {_power(axis, 'e')}: " +
                     "; ".join(f"{_ratio_setting(e['series'])}e = {_fmt(e['exponent'])} "
                               f"[{_fmt(e['lo'])}, {_fmt(e['hi'])}]" for e in ratios) + ".")
    return notes


def _ratio_setting(series):
    parts = split_series(series.partition(" (")[2].rstrip(")"))
    return f"{labels.setting_label(parts)}: " if parts else ""


def nstar_by_series(tables, title, path):
    """Both readings of each series' sample complexity (e.g. each model) with their intervals,
    bounds as triangles at the grid's edge, and the CNN/pMoE ratios in the title."""
    rows = sorted(tables["nstar"], key=lambda p: natural(p["series"]))
    if not rows:
        return False
    w = min(L.SIZES[L.SIZE][0], panel()[0] * 1.6)
    fig, ax = plt.subplots(figsize=(w, 0.3 * len(rows) + 1.2), layout="constrained")
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
    ax.set_yticks(ys, [L.wrap(shown(p["series"]) or "all", 1.2) for p in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xscale("log")
    _plain_log_ticks(ax.xaxis)
    ax.set_xlabel(label("N"))
    ratios = [f"{READINGS.get(r['reading'], {'name': r['reading']})['name']} ratio "
              f"{ratio_label(r['ratio'])}: " + (
        f"{r['N_star_ratio']:.2f} [{_fmt(r['lo'])}, {_fmt(r['hi'])}]" if not r["bound"]
        else r["bound"]) for r in tables.get("ratios", [])]
    L.footer(fig, [ax], ["Bars: 95 % paired bootstrap intervals.", *ratios])
    ax.set_title(title)
    _save(fig, path)
    return True
