"""How every pmoe figure is laid out, by the rules a journal asks of a figure: the figure's size
(one or two journal columns), one colour and marker per setting across a whole page, panels
titled by what they hold, a legend below the panel grid and never wider than it, notes saying
what a figure leaves out, and the theory's order as a slope triangle inside the axes (a line
through the data would stretch the axis range for a slope of 8 or 12).

The drawers in figures.py use these; nothing here reads a result file."""
import contextlib
import math
import re
import textwrap

import matplotlib.pyplot as plt

from pmoe.plots import labels

# Colour-blind-safe: Okabe & Ito's eight, then two of Tol's muted set, so a page's settings of
# one kind (a CNN and eight values of l, say) get ten distinct colours before any repeats.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#882255",
           "#000000", "#999933", "#F0E442"]
MARKERS = "osD^vP*Xph"
MAX_SERIES = len(PALETTE)  # series per panel, one colour each; more: titled panels

# Journal column widths (inches) and the most panels a row of each holds.
SIZES = {"single": (3.5, 2), "double": (7.2, 3)}
SIZE = "double"


@contextlib.contextmanager
def size(name):
    """Figures drawn within the block are sized for one journal column ("single") or two."""
    global SIZE
    saved, SIZE = SIZE, name
    try:
        yield
    finally:
        SIZE = saved


def max_columns():
    return SIZES[SIZE][1]


def panel_size():
    """(width, height) of one panel: a row of max_columns() panels fills the column width."""
    width, cols = SIZES[SIZE]
    w = width / cols
    return w, min(0.82 * w, 1.9)


# --- settings and their styles ----------------------------------------------------------------

def split_series(name):
    """{parameter: value} of a series name as pmoe-analyze spells it ("data.n=8, model.l=4")."""
    return dict(part.split("=", 1) for part in name.split(", ") if "=" in part)


def natural(text):
    """Sort key putting numbers in numeric order: n=8 < n=16 < n=32 (string order has 16 first)."""
    return [(0, float(p), "") if re.fullmatch(r"-?\d+(\.\d+)?(e-?\d+)?", p) else (1, 0.0, p)
            for p in re.split(r"(-?\d+(?:\.\d+)?(?:e-?\d+)?)", str(text)) if p != ""]


def shown(name):
    """A series name as a reader reads it: "CNN, $n = 8$"; nothing for the single series "all"."""
    if name in ("all", ""):
        return ""
    parts = split_series(name)
    return labels.setting_label(parts) if parts else name


# The settings of the page being drawn: {parameter set: [series names in order]}. Set by
# page_settings() in the process that forks the drawers, so every worker sees the same.
_PAGE = {}


@contextlib.contextmanager
def page_settings(series_of):
    """Within the block every figure styles a series by its place among the page's settings of
    the same parameters: series_of(keys) -> every series name over those parameters."""
    _PAGE["series_of"] = series_of
    _PAGE["cache"] = {}
    try:
        yield
    finally:
        _PAGE.clear()


def style(name, local_names):
    """colour, marker and line of a series: its index among the page's settings over the
    parameters the figure's series name (the same setting, the same style in every panel and
    figure of the page: the CNN of an l sweep beside eight values of l gets a colour of its own),
    or among local_names (the figure's series) outside a page."""
    keys = tuple(dict.fromkeys(k for n in local_names for k in split_series(n)))
    names = None
    if _PAGE and keys:
        names = _PAGE["cache"].get(keys)
        if names is None:
            names = _PAGE["cache"][keys] = sorted(_PAGE["series_of"](list(keys)), key=natural)
    if not names or name not in names:
        names = sorted(local_names, key=natural)
    i = names.index(name) if name in names else 0
    return dict(color=PALETTE[i % len(PALETTE)], marker=MARKERS[i % len(MARKERS)], linestyle="-")


def panels_of(series_names, others):
    """Series split into panels of at most MAX_SERIES, each titled by what it holds: grouped by
    the first parameter of `others` whose groups all fit (the model, say), else by two, else in
    runs titled by their first and last series. [(title, [series])]; one untitled panel when
    all fit."""
    names = sorted(series_names, key=natural)
    keys, groups = _split(names, others)
    if keys:
        return [(_group_title(keys, values), g) for values, g in groups]
    if len(names) <= MAX_SERIES:
        return [("", names)]
    return [(f"{shown(names[i])} to {shown(names[min(i + MAX_SERIES, len(names)) - 1])}",
             names[i:i + MAX_SERIES]) for i in range(0, len(names), MAX_SERIES)]


