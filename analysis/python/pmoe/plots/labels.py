"""Human labels for the parameters a figure or page names: "patches per expert $l$" for model.l,
"CNN" for model.kind=cnn. A reader of a paper knows the symbols, not the config keys.

The words, symbols and units are declared with the parameters (ParamInfo::Labeled, where each
parameter is declared: the core's in sim/core/param_table.cpp, the families' in sim/family/),
exported by the tools as docs/reference/parameters.md (`pmoe-sim --list-params --markdown`, kept equal to the
tool's output by a test; scripts/generate-reference.sh regenerates it). A parameter declared
without a label reads as the first part of its meaning.

    axis_label("model.l")            -> "patches per expert $l$"
    value_label("model.kind", "cnn") -> "CNN"
    setting_label({"data.n": "8"})   -> "$n = 8$"
"""
import functools
import os
import re

PARAMETERS_MD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..",
                             "docs", "reference", "parameters.md")


@functools.lru_cache(maxsize=1)
def parameter_table():
    """{parameter: {"default", "read_by": [families] or ["every cell"], "meaning", "label",
    "symbol", "unit"}} from the generated parameter table (columns found by their titles); empty when it is not there (an installed copy of the package
    without the docs): labels then fall back to the name."""
    try:
        with open(PARAMETERS_MD, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return {}
    found, columns = {}, None
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]  # "\|" is a "|"
        if cells and cells[0] == "Parameter":
            columns = {title: i for i, title in enumerate(cells)}
            continue
        name = re.fullmatch(r"`([\w.]+)`", cells[0]) if cells else None
        if name and columns and len(cells) == len(columns):
            def cell(title):
                i = columns.get(title)
                return "" if i is None else cells[i].replace("\\|", "|")
            found[name.group(1)] = {
                "default": cell("Default").strip("`"), "meaning": cell("Meaning"),
                "read_by": [r.strip() for r in cell("Read by").split(",")],
                "label": cell("Label"), "symbol": cell("Symbol").strip("`") or None,
                "unit": cell("Unit")}
    return found


@functools.lru_cache(maxsize=1)
def family_labels():
    """{"model.kind": {kind: label}, "data.model": {family: label}} from the families table of
    the generated parameter table (each family's declared label(): "CNN", "pattern data")."""
    try:
        with open(PARAMETERS_MD, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return {}
    found, columns = {}, None
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if cells and cells[0] == "Family":
            columns = {title: i for i, title in enumerate(cells)}
            continue
        family = re.fullmatch(r"`(data\.model|model\.kind) = ([\w.-]+)`", cells[0]) if cells else None
        if family and columns and "Label" in columns and len(cells) == len(columns):
            found.setdefault(family.group(1), {})[family.group(2)] = cells[columns["Label"]]
    return found


def kind_labels(f):
    """{model.kind: label} of the models in an open result file, as their families declared
    them when the file was written (/theory/label); a file written before then has the labels of
    the families table (family_labels), or the kind itself."""
    theory = f["theory"] if "theory" in f else {}
    if "label" in theory and "model_kind" in theory:
        return dict(zip(theory["model_kind"].asstr()[:], theory["label"].asstr()[:]))
    kinds = set(f["cells"]["model.kind"].asstr()[:]) if "model.kind" in f.get("cells", {}) else ()
    return {k: family_labels().get("model.kind", {}).get(k, k) for k in kinds}


def meanings():
    """{parameter: meaning} of the parameter table."""
    return {name: row["meaning"] for name, row in parameter_table().items()}


def words(name):
    """The parameter in words, without its symbol: "patches per expert"."""
    label = parameter_table().get(name, {}).get("label")
    if label:
        return label
    meaning = meanings().get(name)
    if not meaning:
        return name
    # The table's meanings may open with the family that reads them ("data model C: ") and run
    # on after a colon or a parenthesis: keep the label part.
    meaning = re.sub(r"^(data model [ABC]|switch/single|switch|single|separate pMoE): ", "",
                     meaning)
    return re.split(r"[:(,;~]", meaning)[0].strip() or name


def symbol(name):
    """The paper's symbol (TeX without dollars) as declared, or None."""
    return parameter_table().get(name, {}).get("symbol")


def axis_label(name, log=False):
    """An axis label: words and symbol, "(log scale)" on a log axis."""
    sym = symbol(name)
    text = words(name) + (f" ${sym}$" if sym else "")
    return text + (" (log scale)" if log else "")


def value_label(name, value):
    """One parameter's value as a reader says it: "CNN", "$n = 8$", "step cap 5000"."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    if name in ("model.kind", "data.model"):
        return family_labels().get(name, {}).get(text, text)
    sym = symbol(name)
    return f"${sym} = {text}$" if sym else f"{words(name)} {text}"


def setting_label(parts):
    """A series as a legend or panel title says it: {"model.kind": "cnn", "data.n": "8"} ->
    "CNN, $n = 8$" (the model first: it is the noun). "" for no parts."""
    order = sorted(parts, key=lambda n: (n != "model.kind", n != "data.model"))
    return ", ".join(value_label(n, parts[n]) for n in order)
