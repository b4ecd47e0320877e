"""The Methods of a result file, as a paper's Methods section needs them: every parameter's value
as the trials used it (fixed and swept), trials per cell (or the adaptive search), the master
seed, the training budget and how many trials it stopped, the commit, numerics version, build
and tool version, and a line to cite.

    of(result_file)  -> dict (pmoe.load puts it in df.attrs["methods"]; the report pages print it)
    html(methods)    -> the Methods table of a report page

Placeholders are resolved here, at read time, as the simulator resolves them (the recorded
values stay as they are, so no recorded number changes): data.p_confuser = -1 is the count
sim/data/pattern_plan.cpp ConfuserSets uses, model.k = 0 of separate pMoE is one expert per
class, model.router_N = 0 is N, model.loss = auto is logistic for two classes and softmax for
more, a cap of 0 is no cap."""
import html as _html

from pmoe import results
from pmoe.plots import labels



def _int(text, default=0):
    try:
        return int(float(text))
    except (TypeError, ValueError):
        return default


def router_pairs(classes):
    """len(RouterPairs(c)) (include/pmoe/data/class_pairs.hpp): consecutive pairs, and the last
    class paired with class 0 when c is odd."""
    return classes // 2 + (1 if classes % 2 == 1 and classes > 1 else 0)