def panel_keys(series_names, others):
    """The parameters panels_of splits the series by (their values title the panels); [] when
    it does not split by parameters."""
    return _split(sorted(series_names, key=natural), others)[0]


def _split(names, others):
    """(keys, [(values, series)]) of the first split by one parameter, else two, whose groups
    all fit; ([], []) when all fit in one panel or no split does."""
    if len(names) <= MAX_SERIES:
        return [], []
    for depth in (1, 2):
        for i, p in enumerate(others):
            keys = [p] + (others[i + 1:i + 2] if depth == 2 else [])
            if len(keys) < depth:
                continue
            groups = {}
            for n in names:
                parts = split_series(n)
                groups.setdefault(tuple(parts.get(k, "") for k in keys), []).append(n)
            if len(groups) > 1 and all(len(g) <= MAX_SERIES for g in groups.values()):
                return keys, sorted(groups.items(), key=lambda kv: natural(" ".join(kv[0])))
    return [], []


def without(name, keys):
    """A series name without the parameters its panel's title already says ("data.n=8,
    model.l=2" in the panel "$n = 8$" is "model.l=2"): its label and style within the panel."""
    parts = split_series(name)
    rest = [f"{k}={v}" for k, v in parts.items() if k not in keys]
    return ", ".join(rest) if parts else name


def _group_title(keys, values):
    parts = [labels.value_label(k, v) if v else f"no {labels.words(k)}"
             for k, v in zip(keys, values)]
    return ", ".join(parts)


# --- the panel grid, its legend and notes -----------------------------------------------------

def grid(count, sharex=False, sharey=False, extra_width=0.0):
    """count panels wrapped into rows of at most max_columns(); unused slots hidden. Laid out by
    matplotlib's constrained layout, so no tick or axis label is clipped. One panel is a
    single journal column wide, whatever the size. extra_width (a colour bar's) is taken from
    the panels, never added: the figure stays a column's width."""
    count = max(count, 1)
    cols = min(max_columns(), count)
    rows = math.ceil(count / cols)
    w, h = panel_size()
    width = SIZES["single"][0] - 0.1 if count == 1 else w * cols
    fig, axes = plt.subplots(rows, cols, figsize=(max(width, w + extra_width), h * rows),
                             squeeze=False, sharex=sharex, sharey=sharey, layout="constrained")
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:count])


def wrap(text, width_inches, font_points=7.0):
    """text wrapped to lines that fit width_inches at font_points (a conservative mean glyph
    width of 0.6 em), each paragraph on its own; math ($...$) is never broken."""
    chars = max(12, int(width_inches * 72 / (0.6 * font_points)))
    # Spaces inside math become no-break spaces, which textwrap does not break at.
    parts = re.split(r"(\$[^$]*\$)", text)
    text = "".join(p.replace(" ", "\u00a0") if p.startswith("$") else p for p in parts)
    lines = [textwrap.fill(line, chars) for line in text.split("\n") if line]
    return "\n".join(lines).replace("\u00a0", " ")


def wrap_measured(text, width_px, renderer, points=7.0):
    """text wrapped to width_px as the renderer measures it (math set as math): each line as
    long as fits, math ($...$) never broken."""
    from matplotlib.font_manager import FontProperties
    font = FontProperties(size=points)

    def width(line):
        return renderer.get_text_width_height_descent(line, font, ismath="$" in line)[0]

    out = []
    for paragraph in text.split("\n"):
        parts = re.split(r"(\$[^$]*\$)", paragraph)
        words = "".join(p.replace(" ", "\u00a0") if p.startswith("$") else p
                        for p in parts).split(" ")
        line = ""
        for word in (w.replace("\u00a0", " ") for w in words):
            candidate = f"{line} {word}" if line else word
            if line and width(candidate) > width_px:
                out.append(line)
                line = word
            else:
                line = candidate
        out.append(line)
    return "\n".join(out)


def _grid_extent(fig, axes, renderer):
    boxes = [ax.get_window_extent(renderer) for ax in axes if ax.get_visible()]
    return min(b.x0 for b in boxes), max(b.x1 for b in boxes), min(
        ax.get_tightbbox(renderer).y0 for ax in axes if ax.get_visible())


