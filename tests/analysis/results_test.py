"""pmoe.load and the validating reader (pmoe.results) on a small file and on generated damage:
every damage is refused with one line naming the file and what is wrong, never a traceback or a
crash, and the scripts exit non-zero with that line."""
import math
import os
import re
import subprocess
import sys

import h5py
import numpy as np
import pytest

import synthetic
from pmoe import results
from pmoe.results import ResultFileError

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


@pytest.fixture(autouse=True)
def short_deadline(monkeypatch):
    """A damaged heap can make HDF5 loop: the reading child is killed past its deadline (60 s
    by default; 5 s here keeps the test short, and a healthy read takes milliseconds)."""
    monkeypatch.setattr(results, "READ_SECONDS", 5.0)


@pytest.fixture
def good(tmp_path):
    return synthetic.write(str(tmp_path / "good.h5"), synthetic.make())


def test_load_gives_one_row_per_trial_with_named_categories(good):
    df = results.load(good)
    assert len(df) == 4 * 3  # 4 cells, 3 trials each
    assert list(df.columns[:4]) == ["N", "data.l_star", "model.kind", "model.l"]
    assert str(df["status"].dtype) == "category"
    assert list(df["status"].cat.categories) == ["ok", "diverged", "infeasible", "error"]
    assert list(df["stop_reason"].cat.categories)[1] == "zero_train_error"
    assert (df["status"] == "ok").all() and (df["stop_reason"] == "zero_train_error").all()
    assert df["N"].dtype == np.int64 and set(df["N"]) == {50, 100}
    assert set(df["model.kind"]) == {"separate", "cnn"}
    assert df["success"].dtype == bool
    assert df.attrs["trials_per_cell"] == 3 and df.attrs["name"] == "synthetic"
    # Parameters and trials line up: each cell's rows carry its own N.
    by_cell = df.groupby("cell_id")["N"].nunique()
    assert (by_cell == 1).all()
    assert df.groupby(["model.kind", "N"]).size().eq(3).all()


def test_load_names_every_status_and_stop_reason(tmp_path):
    c = synthetic.make()
    synthetic.set_column(c, "status", np.array([0, 1, 2, 3] * 3))
    synthetic.set_column(c, "stop_reason", np.array([0, 1, 2, 3, 4, 5] * 2))
    acc = synthetic.column(c, "test_acc").copy()
    acc[np.array([0, 1, 2, 3] * 3) != 0] = math.nan  # what a failed trial records
    synthetic.set_column(c, "test_acc", acc)
    df = results.load(synthetic.write(str(tmp_path / "s.h5"), c))
    assert list(df["status"][:4]) == ["ok", "diverged", "infeasible", "error"]
    assert list(df["stop_reason"][:6]) == ["not trained", "zero_train_error", "epoch_cap",
                                           "step_cap", "diverged", "stopping_rule"]


def test_integer_metrics_not_recorded_are_nan_and_lists_are_arrays(tmp_path):
    c = synthetic.make()
    lstar = synthetic.column(c, "realized_l_star").copy()
    lstar[0] = -1
    synthetic.set_column(c, "realized_l_star", lstar)
    df = results.load(synthetic.write(str(tmp_path / "m.h5"), c))
    assert math.isnan(df["realized_l_star"][0]) and df["realized_l_star"][1] == 4
    assert [len(x) for x in df["curve_entropy"][:3]] == [1, 2, 3]
    np.testing.assert_array_equal(df["curve_entropy"][2], c["lists"]["curve_entropy"][2])


def test_a_class_the_cell_does_not_have_counts_minus_one(tmp_path):
    """A multiclass file up to c = 4 stores train_count_3 = -1 in its c = 3 cells (seen in the
    plots' multiclass test file): that is no damage."""
    c = synthetic.make()
    synthetic.set_column(c, "train_count_1", np.full(12, -1))
    assert (results.load(synthetic.write(str(tmp_path / "c.h5"), c))["train_count_1"] == -1).all()


