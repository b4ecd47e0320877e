"""The one validating reader of pmoe-sweep result files (HDF5, schema version 1), and pmoe.load.

    read(path)  -> ResultFile: every column checked (shape, type, range, references, physically
                   possible values) as pmoe-sweep checks them, or ResultFileError naming the file,
                   the column or row, what was found and what was expected
    load(path)  -> a tidy pandas DataFrame, one row per trial (see load)

The checks are those of the C++ tools' one reader (ReadCheckedResult, sim/io/result_checks.cpp):
tests/support/damaged_files.tsv is the one list of damaged files, which the C++ test and
tests/analysis/damaged_files_test.py give to pmoe-sweep's reader, pmoe-analyze's and read(): all
refuse each, naming the same column. Every script of the package reads result files through
read(), so the plots and report pages refuse what pmoe-sweep refuses (a trial index out of range,
an unknown status, a missing config attribute, ...) and what no trial can produce (test accuracy
5.0, NaN accuracy of an ok trial, negative epochs), instead of drawing it. The file is read in a forked child process: a damaged
string heap can crash the HDF5 library, and that must end as one clear error, not as a dead
interpreter."""
import math
import os
import pickle
import re
import select
import signal
import stat
import time
from dataclasses import dataclass, field

import h5py  # imported here once, not in every reading child
import numpy as np

SCHEMA_VERSION = 1
MAX_TRIALS = 10_000_000  # kMaxTrials (include/pmoe/core/param_table.hpp), which the C++ readers use
# The reading child's deadline: READ_SECONDS plus the file's size at READ_BYTES_PER_SECOND (a
# healthy file reads at hundreds of MB/s; a slow disk or a loaded machine is far inside this).
READ_SECONDS = 60.0
READ_BYTES_PER_SECOND = 5e6
# The names of the status and stop_reason codes are read from the file: the tools write them
# into each column's description ("0 ok, 1 diverged, ..."; sweeps/store/trial_row.cpp). These
# are only for a file whose description does not list them.
STATUS = ("ok", "diverged", "infeasible", "error")
STOP_REASON = ("not trained", "zero_train_error", "epoch_cap", "step_cap", "diverged",
               "stopping_rule")
_CODE = re.compile(r"(?:^|, |: )(\d+) ([^,]+)")


def enum_names(rf, column, fallback):
    """The names of a code column's values 0, 1, ..., as its description in the file lists them
    ("why training stopped: 0 not trained, 1 zero_train_error, ..."); `fallback` when the
    description does not list them from 0 on without a gap."""
    found = {int(code): name.strip() for code, name in _CODE.findall(rf.descriptions.get(column, ""))}
    names = tuple(found.get(i) for i in range(len(found)))
    return names if names and None not in names else fallback
# The stored type of each trial_columns type name (sim/family/family.cpp ColumnTypeName).
DTYPES = {"u64": np.uint64, "i64": np.int64, "i32": np.int32, "u8": np.uint8, "f64": np.float64,
          "f64list": np.int64}
# The /trials columns every result file has (ReadCheckedResult reads each of them).
CORE_COLUMNS = ("cell_id", "trial", "status", "success", "test_acc", "train_acc", "epochs",
                "steps", "zero_train_error", "stop_reason")
ACCURACIES = ("test_acc", "train_acc")
FLAGS = ("success", "zero_train_error")
COUNTS = ("epochs", "steps")
TIMINGS = ("data_ms", "train_ms", "eval_ms", "wall_ms")


class ResultFileError(Exception):
    """A result file that is not what it claims: the message is one line naming the file."""


@dataclass
class ResultFile:
    path: str
    attrs: dict                  # root attributes: str or int values
    cell_ids: np.ndarray         # uint64, /cells order
    keys: list                   # canonical key of each cell
    labels: list
    params: list                 # per cell {parameter: value text}, from its key
    columns: list                # [(name, type name)] as trial_columns lists them
    trials: dict                 # name -> 1-D array (strings as a list; lists: their lengths)
    lists: dict = field(default_factory=dict)    # list column -> [array per trial]
    metrics: dict = field(default_factory=dict)  # metric column -> {"rate": bool, "help": str}
    descriptions: dict = field(default_factory=dict)

    @property
    def trials_per_cell(self):
        return int(self.attrs["trials_per_cell"])

    def cell_index(self):
        """Each trial row's position in /cells."""
        where = {int(c): i for i, c in enumerate(self.cell_ids)}
        return np.array([where[int(c)] for c in self.trials["cell_id"]], dtype=int)


