"""Issue 44, hostile names on the Python side: result file names with $(...), spaces and quotes
through Makefile.plots (nothing runs; every file still gets its figures); a name attribute with
../ never leaves the folder asked for (plot_results and pmoe-analyze report); a FIFO or a
directory given to pmoe.load is refused by name at once; a printed command is quoted."""
import os
import shlex
import shutil
import subprocess
import sys
import threading

import h5py
import pytest

from pmoe import cli, paths, results
from pmoe.results import ResultFileError

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HOSTILE = ["$(touch PWNED)", "sp ace", "quo'te", "`touch PWNED`", "-dash"]


def tool(env, *parts):
    path = os.environ.get(env) or os.path.join(ROOT, "build", *parts)
    if not os.path.exists(path):
        pytest.skip(f"{parts[-1]} is not built (ctest passes {env})")
    return path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A small sweep pmoe-sweep wrote (N swept, so figures are drawn)."""
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "tiny.ini").write_text("name = tiny\nseed = 3\ntrials = 2\nN_test = 100\n"
                                     "[model]\nm = 8\nmax_steps = 200\n[grid]\nN = 20,40,80\n")
    out = folder / "tiny.h5"
    r = subprocess.run([tool("PMOE_SWEEP", "sweeps", "pmoe-sweep"), "run",
                        str(folder / "tiny.ini"), "--out", str(out)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    return str(out)


def pngs(folder):
    return [f for f in os.listdir(folder) if f.endswith(".png")] if os.path.isdir(folder) else []


def test_makefile_plots_passes_no_name_to_a_shell(tiny, tmp_path):
    res = tmp_path / "results"
    res.mkdir()
    for name in HOSTILE:
        shutil.copy(tiny, res / f"{name}.h5")
    make = ["make", "-f", "Makefile.plots", f"RESULTS={res}",
            f"ANALYZE={tool('PMOE_ANALYZE', 'analysis', 'pmoe-analyze')}"]
    r = subprocess.run(make, cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    for where in (ROOT, str(tmp_path), str(res)):
        assert not os.path.exists(os.path.join(where, "PWNED")), where
    for name in HOSTILE:
        assert pngs(res / "plots" / name), (name, r.stdout, r.stderr)
    again = subprocess.run(make, cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0 and "plot_results.py" not in again.stdout  # up to date


def test_one_file_that_fails_does_not_stop_the_others(tiny, tmp_path):
    res = tmp_path / "results"
    res.mkdir()
    shutil.copy(tiny, res / "good one.h5")
    (res / "broken.h5").write_text("not HDF5")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "analysis/plots/plot_all.py"),
                        str(res), str(res / "plots"), "--analyze",
                        tool("PMOE_ANALYZE", "analysis", "pmoe-analyze")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "broken.h5" in r.stderr
    assert pngs(res / "plots" / "good one")


def renamed(tiny, folder, name):
    path = os.path.join(folder, "sweep.h5")
    shutil.copy(tiny, path)
    with h5py.File(path, "r+") as f:
        f.attrs["name"] = name
    return path


@pytest.mark.parametrize("name", ["../../escaped", "/tmp/abs", "..", ".hidden", "a/b", ""])
def test_a_name_attribute_never_leaves_the_folder(tiny, tmp_path, name):
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    path = renamed(tiny, str(tmp_path), name)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "analysis/plots/plot_results.py"),
                        path, str(inner / "figs"), "--analyze",
                        tool("PMOE_ANALYZE", "analysis", "pmoe-analyze"), "--formats", "png"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    written = [os.path.join(d, f) for d, _, fs in os.walk(tmp_path) for f in fs]
    outside = [w for w in written if not w.startswith(str(inner / "figs") + os.sep)
               and w != path]
    assert outside == [] and pngs(inner / "figs")
    assert not os.path.exists("/tmp/abs_accuracy_vs_N.png")


def test_report_figures_stay_in_their_folder(tiny, tmp_path):
    path = renamed(tiny, str(tmp_path), "../../escaped")
    figs = tmp_path / "x" / "figs"
    r = subprocess.run([tool("PMOE_ANALYZE", "analysis", "pmoe-analyze"), "report", path,
                        "--figures", str(figs), "--out", str(tmp_path / "page.html")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert pngs(figs) and not list(tmp_path.glob("escaped*"))
    # One path component (pmoe.paths.component), then one dot in the file name (its dots
    # written -): "../../escaped" -> "_._.._escaped" -> "_-_--_escaped".
    assert all(f.startswith("_-_--_escaped_") for f in pngs(figs))


def test_component_rule():
    assert paths.component("../../x") == "_._.._x"
    assert paths.component("..") == "_."
    assert paths.component("") == "_"
    assert paths.component("tiny-1.5,N=2") == "tiny-1.5,N=2"
    assert "/" not in paths.component("/etc/passwd")


def test_special_files_are_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo.h5"
    os.mkfifo(fifo)
    timer = threading.Timer(10, lambda: open(fifo, "wb").close())  # unblocks a hung reader
    timer.start()
    try:
        with pytest.raises(ResultFileError, match="FIFO"):
            results.load(str(fifo))
    finally:
        timer.cancel()
    with pytest.raises(ResultFileError, match="a directory"):
        results.load(str(tmp_path))
    with pytest.raises(ResultFileError, match="no such file"):
        results.load(str(tmp_path / "none.h5"))


def test_printed_commands_are_quoted(capsys):
    error = subprocess.CalledProcessError(2, ["pmoe-analyze", "summary", "$(touch x) y.h5"],
                                          stderr="bad")
    status = cli.run(lambda: (_ for _ in ()).throw(error), argv=[])
    said = capsys.readouterr().err
    assert status == cli.BAD_INPUT
    assert said.rstrip().endswith("(summary " + shlex.quote("$(touch x) y.h5") + ")")
