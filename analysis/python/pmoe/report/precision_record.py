"""A result file's precision target, as the claim pages read it: the target a `[precision]`
section declared (the root attribute `precision`) and its looks (`precision_looks`). When a claim
asks for the statistic a target decided, the page decides on the target's last interval (valid
under the target's own optional stopping, which a fixed-sample interval over the same rows is
not) by the one decision rule, so the page and the precision run cannot disagree."""
import math
from dataclasses import dataclass


@dataclass
class DecidedTarget:
    statistic: str        # "exponent" or "ratio_exponent"
    over: str             # e.g. "model.l", "data.n/model.l"
    reading: str          # "mean_accuracy" or "success"
    threshold: float
    where: str            # "data.n=64" or ""
    estimate: float
    lo: float
    hi: float
    look: int             # 1-based index of the last look
    trials: int           # rows the last look read
    alpha: float          # spent at the last look
    verdict: str          # the target's own: above, below, within, undecided, running

    def text(self):
        return (f"{self.estimate:.3g} [{self.lo:.3g}, {self.hi:.3g}] (precision target, look "
                f"{self.look}, {self.trials} trials, level {1 - self.alpha:.3g}; its verdict: "
                f"{self.verdict})")


def _settings(text):
    out = {}
    for part in text.split(";"):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def decided_target(attrs):
    """The file's precision target with its last look, or None (no target, several groups, a
    damaged record: the page then reads its own interval)."""
    settings = _settings(str(attrs.get("precision", "") or ""))
    lines = [line.split("\t") for line in str(attrs.get("precision_looks", "") or "").splitlines()
             if line.strip()]
    if not settings or not lines or len({fields[0].strip() for fields in lines}) != 1:
        return None
    last = lines[-1]
    try:
        look, trials, alpha, estimate, lo, hi = (int(last[1]), int(last[2]), float(last[3]),
                                                 float(last[4]), float(last[5]), float(last[6]))
        threshold = float(settings["threshold"])
        verdict = last[7].strip()
    except (IndexError, KeyError, ValueError):
        return None
    if not all(math.isfinite(v) for v in (alpha, threshold)):
        return None
    return DecidedTarget(settings.get("target", ""), settings.get("over", ""),
                         settings.get("reading", ""), threshold, settings.get("where", ""),
                         estimate, lo, hi, look, trials, alpha, verdict)


def matching(attrs, statistic, over, reading, threshold, where=None, success_threshold=None):
    """The decided target when it is the statistic a claim asks for (same statistic, axis,
    reading (for "success", the same success probability: 0.5 unless given), threshold, and
    slice unless `where` is None), else None."""
    if reading == "success" and success_threshold is None:
        success_threshold = 0.5
    if reading == "success" and \
            abs(float(_settings(str(attrs.get("precision", "") or "")).get(
                "success_threshold", 0.5)) - success_threshold) > 1e-12:
        return None
    t = decided_target(attrs)
    if t is None or t.verdict == "running":
        return None
    if (t.statistic, t.over, t.reading) != (statistic, over, reading):
        return None
    if where is not None and t.where != where:
        return None
    return t if abs(t.threshold - threshold) < 1e-12 else None
