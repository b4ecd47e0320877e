"""Where the texts, legends and panels of a matplotlib SVG are, read from the file itself (what a
journal receives), for the figure tests: each text's box measured with matplotlib's own font
metrics (svg.fonttype none keeps text as <text> with its font and anchor), every transform of
its ancestors applied.

    read(path) -> Layout(width, height, texts=[Text(id, string, box)], legends=[box],
                         panels=[box])
A box is (x0, y0, x1, y1) in the SVG's points, y down."""
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

SVG = "{http://www.w3.org/2000/svg}"
_MEASURE = TextToPath()


@dataclass
class Text:
    id: str
    string: str
    box: tuple


@dataclass
class Layout:
    width: float
    height: float
    texts: list = field(default_factory=list)
    legends: list = field(default_factory=list)
    panels: list = field(default_factory=list)


def _matrix(transform):
    """The affine matrix (3x3) of an SVG transform list (translate, rotate, scale, matrix)."""
    m = np.eye(3)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", transform or ""):
        v = [float(a) for a in re.split(r"[\s,]+", args.strip()) if a]
        if name == "translate":
            t = np.array([[1, 0, v[0]], [0, 1, v[1] if len(v) > 1 else 0], [0, 0, 1]])
        elif name == "scale":
            t = np.diag([v[0], v[1] if len(v) > 1 else v[0], 1])
        elif name == "rotate":
            a = np.radians(v[0])
            c, s = np.cos(a), np.sin(a)
            r = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
            if len(v) == 3:
                r = (np.array([[1, 0, v[1]], [0, 1, v[2]], [0, 0, 1]]) @ r @
                     np.array([[1, 0, -v[1]], [0, 1, -v[2]], [0, 0, 1]]))
            t = r
        elif name == "matrix":
            t = np.array([[v[0], v[2], v[4]], [v[1], v[3], v[5]], [0, 0, 1]])
        else:
            continue
        m = m @ t
    return m


def _font(style):
    """(size in points, FontProperties) of an SVG text style "font: oblique 8px 'DejaVu Sans'"."""
    size = float(re.search(r"([\d.]+)px", style).group(1))
    italic = "italic" in style or "oblique" in style
    family = re.search(r"px\s+'([^']+)'", style)
    fp = FontProperties(family=family.group(1) if family else "DejaVu Sans",
                        style="italic" if italic else "normal", size=size)
    return size, fp


def _run_box(string, style, x, y):
    """The box of one run of text starting at x (its anchor applied) on baseline y."""
    size, fp = _font(style)
    w, h, d = _MEASURE.get_text_width_height_descent(string, fp, ismath=False)
    anchor = re.search(r"text-anchor:\s*(\w+)", style)
    shift = {"middle": 0.5, "end": 1.0}.get(anchor.group(1) if anchor else "start", 0.0)
    x0 = x - shift * w
    return [(x0, y - (h - d)), (x0 + w, y + d)]


def _corners(points, m):
    xs, ys = [], []
    for (a, b), (c, d) in zip(points[::2], points[1::2]):
        for px, py in ((a, b), (c, b), (a, d), (c, d)):
            q = m @ np.array([px, py, 1.0])
            xs.append(q[0])
            ys.append(q[1])
    return xs, ys


def _text_points(el, inherited_style):
    """Corner pairs of a <text> element's runs, in its own coordinates."""
    style = el.get("style") or inherited_style
    points = []
    if (el.text or "").strip() and style:
        points += _run_box(el.text, style, float(el.get("x", 0)), float(el.get("y", 0)))
    for span in el.iter(SVG + "tspan"):
        if not (span.text or "").strip():
            continue
        xs = [float(v) for v in span.get("x", "0").split()]
        points += _run_box(span.text, span.get("style") or style, xs[0],
                           float(span.get("y", 0)))
    return points


def _path_points(el, m):
    nums = [float(v) for v in re.findall(r"-?[\d.]+(?:e-?\d+)?", el.get("d", ""))]
    pts = [m @ np.array([x, y, 1.0]) for x, y in zip(nums[::2], nums[1::2])]
    return [p[0] for p in pts], [p[1] for p in pts]


def read(path):
    root = ET.parse(path).getroot()
    layout = Layout(float(root.get("width").rstrip("pt")), float(root.get("height").rstrip("pt")))

    def walk(el, m, owner, legend):
        if el.tag == SVG + "defs":
            return  # marker shapes in their own coordinates, placed by <use>
        m = m @ _matrix(el.get("transform"))
        eid = el.get("id", "")
        if re.fullmatch(r"text_\d+", eid):
            owner = {"id": eid, "xs": [], "ys": [], "strings": []}
            layout.texts.append(owner)
        if re.fullmatch(r"legend_\d+", eid):
            legend = {"xs": [], "ys": []}
            layout.legends.append(legend)
        if re.fullmatch(r"axes_\d+", eid):
            patch = next((c for c in el if re.fullmatch(r"patch_\d+", c.get("id", ""))), None)
            shape = patch.find(SVG + "path") if patch is not None else None
            if shape is not None:
                xs, ys = _path_points(shape, m @ _matrix(patch.get("transform")))
                layout.panels.append((min(xs), min(ys), max(xs), max(ys)))
        if el.tag == SVG + "text":
            xs, ys = _corners(_text_points(el, ""), m)
            if owner is not None:
                owner["xs"] += xs
                owner["ys"] += ys
                owner["strings"].append("".join(el.itertext()))
            if legend is not None:
                legend["xs"] += xs
                legend["ys"] += ys
            return
        if legend is not None and el.tag == SVG + "path":
            xs, ys = _path_points(el, m)
            legend["xs"] += xs
            legend["ys"] += ys
        for child in el:
            walk(child, m, owner, legend)

    walk(root, np.eye(3), None, None)
    layout.texts = [Text(t["id"], " ".join(t["strings"]).strip(),
                         (min(t["xs"]), min(t["ys"]), max(t["xs"]), max(t["ys"])))
                    for t in layout.texts if t["xs"]]
    layout.legends = [(min(g["xs"]), min(g["ys"]), max(g["xs"]), max(g["ys"]))
                      for g in layout.legends if g["xs"]]
    return layout


def overlap(a, b, slack=0.3):
    """Whether two boxes overlap by more than `slack` points each way."""
    return (a[0] + slack < b[2] and b[0] + slack < a[2] and
            a[1] + slack < b[3] and b[1] + slack < a[3])