def footer(fig, axes, notes=(), **kw):
    """One legend for all panels (each label once; the markers' explanations after the series)
    below the panel grid, with the figure's notes (what a mark means, which values are left out
    and why) as its title: as many columns as fit the grid's width, never wider than the grid
    (labels wrapped when even one column is too wide)."""
    seen = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab and not lab.startswith("_"):
                seen.setdefault(lab, h)
    notes = [n for n in notes if n]
    if not seen and not notes:
        return None
    fig.canvas.draw()  # runs the layout: the panels' labels are where they will be saved
    renderer = fig.canvas.get_renderer()
    x0, x1, bottom = _grid_extent(fig, axes, renderer)
    # Legend text is 7 pt: widths measured at the figure's dpi, a margin for the legend's pads.
    title = wrap_measured("\n".join(notes), x1 - x0 - 0.2 * fig.dpi, renderer) if notes else None
    y = fig.transFigure.inverted().transform((0, bottom))[1]
    centre = fig.transFigure.inverted().transform(((x0 + x1) / 2, 0))[0]
    order = sorted(seen, key=lambda lab: lab in EXPLANATIONS)
    attempts = [(n, order) for n in range(min(4, max(len(seen), 1)), 0, -1)]
    attempts.append((1, [wrap_measured(lab, x1 - x0 - 0.6 * fig.dpi, renderer)
                         for lab in order]))
    for ncol, texts in attempts:
        legend = fig.legend([seen[lab] for lab in order], texts, loc="upper center", ncol=ncol,
                            bbox_to_anchor=(centre, y - 0.01), title=title, **kw)
        if legend.get_title():
            legend.get_title().set_multialignment("left")
        if legend.get_window_extent(renderer).width <= (x1 - x0) + 0.5:
            return legend
        if ncol == 1 and texts is not order:
            return legend  # wrapped to the grid's width: the narrowest it can be
        legend.remove()
    return None


# Legend entries explaining a mark rather than naming a series: listed after the series.
EXPLANATIONS = {"trials near it mostly unconverged", "outside the N grid (a bound)",
                "trials near $N^*$ mostly unconverged", "$N^*$ > largest N (a bound)",
                "$N^*$ < smallest N (a bound)", "95 % bootstrap interval",
                "$N^*$ (success probability 0.5)"}


def label_outer(axes, xlabel, ylabel):
    """Axis labels on the outer panels only: y on the first column, x on each column's lowest
    panel (a grid of panels repeats neither)."""
    cols = min(max_columns(), len(axes))
    for i, ax in enumerate(axes):
        if i % cols == 0:
            ax.set_ylabel(ylabel)
        if i + cols >= len(axes):
            ax.set_xlabel(xlabel)


def left_out_note(what, shown_values, all_values, why):
    """The note a figure carries when it draws some of an axis's values only."""
    missing = [v for v in all_values if v not in shown_values]
    if not missing:
        return ""
    text = ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in missing)
    return f"Not shown: {what} = {text} ({why})."


def slope_triangle(ax, exponent, symbol, slot=0, max_height=0.3):
    """The theory's order as a small right triangle inside a log-log axes, its hypotenuse of
    slope `exponent`, labelled with the power: only the slope is comparable (the theorem's
    constant is unknown). Put in the lower right or upper left corner, whichever covers fewer
    data points (slot > 0: further up or down for a second order); drawn in axes coordinates
    once the limits are final, so it never moves them."""
    (xa, xb), (ya, yb) = ax.get_xlim(), ax.get_ylim()
    decades_x, decades_y = math.log10(xb / xa), math.log10(yb / ya)
    if not (decades_x > 0 and decades_y > 0 and exponent > 0):
        return
    width = 0.22  # of the axes' width; narrower when the slope would climb above max_height
    height = exponent * width * decades_x / decades_y
    if height > max_height:
        width, height = width * max_height / height, max_height
    points = _points_in_axes(ax)
    corners = [(0.96 - width, 0.05 + 0.33 * slot), (0.06, 0.95 - height - 0.33 * slot)]
    x0, y0 = min(corners, key=lambda c: sum(c[0] - 0.05 <= px <= c[0] + width + 0.05 and
                                            c[1] - 0.05 <= py <= c[1] + height + 0.05
                                            for px, py in points))
    x1, y1 = x0 + width, y0 + height
    ax.plot([x0, x1, x1, x0], [y0, y0, y1, y0], transform=ax.transAxes, color="0.35", lw=0.8,
            clip_on=False, label="_theory")
    ax.text(x0 + width / 2 - 0.01, y0 + height / 2 + 0.02, f"${symbol}^{{{exponent:g}}}$",
            transform=ax.transAxes, ha="right", va="bottom", fontsize=7, color="0.25")


def _points_in_axes(ax):
    """The data points of an axes' lines in axes coordinates (0..1 inside)."""
    to_axes = ax.transData + ax.transAxes.inverted()
    out = []
    for line in ax.get_lines():
        xy = line.get_xydata()
        if len(xy) and line.get_transform().contains_branch(ax.transData):
            out.extend(to_axes.transform(xy).tolist())
    return out