def hash_string(text):
    """HashString (include/pmoe/core/rng.hpp): FNV-1a over the bytes, then splitmix64's mixer;
    a cell's id is the hash of its key.

    Kept here rather than read from the file: the check is that a cell's id IS its key's hash,
    and a hash the tools stored beside the id would be damaged with it (or be the id again).
    damaged_files_test.py shows both readers refuse the same wrong ids, and reads every
    reference file, each cell's id checked by this function."""
    mask = (1 << 64) - 1
    h = 0xcbf29ce484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001b3) & mask
    h = (h + 0x9e3779b97f4a7c15) & mask
    h = ((h ^ (h >> 30)) * 0xbf58476d1ce4e5b9) & mask
    h = ((h ^ (h >> 27)) * 0x94d049bb133111eb) & mask
    return h ^ (h >> 31)


def split_key(key):
    """{name: value} of a canonical key "name=value;name=value;"; None when it is not one."""
    parts = [p for p in key.split(";") if p]
    if not parts or any("=" not in p or p.startswith("=") for p in parts):
        return None
    return dict(p.split("=", 1) for p in parts)


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    return value.item() if isinstance(value, np.generic) else value


def _in_child(function, path):
    """function(path) run in a forked child process, its result (or ResultFileError) sent back
    through a pipe: a damaged file can make the HDF5 library crash (seen: a segfault inside
    H5HG on a damaged global heap, where variable-length strings and string attributes live), so
    the parent only ever sees the result or a ResultFileError."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: read, send, and leave without running the parent's cleanup
        status = 0
        try:
            os.close(r)
            import faulthandler
            faulthandler.disable()  # a crash here is reported by the parent, in one line
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            try:
                answer = ("ok", function(path))
            except ResultFileError as e:
                answer = ("error", str(e))
            except Exception as e:  # h5py's own complaint about a damaged object
                first = str(e).splitlines()[0] if str(e) else ""
                answer = ("error", f"{path}: damaged ({type(e).__name__}: {first})")
            with os.fdopen(w, "wb") as pipe:
                pickle.dump(answer, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(w)
    # A damaged heap can also send HDF5 into an endless loop (seen in the tests): the child gets
    # a deadline proportional to the file's size and is killed past it.
    allowed = READ_SECONDS + os.path.getsize(path) / READ_BYTES_PER_SECOND
    deadline = time.monotonic() + allowed
    chunks, timed_out = [], False
    with os.fdopen(r, "rb") as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([pipe], [], [], left)[0]:
                timed_out = True
                os.kill(pid, signal.SIGKILL)
                break
            chunk = os.read(pipe.fileno(), 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    data = b"".join(chunks)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        raise ResultFileError(f"{path}: damaged: reading it did not finish within "
                              f"{allowed:.0f} s "
                              "(the HDF5 library loops on it)")
    if not data:
        why = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
               else f"exit status {os.WEXITSTATUS(status)}")
        raise ResultFileError(f"{path}: damaged: reading it made the HDF5 library fail ({why})")
    kind, value = pickle.loads(data)
    if kind == "error":
        raise ResultFileError(value)
    return value


def _open(path):
    try:
        return h5py.File(path, "r")
    except OSError as e:
        first = str(e).splitlines()[0] if str(e) else ""
        raise ResultFileError(f"{path}: not a readable HDF5 file ({first}); expected a "
                              "pmoe-sweep result file") from None


def _column(f, path, name, kind, rows=None):
    """A 1-D numeric dataset of the stored type, checked before it is read."""
    if name not in f:
        raise ResultFileError(f"{path}: no column {name} (expected by schema version "
                              f"{SCHEMA_VERSION})")
    ds = f[name]
    if not isinstance(ds, h5py.Dataset):
        raise ResultFileError(f"{path}: {name} is a group, expected a column")
    if len(ds.shape) != 1:
        raise ResultFileError(f"{path}: {name} has shape {ds.shape}, expected one dimension")
    want = np.dtype(DTYPES[kind])
    if ds.dtype != want:
        raise ResultFileError(f"{path}: {name} is stored as {ds.dtype}, expected {want} "
                              f"({kind})")
    if rows is not None and ds.shape[0] != rows:
        raise ResultFileError(f"{path}: {name} has {ds.shape[0]} rows, others {rows}")
    try:
        return ds[:]
    except Exception as e:
        raise ResultFileError(f"{path}: {name} cannot be read ({str(e).splitlines()[0]})") \
            from None


def _string_column(f, path, name, rows=None):
    if name not in f:
        raise ResultFileError(f"{path}: no column {name} (expected by schema version "
                              f"{SCHEMA_VERSION})")
    ds = f[name]
    if not isinstance(ds, h5py.Dataset) or len(ds.shape) != 1:
        raise ResultFileError(f"{path}: {name} is not a one-dimensional column")
    text = h5py.check_string_dtype(ds.dtype)
    if text is None or text.length is not None:  # fixed-length: not what the tools write
        raise ResultFileError(f"{path}: {name} is stored as {ds.dtype}, expected "
                              "variable-length strings")
    if rows is not None and ds.shape[0] != rows:
        raise ResultFileError(f"{path}: {name} has {ds.shape[0]} rows, others {rows}")
    return name


def _check_cell_parameter_columns(f, path, cells):
    """Every other column of /cells (a parameter's value per cell; pmoe-analyze reads them for
    the parameters keys leave out) is one-dimensional with a value per cell, as
    ReadCheckedResult checks them."""
    for name, ds in f["cells"].items():
        where = "/cells/" + name
        if not isinstance(ds, h5py.Dataset) or len(ds.shape) != 1 or ds.shape[0] != cells:
            shape = ds.shape if isinstance(ds, h5py.Dataset) else "a group"
            raise ResultFileError(f"{path}: {where} has shape {shape}, expected ({cells},): "
                                  "a value per cell")


def _theory_columns(f, path):
    """The string columns of /theory (the bounds the families declare; absent in files written
    before it), checked as ReadCheckedResult checks them: model_kind, samples and multiclass of
    one length, and ratio_baseline (newer files) of that length too. Their names, to read."""
    if "theory" not in f:
        return []
    names = ["/theory/model_kind", "/theory/samples", "/theory/multiclass"]
    if "/theory/ratio_baseline" in f:
        names.append("/theory/ratio_baseline")
    rows = None
    for name in names:
        _string_column(f, path, name, rows)
        rows = f[name].shape[0]
    return names


def _attributes(f, path):
    attrs = {k: _text(v) for k, v in f.attrs.items()}
    version = attrs.get("schema_version")
    if version is None:
        raise ResultFileError(f"{path}: no schema_version attribute: not a pmoe-sweep result file")
    if version != SCHEMA_VERSION:
        raise ResultFileError(f"{path}: schema version {version}; this reader reads version "
                              f"{SCHEMA_VERSION}")
    for name in ("name", "config", "trial_columns"):
        if not isinstance(attrs.get(name), str):
            raise ResultFileError(f"{path}: no {name} attribute (a string), expected in every "
                                  "pmoe-sweep result file")
    if not attrs["config"]:  # as the C++ readers: a result without its config cannot be rerun
        raise ResultFileError(f"{path}: attribute config is empty (expected the sweep config's "
                              "text)")
    _check_shard(path, attrs.get("shard", ""))
    tpc = attrs.get("trials_per_cell")
    if not isinstance(tpc, int) or not 1 <= tpc <= MAX_TRIALS:
        raise ResultFileError(f"{path}: attribute trials_per_cell = {tpc!r} (expected an integer "
                              f"1..{MAX_TRIALS})")
    return attrs


def _check_shard(path, shard):
    """The shard attribute is "I/K" with 1 <= I <= K, or empty: ShardAttributeCount
    (sim/io/result_checks.cpp), so that both readers refuse a damaged one."""
    match = re.fullmatch(r"([0-9]{1,7})/([0-9]{1,7})", shard) if isinstance(shard, str) else None
    if shard == "" or (match and 1 <= int(match[1]) <= int(match[2]) <= 1000000):
        return
    raise ResultFileError(f"{path}: attribute shard = \"{shard}\" (expected I/K with "
                          "1 <= I <= K, or empty)")


def _trial_columns(path, text):
    columns = []
    for item in text.split(","):
        name, _, kind = item.partition(":")
        if not name or (kind not in DTYPES and kind != "string"):
            raise ResultFileError(f"{path}: trial_columns lists \"{item}\" (expected name:type, "
                                  f"type one of {', '.join(list(DTYPES) + ['string'])})")
        columns.append((name, kind))
    names = [n for n, _ in columns]
    for core in CORE_COLUMNS:
        if core not in names:
            raise ResultFileError(f"{path}: trial_columns has no {core} (a core column)")
    return columns


def _refuse(path, rows, what, expected):
    """The first row of the mask `rows`, refused: what(i) is what it holds."""
    i = int(np.flatnonzero(rows)[0])
    raise ResultFileError(f"{path}: /trials row {i}: {what(i)} (expected {expected})")


def _check_values(rf):
    """Ranges, references and physically possible values, row by row as pmoe-sweep's RowProblem
    (sweeps/store/journal.cpp) and beyond it: what no trial can have produced."""
    _check_references(rf)
    _check_possible_values(rf)


def _check_references(rf):
    """Each row's cell, status and stop codes, and trial index exist; no (cell, trial) twice."""
    path, t = rf.path, rf.trials
    known = set(int(c) for c in rf.cell_ids)

    def refuse(rows, what, expected):
        _refuse(path, rows, what, expected)

    bad = np.array([int(c) not in known for c in t["cell_id"]], dtype=bool)
    if bad.any():
        refuse(bad, lambda i: f"cell_id {int(t['cell_id'][i])} is no cell of /cells",
               "a cell_id of /cells")
    for name, fallback in (("status", STATUS), ("stop_reason", STOP_REASON)):
        # The names are the file's, but a code past those the tools write (a description naming
        # more) is refused as the C++ readers refuse it: no tool can tell how to count it.
        names = enum_names(rf, name, fallback)[:len(fallback)]
        limit = len(names) - 1
        bad = t[name] > limit
        if bad.any():
            refuse(bad, lambda i: f"{name} {int(t[name][i])}",
                   "0.." + str(limit) + ": " + ", ".join(names))
    trial = t["trial"].astype(np.int64)
    bad = (trial < 0) | (trial >= rf.trials_per_cell)
    if bad.any():
        refuse(bad, lambda i: f"trial {int(trial[i])}", f"0..{rf.trials_per_cell - 1}: "
               f"trials_per_cell is {rf.trials_per_cell}")
    seen = set()
    for i, pair in enumerate(zip(t["cell_id"].tolist(), trial.tolist())):
        if pair in seen:
            raise ResultFileError(f"{path}: /trials row {i} repeats trial {pair[1]} of cell "
                                  f"{pair[0]} (expected each trial once)")
        seen.add(pair)