def confuser_sets(p, p_confuser, l_star, classes):
    """ConfuserSets (sim/data/pattern_plan.cpp): the recorded count, or for -1 half of p and at
    least one set toward each side of every trained pair; none when l* = 1 (no confusers)."""
    if p_confuser >= 0:
        return p_confuser
    return max(2 * router_pairs(classes), p // 2) if l_star - 1 > 0 else 0


def resolve(params):
    """{parameter: (value as used, note)} of one cell's recorded parameters."""
    out = {name: (value, "") for name, value in params.items()}
    classes = _int(params.get("data.c"), 2)
    if params.get("data.p_confuser") == "-1":
        used = confuser_sets(_int(params.get("data.p")), -1, _int(params.get("data.l_star")),
                             classes)
        out["data.p_confuser"] = (str(used), "recorded as -1: half of p, at least 2 per class "
                                  "pair, none when l* = 1")
    # k = 0 is valid only where a model reads it as one expert per class (every other model
    # refuses it before a trial runs), so a recorded 0 is that, whatever the model.
    if params.get("model.k") == "0":
        out["model.k"] = (str(classes), "recorded as 0: one expert per class")
    if params.get("model.router_N") == "0":
        out["model.router_N"] = (params.get("N", ""), "recorded as 0: the router trains on all N")
    if params.get("model.loss") == "auto":
        out["model.loss"] = ("logistic" if classes == 2 else "softmax",
                             "recorded as auto: logistic for 2 classes, softmax for more")
    for cap in ("model.epochs", "model.max_steps"):
        if params.get(cap) == "0":
            out[cap] = ("none", "recorded as 0: no cap")
    return out


def _values_text(values):
    from pmoe.plots.layout import natural
    vs = sorted(set(values), key=natural)
    return ", ".join(vs) if len(vs) <= 12 else f"{vs[0]} ... {vs[-1]} ({len(vs)} values)"


def completed(params):
    """A cell's recorded parameters and, at their defaults, those its families read that its key
    leaves out (a cell key names only what it records: parameters added later at their default
    keep old cells' ids), from the parameter table."""
    families = {params.get("data.model", ""), params.get("model.kind", "")}
    out = dict(params)
    for name, row in labels.parameter_table().items():
        if name not in out and ("every cell" in row["read_by"] or families & set(row["read_by"])):
            out[name] = row["default"]
    return out


def parameter_rows(recorded_params):
    """[{name, meaning, value, swept, note}] over every parameter any cell reads, in the
    parameter table's order; the models that do not read a parameter named, and the defaults
    the keys leave out marked."""
    cell_params = [completed(p) for p in recorded_params]
    implicit = {n for p, c in zip(recorded_params, cell_params) for n in c if n not in p}
    resolved = [resolve(p) for p in cell_params]
    kinds = sorted({p.get("model.kind", "") for p in cell_params})
    order = list(labels.meanings()) or []
    names = []
    for p in cell_params:
        names += [n for n in p if n not in names]
    names.sort(key=lambda n: (order.index(n) if n in order else len(order), n))
    rows = []
    for name in names:
        values = [r[name][0] for r in resolved if name in r]
        by_kind = {}  # recorded values per model kind: a [model.KIND] setting is not an axis
        for p in cell_params:
            if name in p:
                by_kind.setdefault(p.get("model.kind", ""), set()).add(p[name])
        swept = any(len(v) > 1 for v in by_kind.values()) or (
            name == "model.kind" and len(by_kind) > 1)
        notes = sorted({r[name][1] for r in resolved if name in r and r[name][1]})
        readers = {p.get("model.kind", "") for p in cell_params if name in p}
        not_read = [k for k in kinds if k not in readers]
        if not swept and len({v for vs in by_kind.values() for v in vs}) > 1:
            notes.append("per model: " + "; ".join(
                f"{labels.value_label('model.kind', k)} {', '.join(sorted(v))}"
                for k, v in sorted(by_kind.items())))
        if name in implicit:
            notes.append("the default (not in the cell key)")
        if not_read:
            notes.append("not read by " + ", ".join(
                labels.value_label("model.kind", k) for k in not_read))
        rows.append(dict(name=name, meaning=labels.meanings().get(name, labels.words(name)),
                         value=_values_text(values), swept=swept,
                         note="; ".join(notes)))
    return rows


def _stopped(stop_reason, names):
    counts = {}
    for code in stop_reason:
        reason = names[int(code)] if 0 <= int(code) < len(names) else str(code)
        counts[reason] = counts.get(reason, 0) + 1
    return counts


def _design(rf):
    """How many trials each cell got: a fixed count, or what an adaptive search or a precision
    target decided (their settings, and the range of trials per cell they gave)."""
    a = rf.attrs
    counts = {}
    for cell in rf.trials.get("cell_id", []):
        counts[int(cell)] = counts.get(int(cell), 0) + 1
    fewest, most = (min(counts.values()), max(counts.values())) if counts else (0, 0)
    spread = f"{fewest}" if fewest == most else f"{fewest}-{most}"
    if a.get("precision"):
        return f"precision target ({a['precision']}): {spread} trials per cell"
    if a.get("adaptive"):
        return f"adaptive search ({a['adaptive']}): {spread} trials per cell"
    return f"{rf.trials_per_cell} trials per cell"


def of(rf):
    """The Methods of a pmoe.results.ResultFile (see the module's docstring)."""
    a = rf.attrs
    stops = _stopped(rf.trials.get("stop_reason", []),
                     results.enum_names(rf, "stop_reason", results.STOP_REASON))
    trials = len(rf.trials.get("cell_id", []))
    design = _design(rf)
    methods = {
        "name": a.get("name", ""), "config_path": a.get("config_path", ""),
        "parameters": parameter_rows(rf.params),
        "cells": len(rf.params), "trials": trials, "design": design,
        "trials_per_cell": rf.trials_per_cell, "seed": a.get("master_seed"),
        "stopped_by": stops, "step_cap_stopped": stops.get("step_cap", 0),
        "epoch_cap_stopped": stops.get("epoch_cap", 0),
        "commit": a.get("git_describe", ""), "numerics_version": a.get("numerics_version"),
        "build": a.get("numerics_build", ""), "tool_version": a.get("tool_version", ""),
        "created_utc": a.get("created_utc", ""), "command_line": a.get("command_line", ""),
        "shard": a.get("shard", ""), "precision": a.get("precision", ""),
    }
    methods["cite"] = (
        f"Simulated with pmoe-sim {methods['tool_version']} (commit {methods['commit']}, "
        f"numerics version {methods['numerics_version']}): sweep {methods['name']} "
        f"({methods['config_path']}, master seed {methods['seed']}, {trials} trials), "
        f"{methods['created_utc']}. Reproduce with: pmoe-sweep run {methods['config_path']}.")
    return methods


def html(m):
    """The Methods table of a report page: the run, then every parameter."""
    esc = html_escape
    stopped = ", ".join(f"{k} {v}" for k, v in sorted(m["stopped_by"].items())) or "-"
    run = [("sweep", m["name"]), ("config", m["config_path"]), ("design", m["design"]),
           ("cells, trials", f"{m['cells']} cells, {m['trials']} trials"),
           ("master seed", m["seed"]),
           ("trials stopped by", stopped + f" (step cap: {m['step_cap_stopped']}, epoch cap: "
            f"{m['epoch_cap_stopped']})"),
           ("commit", m["commit"]), ("numerics version", m["numerics_version"]),
           ("build", m["build"]), ("tool version", m["tool_version"]),
           ("written", m["created_utc"]), ("command", m["command_line"])]
    if m.get("precision"):
        run.append(("precision target", m["precision"]))
    rows = "".join(f"<tr><td>{esc(k)}</td><td colspan='3'>{esc(v)}</td></tr>" for k, v in run)
    rows += "<tr><th>parameter</th><th>value as used</th><th>meaning</th><th>note</th></tr>"
    rows += "".join(
        f"<tr><td><code>{esc(p['name'])}</code></td><td>{esc(p['value'])}"
        f"{' <b>(swept)</b>' if p['swept'] else ''}</td><td>{esc(p['meaning'])}</td>"
        f"<td>{esc(p['note'])}</td></tr>" for p in m["parameters"])
    return (f"<table class='methods'>{rows}</table>"
            f"<p class='cite'><b>How to cite.</b> {esc(m['cite'])}</p>")


def html_escape(value):
    return _html.escape(str(value))
