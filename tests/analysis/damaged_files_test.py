"""The C++ readers and the Python reader refuse the same damaged result files (issue 43).

Each case of the one shared list, tests/support/damaged_files.tsv, damages a copy of a file
pmoe-sweep wrote; the same bytes then go to pmoe-analyze (summary), pmoe-sweep (status) and
pmoe.results.read. Every one must refuse the file with one line naming the damaged column or
attribute. The template itself, and every reference result file, must be read by all of them:
refusing is only right for what the tools never write."""
import glob
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


def shared_list(path):
    """The template's config and {damage: case} of damaged_files.tsv (its header says how)."""
    config, cases = None, {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# config\t"):
                config = line.split("\t", 1)[1].replace("\\n", "\n")
            if not line or line.startswith("#"):
                continue
            damage, name, template, edits = line.split("\t")
            cases[damage] = {"names": name, "template": None if template == "-" else template,
                             "edits": [edit.split(" ") for edit in edits.split(" | ")]}
    return config, cases


CONFIG, CASES = shared_list(os.path.join(ROOT, "tests", "support", "damaged_files.tsv"))
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
    config.write_text(CONFIG)
    out = folder / "t.h5"
    r = subprocess.run([tool("PMOE_SWEEP", "sweeps", "pmoe-sweep"), "run", str(config), "--out",
                        str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(out)


# --- the edits of the shared list (its header describes them) --------------------------------

def _rewrite(f, path, values):
    """The dataset at path replaced by `values` (another type or shape), its attributes kept."""
    attrs = dict(f[path].attrs)
    del f[path]
    f.create_dataset(path, data=values)
    f[path].attrs.update(attrs)


def _number(text):
    """An edit's value: an integer, a number with a point, nan, or else a text."""
    if text == '""':
        return ""
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    if text == "nan" or re.fullmatch(r"-?[0-9]+\.[0-9]*", text):
        return float(text)
    return text


def _set(f, path, row, text):
    column = f[path]
    value = text if h5py.check_string_dtype(column.dtype) else _number(text)
    column[int(row)] = value.encode() if isinstance(value, str) else value


def _attribute(f, name, text=None):
    if text is None:
        del f.attrs[name]
        return
    value = _number(text)
    f.attrs[name] = np.int64(value) if isinstance(value, int) else value


def _retype(f, path, kind):
    if kind == "text":  # numpy's "S" is as wide as the longest value
        _rewrite(f, path, np.array(f[path][:], dtype="S"))
        return
    if h5py.check_string_dtype(f[path].dtype) is not None:
        values = np.zeros(f[path].shape[0])  # text has no number to keep
    else:
        values = np.nan_to_num(f[path][:].astype(np.float64), nan=0.0)
    _rewrite(f, path, values.astype(STORED[kind]))


def _reshape(f, path):
    values = f[path][:]
    _rewrite(f, path, np.stack([values, values], axis=1))


def _resize(f, path, rows):
    _rewrite(f, path, f[path][:int(rows)])


def _copy_row(f, path, source, target):
    f[path][int(target)] = f[path][int(source)]


def _swap(f, path, a, b):
    column, a, b = f[path], int(a), int(b)
    column[a], column[b] = column[b], column[a]


def _description(f, path, text):
    f[path].attrs["description"] = text


def _delete(f, path):
    del f[path]


EDITS = {"set": _set, "delete": _delete, "attribute": _attribute, "retype": _retype,
         "reshape": _reshape, "resize": _resize, "copy_row": _copy_row, "swap": _swap,
         "description": _description}


def apply(f, edit):
    op, path, *rest = edit
    if op == "set":  # the value is the rest of the edit (a key may hold anything but " | ")
        rest = [rest[0], " ".join(rest[1:])]
    if op == "description":
        rest = [" ".join(rest)]
    EDITS[op](f, path, *rest)


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
        elif path not in message or "\n" in message or not names(message, case["names"]):
            wrong.append(f"{reader} does not name the file and {case['names']} in one line: "
                         f"{message}")
    assert not wrong, f"{damage}: " + "; ".join(wrong)


REFERENCE = sorted(glob.glob(os.path.join(ROOT, "results", "reference", "*", "*.h5")))


@pytest.mark.parametrize("path", REFERENCE, ids=[os.path.basename(p) for p in REFERENCE])
def test_every_reference_file_is_read_by_both_readers(path):
    """Refusing is only right for damage: each recorded file reads in both (and the Python
    reader's cell ids are HashString's: every cell_id is checked against its key)."""
    assert python_refusal(path) == ""
    assert tool_refusal([tool("PMOE_ANALYZE", "analysis", "pmoe-analyze"), "summary", path]) == ""
