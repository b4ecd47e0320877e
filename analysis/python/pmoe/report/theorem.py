"""What the theorems of Chowdhury et al. assume and how they are read, for the claim rules of
(b) and (f) (pmoe.report.claims): the reading they state (N at success probability 1 - delta,
"with high probability"), the file's precision target that decided a reading, the shape of a
series (pmoe-analyze's sentence), and Lemma 4.1's router sample, without which the rows are
outside the theorems' hypotheses."""
from pmoe.report import precision_record
from pmoe.report.rules import NOT_TESTABLE

EXPONENT_EFFECT = 0.2    # a polynomial exponent of at least 0.2 (x1.15 per doubling)


# The readings of (f) and (b): the theorems hold "with probability 1 - delta" (Theorems 4.2,
# 4.3), so their reading is N at success probability 0.9 (delta = 0.1); the median (N*) and the
# mean-accuracy crossing (N_acc, the paper's Figure 4) are shown beside it with what they say.
THEOREM_DELTA = 0.1
THEOREM_READING = f"success@{1 - THEOREM_DELTA:g}"
READING_NAMES = {THEOREM_READING: f"N({1 - THEOREM_DELTA:g})", "success": "N*",
                 "mean_accuracy": "N_acc"}


def target_reading(reading):
    """(reading, success threshold) a precision target records for a page's reading name."""
    if reading.startswith("success@"):
        return "success", float(reading.split("@")[1].split(",")[0])
    return reading, None


def shape_text(tables, series, reading):
    """pmoe-analyze's sentence on the shape of one series' estimates (trend test, best of
    constant / power law / step, upper-half slope), or ""."""
    for row in tables.get("shapes", []):
        if row.get("series") == series and row.get("reading") == reading:
            return row.get("says", "")
    return ""


def with_target(ev, row, statistic, over, where=None, reading="mean_accuracy",
                success_threshold=None, effect=EXPONENT_EFFECT):
    """The exponent row `row` decided on the file's precision target instead, when the file holds
    one for this statistic (reading, the rule's effect size): its interval is the one that stays
    valid under the target's stopping. Returns (row, the target's text or "")."""
    t = precision_record.matching(getattr(ev, "attrs", {}), statistic, over, reading,
                                  effect, where, success_threshold)
    if t is None or row is None:
        return row, ""
    return dict(row, exponent=t.estimate, lo=t.lo, hi=t.hi, within=t.verdict == "within"), t.text()


def router_samples(cell):
    """The samples separate pMoE's router trained on in this cell: its own sample
    (model.router_samples), else the training set's first router_N, else all N."""
    own = int(float(cell.get("model.router_samples", 0) or 0))
    if own > 0:
        return own
    first = int(float(cell.get("model.router_N", 0) or 0))
    return first if first > 0 else int(float(cell["N"]))


def reads_router_sample(cell):
    """Whether the cell's model trains a router on a sample of its own size (the file's cells
    list the parameters their families read: a model without a separate router reads none)."""
    return "model.router_samples" in cell or "model.router_N" in cell


def outside_lemma_41(ev, finding, top=None, kind=None):
    """Theorems 4.2 and 4.3 assume a router trained as Lemma 4.1 asks, on about
    n^2 / (1 - delta_d)^2 samples. Where separate pMoE's router had fewer in a cell of the fit,
    the rows are outside the theorem's hypotheses: the verdict is "not testable" there, with what
    the rows alone say beside it (f_ratio_decade.ini gives the router its own sample)."""
    short, checked = [], 0
    for c in ev.cells:
        if not reads_router_sample(c) or "data.delta_d" not in c or \
                (kind is not None and c.get("model.kind") != kind):
            continue
        checked += 1
        n = int(float(c["data.n"]))
        if top is not None and n != int(top):
            continue
        needed = n * n / (1 - float(c["data.delta_d"])) ** 2
        if router_samples(c) < needed:
            short.append((n, router_samples(c), needed))
    if not checked:
        finding.numbers.append(("Lemma 4.1's router sample", "not checked: no separate pMoE cell "
                                "with a δd parameter (image data have none)"))
        return
    if not short:
        finding.numbers.append(("Lemma 4.1's router sample", "met in every separate pMoE cell"))
        return
    ns = sorted({n for n, _, _ in short})
    worst = min(short, key=lambda t: t[1] / t[2])
    where = ", ".join(str(n) for n in ns)
    finding.numbers.append((
        "Lemma 4.1's router sample (n²/(1 − δd)²)",
        f"not met in {len(short)} separate pMoE cell(s) at n = {where} (fewest: {worst[1]} "
        f"samples where the lemma asks {worst[2]:.0f} at n = {worst[0]})"))
    if finding.verdict not in (NOT_TESTABLE, "error"):
        finding.numbers.append(("the rows alone would say", f"{finding.verdict}: "
                                                            f"{finding.reason}"))
        finding.verdict = NOT_TESTABLE
        finding.reason = (f"outside the theorem's hypotheses: separate pMoE's router had fewer "
                          f"samples than Lemma 4.1's n²/(1 − δd)² at n = {where} (the rows alone "
                          f"say: {finding.numbers[-1][1]}); model.router_samples gives it a "
                          "sample of its own (sweeps/configs/f_ratio_decade.ini)")
