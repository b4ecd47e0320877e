"""The C++ readers and the Python reader refuse the same damaged result files (issue 43).

Each case of the one shared list, tests/support/damaged_files.json, damages a copy of a file
pmoe-sweep wrote; the same bytes then go to pmoe-analyze (summary), pmoe-sweep (status) and
pmoe.results.read. Every one must refuse the file with one line naming the damaged column or
attribute. The template itself, and every reference result file, must be read by all of them:
refusing is only right for what the tools never write."""
import glob
import json
import math
import os
import re
import shutil
import subprocess

import h5py
import numpy as np
import pytest

from pmoe import results
from pmoe.results import ResultFileError

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
with open(os.path.join(ROOT, "tests", "support", "damaged_files.json")) as f:
    DAMAGES = json.load(f)
CASES = {case["damage"]: case for case in DAMAGES["cases"]}
STORED = {"u8": np.uint8, "i32": np.int32, "i64": np.int64, "u64": np.uint64, "f64": np.float64}


def tool(variable, *where):
    """A built tool as ctest passes it (PMOE_ANALYZE, PMOE_SWEEP), else this checkout's build."""
    path = os.environ.get(variable) or os.path.join(ROOT, "build", *where)
    if not os.path.exists(path):
        pytest.skip(f"{where[-1]} is not built (ctest passes {variable})")
    return path


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("damaged_files")
    config = folder / "t.ini"
    config.write_text(DAMAGES["template_config"])
    out = folder / "t.h5"
    r = subprocess.run([tool("PMOE_SWEEP", "sweeps", "pmoe-sweep"), "run", str(config), "--out",
                        str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(out)


# --- the edits of the shared list (its "about" describes them) ------------------------------

def _rewrite(f, path, values):
    """The dataset at path replaced by `values` (another type or shape), its attributes kept."""
    attrs = dict(f[path].attrs)
    del f[path]
    f.create_dataset(path, data=values)
    f[path].attrs.update(attrs)


def _value(f, path, value):
    if value == "nan":
        return math.nan
    return value if not h5py.check_string_dtype(f[path].dtype) else value.encode()


def _retyped(f, path, kind):
    if h5py.check_string_dtype(f[path].dtype) is not None:
        return np.zeros(f[path].shape[0], dtype=STORED[kind])  # text has no number to keep
    return f[path][:].astype(STORED[kind])


def apply(f, edit):
    if "set" in edit:
        column = f[edit["set"]]
        column[edit["row"]] = _value(f, edit["set"], edit["value"])
    elif "delete" in edit:
        del f[edit["delete"]]
    elif "attribute" in edit:
        name, value = edit["attribute"], edit["value"]
        if value is None:
            del f.attrs[name]
        else:
            f.attrs[name] = np.int64(value) if isinstance(value, int) else value
    elif "retype" in edit:
        _rewrite(f, edit["retype"], _retyped(f, edit["retype"], edit["as"]))
    elif "reshape" in edit:
        values = f[edit["reshape"]][:]
        _rewrite(f, edit["reshape"], np.stack([values, values], axis=1))
    elif "resize" in edit:
        _rewrite(f, edit["resize"], f[edit["resize"]][:edit["rows"]])
    elif "copy_row" in edit:
        column = f[edit["copy_row"]]
        column[edit["to"]] = column[edit["from"]]
    elif "swap" in edit:
        column, (a, b) = f[edit["swap"]], edit["rows"]
        column[a], column[b] = column[b], column[a]
    else:
        raise AssertionError(f"an edit the test does not know: {edit}")


def damaged_copy(template, folder, case):
    path = str(folder / "damaged.h5")
    shutil.copyfile(template, path)
    with h5py.File(path, "r+") as f:
        for edit in case["edits"]:
            apply(f, edit)
    return path


# --- the readers ------------------------------------------------------------------------------

def python_refusal(path):
    """The Python reader's message, "" when it reads the file."""
    try:
        results.read(path)
    except ResultFileError as e:
        return str(e)
    return ""


def tool_refusal(command):
    """A C++ tool's one line on stderr, "" when it read the file (exit 0); a crash fails."""
    r = subprocess.run(command, capture_output=True, text=True)
    assert r.returncode in (0, 2), f"{command}: exit {r.returncode}\n{r.stderr}"
    return "" if r.returncode == 0 else r.stderr.strip()


def refusals(path):
    return {"pmoe.results.read": python_refusal(path),
            "pmoe-analyze summary": tool_refusal(
                [tool("PMOE_ANALYZE", "analysis", "pmoe-analyze"), "summary", path]),
            "pmoe-sweep status": tool_refusal(
                [tool("PMOE_SWEEP", "sweeps", "pmoe-sweep"), "status", path])}


def names(message, name):
    """Whether the message names the column or attribute: the whole word, so that "/trials row"
    does not name trial."""
    return re.search(r"(?<![\w])" + re.escape(name) + r"(?![\w])", message) is not None


def test_the_template_is_read_by_every_reader(template):
    assert all(message == "" for message in refusals(template).values()), refusals(template)


@pytest.mark.parametrize("damage", list(CASES))
def test_every_reader_refuses_the_damage_naming_the_column(template, tmp_path, damage):
    case = CASES[damage]
    own = case.get("template")  # a reference file, for what the small sweep has not (lists)
    path = damaged_copy(os.path.join(ROOT, own) if own else template, tmp_path, case)
    wrong = []  # every reader's failure at once: which of them disagree is the finding
    for reader, message in refusals(path).items():
        if not message:
            wrong.append(f"{reader} reads it")
        elif "\n" in message or not names(message, case["names"]):
            wrong.append(f"{reader} does not name {case['names']} in one line: {message}")
    assert not wrong, f"{damage}: " + "; ".join(wrong)


REFERENCE = sorted(glob.glob(os.path.join(ROOT, "results", "reference", "*", "*.h5")))


@pytest.mark.parametrize("path", REFERENCE, ids=[os.path.basename(p) for p in REFERENCE])
def test_every_reference_file_is_read_by_both_readers(path):
    """Refusing is only right for damage: each recorded file reads in both (and the Python
    reader's cell ids are HashString's: every cell_id is checked against its key)."""
    assert python_refusal(path) == ""
    assert tool_refusal([tool("PMOE_ANALYZE", "analysis", "pmoe-analyze"), "summary", path]) == ""
