"""The targets a sweep config declares for the claims it tests: its [claims] section
(sweeps/precision/claim_targets.cpp reads and checks it when the sweep runs; `[precision]
claim = ID` runs one until decided). A claim page decides on the same declaration: which model
against which baseline, over which axis, on which reading, against which threshold, on which
side. One declaration serves the quick page, the reference page and the precision run.

The declaration comes from the config text the result file recorded. A file written before
configs declared their claims falls back to the config it was run from (its config_path,
relative to the working folder or to this source tree), which the page names."""
import os
from dataclasses import dataclass, field

# This source tree's root (analysis/python/pmoe/report/ is four folders below it).
SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *[os.pardir] * 4))


@dataclass
class Declared:
    id: str                   # "b", "a.separate"
    target: str               # exponent, ratio_exponent, share, accuracy_slope, rate, ...
    model: str = ""           # the model kind the statistic is about ("" when the grid has one)
    baseline: str = ""        # the model a ratio, share or difference compares against
    metric: str = ""          # rate: the per-trial metric
    over: str = ""            # the axis, dotted ("model.l", "data.n/model.l")
    reading: str = "success"  # success or mean_accuracy
    success_threshold: float = 0.5
    threshold: float = 0.0
    side: str = "above"
    where: dict = field(default_factory=dict)
    each: str = ""            # "N": read at each N
    source: str = ""          # where the page read it: "the file" or the config's path

    @property
    def claim(self):
        return self.id.split(".")[0]

    @property
    def reading_name(self):
        """The reading as pmoe-analyze's tables name it: "success@0.9", "success", ..."""
        if self.reading == "success" and abs(self.success_threshold - 0.5) > 1e-12:
            return f"success@{self.success_threshold:g}"
        return self.reading

    def text(self):
        words = [f"target={self.target}"]
        for key in ("model", "baseline", "metric", "over"):
            if getattr(self, key) and (key != "baseline" or self.target in PAIRED):
                words.append(f"{key}={getattr(self, key)}")
        if self.target in ("exponent", "ratio_exponent", "share"):
            words.append(f"reading={self.reading_name}")
        if self.where:
            words.append("where=" + ",".join(f"{k}={v}" for k, v in self.where.items()))
        words += [f"threshold={self.threshold:g}", f"side={self.side}"]
        if self.each:
            words.append(f"each={self.each}")
        return " ".join(words)


PAIRED = ("ratio_exponent", "share", "accuracy_difference")


def _claims_lines(text):
    """The key = value lines of a config text's [claims] section (comments dropped)."""
    out, inside = [], False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == "claims"
        elif inside and "=" in line:
            key, value = line.split("=", 1)
            out.append((key.strip(), value.strip()))
    return out


def section(text):
    """A config text's [claims] section alone, "[claims]\nID = WORDS\n..." (comments dropped),
    or "" when it has none: to carry declarations into another config."""
    lines = _claims_lines(text)
    return "[claims]\n" + "".join(f"{k} = {v}\n" for k, v in lines) if lines else ""


def shipped(*configs):
    """The [claims] sections of configs under sweeps/configs/ (relative paths), as one text."""
    text = ""
    for config in configs:
        with open(os.path.join(SOURCE_ROOT, "sweeps", "configs", config), encoding="utf-8") as f:
            text += section(f.read())
    return text


def parse(text, source=""):
    """Every declaration of a config text, in file order."""
    out = []
    for cid, value in _claims_lines(text):
        d = Declared(cid, "", source=source)
        for word in value.split():
            key, _, v = word.partition("=")
            if key == "delta":
                d.success_threshold = 1 - float(v)
            elif key in ("success_threshold", "threshold"):
                setattr(d, key, float(v))
            elif key == "where":
                d.where = dict(part.split("=", 1) for part in v.split(","))
            elif key in Declared.__dataclass_fields__:
                setattr(d, key, v)
        out.append(d)
    return out


def _config_file(path):
    for base in ("", SOURCE_ROOT):
        full = os.path.join(base, path) if base else path
        if path and os.path.isfile(full):
            return full
    return None


def of_file(ev):
    """The file's declarations: from its recorded config, else from the config it ran from."""
    declared = parse(str(ev.config_text or ""), "the file's config")
    if declared:
        return declared
    path = _config_file(ev.config_path)
    if path is None:
        return []
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), ev.config_path)


def for_claim(ev, claim):
    """The declarations of one claim ("b": b and b.anything), in file order."""
    return [d for d in of_file(ev) if d.claim == claim]


def one(ev, claim, target=None):
    """The claim's declaration (of that target kind when given), or None."""
    return next((d for d in for_claim(ev, claim) if target is None or d.target == target), None)


def undeclared_reason(claim):
    return (f"its config declares no target for claim ({claim}): add [claims] {claim} = "
            "target=... (docs/guide/precision-targets.md, \"Claims declared\")")