def damaged(tmp_path, change):
    c = synthetic.make()
    change(c)
    return synthetic.write(str(tmp_path / "damaged.h5"), c)


def set_value(name, index, value, kind=None):
    def change(c):
        v = np.array(synthetic.column(c, name), dtype=object if kind == "string" else None)
        v = v.astype(float) if isinstance(value, float) and v.dtype.kind != "f" else v
        v[index] = value
        synthetic.set_column(c, name, v, kind)
    return change


# The damage every reader must refuse (a trial index out of range, test accuracy 5, a cell id
# that is not its key's hash, ...) is one list shared with the C++ readers,
# tests/support/damaged_files.tsv, run by damaged_files_test.py.


@pytest.mark.parametrize("content, kind", [
    (b"", "not a readable HDF5 file"), (b"\x89HDF\r\n\x1a\n" * 3, "not a readable HDF5 file"),
    # A config where a result file belongs: the C++ tools' words, and how to make one.
    (b"name = demo\ntrials = 2\n", "this is a text file (a sweep config?), not an HDF5 result "
     "file; run it first: pmoe-sweep run"), (b"PMJR\x00\x01", "a pmoe-sweep journal")])
def test_not_a_result_file(tmp_path, content, kind):
    path = tmp_path / "x.h5"
    path.write_bytes(content)
    with pytest.raises(ResultFileError, match=re.escape(kind)):
        results.read(str(path))


def test_a_missing_file_and_a_folder(tmp_path):
    with pytest.raises(ResultFileError, match="no such file"):
        results.read(str(tmp_path / "none.h5"))
    with pytest.raises(ResultFileError, match="a directory"):
        results.read(str(tmp_path))


def test_a_truncated_file(tmp_path, good):
    data = open(good, "rb").read()
    for keep in (len(data) // 2, len(data) - 100):
        path = tmp_path / f"cut{keep}.h5"
        path.write_bytes(data[:keep])
        with pytest.raises(ResultFileError):
            results.read(str(path))


def string_heap_offsets(data):
    """Byte offsets inside HDF5 global heap collections (signature GCOL): where the
    variable-length strings (keys, labels, messages) live."""
    out, at = [], data.find(b"GCOL")
    while at >= 0:
        out.extend(range(at + 8, min(len(data), at + 4096)))
        at = data.find(b"GCOL", at + 4)
    return out


def test_flipped_bytes_in_the_string_heap_never_crash_the_reader(tmp_path, good):
    """Every damage in the heap of strings is either harmless (padding, a character of a label)
    or a ResultFileError: the strings are read in a child process, so even a crash inside HDF5
    is one clear error here."""
    data = bytearray(open(good, "rb").read())
    offsets = string_heap_offsets(bytes(data))
    assert offsets, "the file has no global heap: the test would test nothing"
    rng = np.random.default_rng(5)
    refused = looped = 0
    for trial, at in enumerate(rng.choice(offsets, size=40, replace=False)):
        copy = bytearray(data)
        for k in range(8):  # a run of damaged bytes: a length, an index, an address
            if at + k < len(copy):
                copy[at + k] ^= 0xFF
        path = tmp_path / f"heap{trial}.h5"
        path.write_bytes(bytes(copy))
        try:
            results.read(str(path))
        except ResultFileError as e:
            assert str(e).startswith(str(path)) and "\n" not in str(e)
            refused += 1
            looped += "did not finish" in str(e)
    assert refused > 0


def test_random_damage_is_read_or_refused(tmp_path, good):
    data = open(good, "rb").read()
    rng = np.random.default_rng(11)
    for trial in range(40):
        copy = bytearray(data)
        for at in rng.integers(0, len(copy), size=int(rng.integers(1, 16))):
            copy[at] = int(rng.integers(0, 256))
        path = tmp_path / f"flip{trial}.h5"
        path.write_bytes(bytes(copy))
        try:
            results.read(str(path))
        except ResultFileError:
            pass


def run_script(*args, **kw):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, **kw)