def _check_possible_values(rf):
    """Fractions in [0, 1] (a number in an ok trial's accuracies), flags 0 or 1, success only
    when ok, counts, times and integer metrics not negative (-1: not recorded)."""
    path, t = rf.path, rf.trials

    def refuse(rows, what, expected):
        _refuse(path, rows, what, expected)

    ok = t["status"] == 0
    for name in ACCURACIES + tuple(m for m, info in rf.metrics.items()
                                   if info["rate"] and m in t and t[m].dtype.kind == "f"):
        v = t[name]
        bad = ~np.isnan(v) & ((v < 0) | (v > 1))
        if bad.any():
            refuse(bad, lambda i: f"{name} = {v[i]!r}", "a fraction in [0, 1]")
        if name in ACCURACIES:
            bad = ok & np.isnan(v)
            if bad.any():
                refuse(bad, lambda i: f"{name} is NaN in an ok trial", "a number in [0, 1]")
    for name in FLAGS:
        if name in t:
            bad = t[name] > 1
            if bad.any():
                refuse(bad, lambda i: f"{name} = {int(t[name][i])}", "0 or 1")
    bad = (t["success"] == 1) & ~ok  # the success criterion is about a trained model
    if bad.any():
        refuse(bad, lambda i: f"success for a trial whose status is {int(t['status'][i])}",
               "success only for an ok trial")
    for name in COUNTS:
        if name in t:
            bad = t[name] < 0
            if bad.any():
                refuse(bad, lambda i: f"{name} = {int(t[name][i])}", "0 or more")
    for name in (n for n, _ in rf.columns if n.startswith("train_count_")):
        bad = t[name] < -1  # -1: a class the cell does not have (c = 3 in a file up to c = 4)
        if bad.any():
            refuse(bad, lambda i: f"{name} = {int(t[name][i])}",
                   "0 or more, or -1 for a class the cell does not have")
    for name in TIMINGS + ("train_loss",):
        if name in t:
            v = t[name]
            bad = v < 0  # NaN compares false: a diverged trial's loss may be NaN
            if bad.any():
                refuse(bad, lambda i: f"{name} = {v[i]!r}", "0 or more")
    for name, kind in rf.columns:
        if name in rf.metrics and kind in ("i64", "i32"):
            bad = t[name] < -1
            if bad.any():
                refuse(bad, lambda i: f"{name} = {int(t[name][i])}",
                       "0 or more, or -1 where not recorded")


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def input_file_problem(path):
    """"" when path is a regular file, else what it is, by name (the C++ tools' rule,
    pmoe/io/file_kind.hpp): checked with stat, which never blocks, before anything opens it (a
    FIFO would block the reader until a writer came; a directory would read as nothing)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as e:
        return f"cannot read: {e.strerror}"
    if stat.S_ISREG(mode):
        return ""
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return f"{kind}, not a regular file"


def require_result_file(path):
    """ResultFileError naming the kind of file it is when path is no HDF5 file: the same words
    as the C++ tools (sim/cli/file_check.cpp RequireResultFile), a config given where a result
    file belongs told how to make one."""
    path = os.fspath(path)
    # A FIFO or a directory is refused by stat before anything opens it (it would block or read
    # as nothing).
    if problem := input_file_problem(path):
        raise ResultFileError(f"{path}: {problem}, expected a result file (.h5)")
    with open(path, "rb") as f:
        head = f.read(4096)
    if head.startswith(b"\x89HDF\r\n\x1a\n"):
        return
    if head.startswith(b"PMJR"):
        h5 = path[:-len(".journal")] if path.endswith(".journal") else path
        raise ResultFileError(f"{path}: this is a pmoe-sweep journal, not a result file (give "
                              f"{h5}; pmoe-sweep status {h5} reads the journal too)")
    if head and all(b >= 0x20 or b in b"\t\n\r" for b in head):
        raise ResultFileError(f"{path}: this is a text file (a sweep config?), not an HDF5 "
                              f"result file; run it first: pmoe-sweep run {path} writes "
                              "results/NAME.h5")


def read(path):
    """The result file at path, every column checked; ResultFileError (one line) otherwise."""
    path = os.fspath(path)
    require_result_file(path)
    rf = _in_child(_read, path)
    _check_values(rf)
    return rf


def _list_column(f, path, name, lengths):
    """A list column's per-trial lists: /trials/NAME holds their lengths, /trial_lists/NAME the
    values end to end."""
    values = _column(f, path, "/trial_lists/" + name, "f64")
    if (lengths < 0).any() or int(lengths.sum()) != len(values):
        raise ResultFileError(
            f"{path}: /trials/{name} lists {int(lengths.sum())} values in all (or a negative "
            f"length), /trial_lists/{name} holds {len(values)} (expected the same)")
    ends = np.cumsum(lengths)
    return [values[e - n:e] for e, n in zip(ends, lengths)]


def _cell_params(path, ids, keys, labels):
    """Each cell's parameters from its key; each id its key's hash, no cell twice."""
    params, seen = [], {}
    for i, (cid, key) in enumerate(zip(ids, keys)):
        p = split_key(key)
        if p is None:
            raise ResultFileError(f"{path}: /cells row {i}: key \"{key}\" is not a list of "
                                  "name=value; pairs")
        if int(cid) != hash_string(key):
            raise ResultFileError(f"{path}: /cells row {i}: cell_id {int(cid)} is not the hash "
                                  "of its key (a damaged file)")
        if int(cid) in seen:
            raise ResultFileError(f"{path}: /cells rows {seen[int(cid)]} and {i} are the same "
                                  f"cell ({labels[i]})")
        seen[int(cid)] = i
        params.append(p)
    return params


def _read(path):
    with _open(path) as f:
        try:
            attrs = _attributes(f, path)
            for group in ("cells", "trials"):
                if not isinstance(f.get(group), h5py.Group):
                    raise ResultFileError(f"{path}: no /{group} group: not a pmoe-sweep result "
                                          "file")
            strings = _theory_columns(f, path)
            ids = _column(f, path, "/cells/cell_id", "u64")
            strings += [_string_column(f, path, "/cells/key", len(ids)),
                        _string_column(f, path, "/cells/label", len(ids))]
            _check_cell_parameter_columns(f, path, len(ids))
            columns = _trial_columns(path, attrs["trial_columns"])
            trials, lists, metrics, descriptions, rows = {}, {}, {}, {}, None
            for name, kind in columns:
                where = "/trials/" + name
                if kind == "string":
                    strings.append(_string_column(f, path, where, rows))
                    rows = f[where].shape[0] if rows is None else rows
                    continue
                trials[name] = _column(f, path, where, kind, rows)
                rows = len(trials[name])
                ds = f[where]
                descriptions[name] = str(_text(ds.attrs.get("description", "")))
                if int(_text(ds.attrs.get("metric", 0)) or 0) or kind == "f64list":
                    metrics[name] = {"rate": bool(int(_text(ds.attrs.get("rate", 0)) or 0)),
                                     "help": descriptions[name], "list": kind == "f64list"}
                if kind == "f64list":
                    lists[name] = _list_column(f, path, name, trials[name])
        except ResultFileError:
            raise
        except Exception as e:  # h5py's own complaint about a damaged object: one line
            raise ResultFileError(f"{path}: damaged ({type(e).__name__}: "
                                  f"{str(e).splitlines()[0] if str(e) else ''})") from None
        text = {}
        for name in strings:
            try:
                text[name] = [str(v) for v in f[name].asstr()[:]]
            except Exception as e:
                raise ResultFileError(f"{path}: {name}: damaged strings "
                                      f"({str(e).splitlines()[0] if str(e) else ''})") from None
    keys, labels = text.pop("/cells/key"), text.pop("/cells/label")
    text = {name: values for name, values in text.items() if not name.startswith("/theory/")}
    for name, values in text.items():
        trials[name.rsplit("/", 1)[1]] = values
    params = _cell_params(path, ids, keys, labels)
    return ResultFile(path, attrs, ids, keys, labels, params, columns, trials, lists, metrics,
                      descriptions)


def _typed(values):
    """A parameter column as numbers where every present value is one, else as text."""
    import pandas as pd
    present = [v for v in values if v is not None]
    try:
        numbers = [float(v) for v in present]
    except ValueError:
        return pd.Series(values, dtype="object")
    if all(math.isfinite(x) and x == int(x) for x in numbers) and len(present) == len(values):
        return pd.Series([int(float(v)) for v in values], dtype="int64")
    return pd.Series([float(v) if v is not None else math.nan for v in values], dtype="float64")


def load(path):
    """A tidy pandas DataFrame of a result file, one row per trial, checked by read():

    - the cell's parameters as columns, named as in the config (N, model.kind, data.l_star, ...;
      numbers where every cell's value is one, NaN where a cell does not read the parameter),
      then cell_id and label (the swept values);
    - every /trials column: status and stop_reason as pandas categoricals with their names
      (ok, diverged, infeasible, error; not trained, zero_train_error, epoch_cap, step_cap,
      diverged, stopping_rule), success and zero_train_error as bool, integer metrics with
      NaN where a trial did not record them (stored as -1), list metrics as one numpy array
      per trial;
    - df.attrs: the file's root attributes (name, config, trials_per_cell, master_seed, ...),
      and df.attrs["methods"]: every parameter's value as used (placeholders resolved), seed,
      budget, commit, numerics version, build and a line to cite (pmoe.methods).
    """
    import pandas as pd
    rf = read(path)
    at = rf.cell_index()
    names = []
    for p in rf.params:
        names += [k for k in p if k not in names]
    data = {}
    for name in names:
        data[name] = _typed([rf.params[i].get(name) for i in at])
    data["cell_id"] = pd.Series(rf.trials["cell_id"], dtype="uint64")
    data["label"] = pd.Series([rf.labels[i] for i in at], dtype="object")
    for name, kind in rf.columns:
        if name == "cell_id":
            continue
        v = rf.trials[name]
        if name == "status":
            data[name] = pd.Categorical.from_codes(v.astype(int), enum_names(rf, name, STATUS))
        elif name == "stop_reason":
            data[name] = pd.Categorical.from_codes(v.astype(int),
                                                   enum_names(rf, name, STOP_REASON))
        elif name in FLAGS:
            data[name] = v.astype(bool)
        elif kind == "f64list":
            data[name] = pd.Series(rf.lists[name], dtype="object")
        elif name in rf.metrics and kind in ("i64", "i32", "u8"):
            data[name] = np.where(v == -1, np.nan, v.astype(float)) if kind != "u8" else v
        elif kind == "string":
            data[name] = pd.Series(v, dtype="object")
        else:
            data[name] = v
    df = pd.DataFrame(data)
    from pmoe import methods
    df.attrs = dict(rf.attrs, methods=methods.of(rf))
    return df

