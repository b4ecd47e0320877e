"""Human labels for the parameters a figure or page names: "patches per expert $l$" for model.l,
"CNN" for model.kind=cnn. A reader of a paper knows the symbols, not the config keys.

The words come from the parameter table (sim/core/param_table.cpp), exported by the tools as
docs/reference/parameters.md (`pmoe-sim --list-params --markdown`, kept equal to the tool's output
by a test): every parameter has a label even when nothing here names it. SHORT overrides the
table's meaning where it is a sentence rather than a label, and adds the symbol set in math.

    axis_label("model.l")            -> "patches per expert $l$"
    value_label("model.kind", "cnn") -> "CNN"
    setting_label({"data.n": "8"})   -> "$n = 8$"
"""
import functools
import os
import re

# name -> (words, symbol in math or None). Symbols as the paper writes them (MODEL.md).
SHORT = {
    "N": ("training samples", "N"), "N_test": ("test samples", r"N_\mathrm{test}"),
    "data.n": ("patches per sample", "n"), "data.d": ("patch dimension", "d"),
    "data.p": ("pattern sets", "p"), "data.p_confuser": ("confuser sets", None),
    "data.l_star": ("threshold", "l^*"), "data.c": ("classes", "c"),
    "data.delta_d": ("class-pattern product", r"\delta_d"),
    "data.delta_r": ("irrelevant-pattern bound", r"\delta_r"),
    "data.radius": ("pattern-set radius", "r"), "data.noise": ("noise level", r"\sigma"),
    "data.clusters": ("clusters", "K"), "data.sigma_p": ("noise-patch scale", r"\sigma_p"),
    "model.l": ("patches per expert", "l"), "model.k": ("experts", "k"),
    "model.m": ("hidden neurons", "m"), "model.lr": ("step size", r"\eta"),
    "model.batch": ("batch size", "B"), "model.epochs": ("epoch cap", None),
    "model.max_steps": ("step cap", None), "model.router_N": ("router training samples", None),
    "model.kind": ("model", None), "data.model": ("data", None), "model.loss": ("loss", None),
}

VALUES = {"model.kind": {"cnn": "CNN", "separate": "separate pMoE", "joint": "joint pMoE",
                         "switch": "switch MoE", "single": "single model"},
          "data.model": {"pattern": "pattern data", "image": "image data",
                         "cluster": "cluster data"}}

PARAMETERS_MD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..",
                             "docs", "reference", "parameters.md")


@functools.lru_cache(maxsize=1)
def parameter_table():
    """{parameter: {"default", "read_by": [families] or ["every cell"], "meaning"}} from the
    generated parameter table; empty when it is not there (an installed copy of the package
    without the docs): labels then fall back to the name."""
    try:
        with open(PARAMETERS_MD, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return {}
    found = {}
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]  # "\|" is a "|"
        name = re.fullmatch(r"`([\w.]+)`", cells[0]) if cells else None
        if name and len(cells) == 7:
            found[name.group(1)] = {
                "default": cells[3].strip("`"), "meaning": cells[6].replace("\\|", "|"),
                "read_by": [r.strip() for r in cells[5].split(",")]}
    return found


def meanings():
    """{parameter: meaning} of the parameter table."""
    return {name: row["meaning"] for name, row in parameter_table().items()}


def words(name):
    """The parameter in words, without its symbol: "patches per expert"."""
    if name in SHORT:
        return SHORT[name][0]
    meaning = meanings().get(name)
    if not meaning:
        return name
    # The table's meanings may open with the family that reads them ("data model C: ") and run
    # on after a colon or a parenthesis: keep the label part.
    meaning = re.sub(r"^(data model [ABC]|switch/single|switch|single|separate pMoE): ", "",
                     meaning)
    return re.split(r"[:(,;~]", meaning)[0].strip() or name


def symbol(name):
    return SHORT.get(name, (None, None))[1]


def axis_label(name, log=False):
    """An axis label: words and symbol, "(log scale)" on a log axis."""
    sym = symbol(name)
    text = words(name) + (f" ${sym}$" if sym else "")
    return text + (" (log scale)" if log else "")


def value_label(name, value):
    """One parameter's value as a reader says it: "CNN", "$n = 8$", "step cap 5000"."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    if name in VALUES:
        return VALUES[name].get(text, text)
    sym = symbol(name)
    return f"${sym} = {text}$" if sym else f"{words(name)} {text}"


def setting_label(parts):
    """A series as a legend or panel title says it: {"model.kind": "cnn", "data.n": "8"} ->
    "CNN, $n = 8$" (the model first: it is the noun). "" for no parts."""
    order = sorted(parts, key=lambda n: (n != "model.kind", n != "data.model"))
    return ", ".join(value_label(n, parts[n]) for n in order)