@pytest.mark.parametrize("script", ["analysis/examples/read_results.py",
                                    "analysis/plots/plot_results.py"])
def test_scripts_refuse_a_damaged_file_in_one_line(tmp_path, script):
    path = damaged(tmp_path, set_value("test_acc", 3, 5.0))
    args = [script, path] + ([str(tmp_path / "plots")] if "plot" in script else [])
    r = run_script(*args)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.strip() == f"error: {path}: /trials row 3: test_acc = 5.0 (expected a " \
                               "fraction in [0, 1])"
    assert not os.path.exists(tmp_path / "plots") or not os.listdir(tmp_path / "plots")


def test_h5py_can_still_open_what_load_refuses(tmp_path):
    """The damage above is in the values, not the HDF5 structure: the reader's checks, not
    h5py, are what refuses them."""
    path = damaged(tmp_path, set_value("test_acc", 3, 5.0))
    with h5py.File(path, "r") as f:
        assert f["trials/test_acc"][3] == 5.0


def sweep_tool():
    """pmoe-sweep as ctest passes it (PMOE_SWEEP), else this checkout's build."""
    path = os.environ.get("PMOE_SWEEP") or os.path.join(ROOT, "build", "sweeps", "pmoe-sweep")
    if not os.path.exists(path):
        pytest.skip("pmoe-sweep is not built (ctest passes PMOE_SWEEP)")
    return path


def test_load_on_a_small_sweep(tmp_path):
    """A file pmoe-sweep wrote: every row a trial, the parameters its cells swept, the statuses
    named; the reader accepts what the tool writes."""
    config = tmp_path / "tiny.ini"
    config.write_text("name = tiny\nseed = 3\ntrials = 2\nN_test = 100\n[model]\nm = 8\n"
                      "max_steps = 200\n[grid]\nmodel.kind = separate,cnn\nN = 20,40\n")
    out = tmp_path / "tiny.h5"
    r = subprocess.run([sweep_tool(), "run", str(config), "--out", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    df = results.load(str(out))
    assert len(df) == 4 * 2 and df.attrs["trials_per_cell"] == 2
    assert set(df["model.kind"]) == {"separate", "cnn"} and set(df["N"]) == {20, 40}
    assert df["N"].dtype == np.int64
    assert set(df["status"].cat.categories) == {"ok", "diverged", "infeasible", "error"}
    assert set(df["status"]) <= {"ok", "diverged"}
    assert set(df["stop_reason"]) <= set(results.STOP_REASON)
    assert df.groupby(["model.kind", "N"]).size().eq(2).all()
    assert ((df["test_acc"] >= 0) & (df["test_acc"] <= 1)).all()
    with h5py.File(out, "r") as f:  # the rows are the file's rows, in its order
        np.testing.assert_array_equal(df["test_acc"], f["trials/test_acc"][:])


def test_code_names_come_from_the_file_s_descriptions():
    """status and stop_reason values are named as the file's column descriptions list them (the
    tools write them there), the built-in names only for a file that does not list them."""
    from pmoe import results as R

    class File:
        descriptions = {"status": "0 ok, 1 diverged, 2 infeasible, 3 error",
                        "stop_reason": "why training stopped: 0 not trained, 1 zero_train_error, "
                                       "2 epoch_cap, 3 step_cap, 4 diverged, 5 stopping_rule, "
                                       "6 a new reason",
                        "odd": "0 ok, 2 skipped"}
    assert R.enum_names(File, "status", ()) == R.STATUS
    assert R.enum_names(File, "stop_reason", ())[:6] == R.STOP_REASON
    assert R.enum_names(File, "stop_reason", ())[6] == "a new reason"
    assert R.enum_names(File, "odd", ("fallback",)) == ("fallback",)  # a gap: not a list
    assert R.enum_names(File, "absent", ("fallback",)) == ("fallback",)
