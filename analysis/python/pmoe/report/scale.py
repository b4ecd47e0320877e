"""The scale a verdict was reached at, in a line: trials per cell and the range of every swept
axis, read from the result file (never from the config's intent). Every verdict on a page states
it, so that a quick page's "undecided" is read as what 3 trials over n = 8..32 can say."""
import numpy as np


def _fmt(v):
    f = float(v)
    return f"{f:g}" if f != int(f) else str(int(f))


def axis_ranges(cells):
    """{parameter: "lo..hi" or "a, b" or the value} for every parameter with two or more values."""
    values = {}
    for c in cells:
        for k, v in c.items():
            values.setdefault(k, set()).add(v)
    out = {}
    for k, vs in values.items():
        if len(vs) < 2:
            continue
        try:
            nums = sorted(float(v) for v in vs)
        except ValueError:
            out[k] = ", ".join(sorted(vs))
            continue
        out[k] = (f"{_fmt(nums[0])}..{_fmt(nums[-1])} ({len(nums)} values)" if len(nums) > 3
                  else ", ".join(_fmt(v) for v in nums))
    return out


def trials_per_cell(ev):
    """(fewest, most) ok trials in a cell of the file."""
    ok = ev.status == 0
    counts = np.bincount(ev.cell_of[ok].astype(int), minlength=len(ev.cells))
    return int(counts.min()) if len(counts) else 0, int(counts.max()) if len(counts) else 0


def scale_of(ev):
    """"8 trials per cell; N = 12..1536 (8 values), data.n = 8, 16, 32" and, for a file a
    precision target grew, the target's trials."""
    lo, hi = trials_per_cell(ev)
    trials = f"{lo} trials per cell" if lo == hi else f"{lo}-{hi} trials per cell"
    attrs = getattr(ev, "attrs", {}) or {}
    if attrs.get("precision"):
        # A target decided at its first look added nothing: every cell kept the grid's count.
        trials += (" (grown by a precision target)" if lo != hi
                   else " (a precision target's first look decided)")
    ranges = axis_ranges(ev.cells)
    axes = ", ".join(f"{k} = {v}" for k, v in sorted(ranges.items(), key=lambda kv: kv[0] != "N"))
    return trials + (f"; {axes}" if axes else "")
