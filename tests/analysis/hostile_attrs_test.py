"""Issue 44: one error mapping for a damaged shard attribute (pmoe-analyze said "error: stoll",
exit 1, while pmoe-sweep refused it by name, exit 2: now both refuse it by name, exit 2), and
--json output that stays valid JSON whatever bytes a path holds (a byte that is not UTF-8 is
written \\udcXX, which Python's surrogateescape turns back into the very byte)."""
import json
import os
import shutil
import subprocess

import h5py
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CONFIG = ("name = tiny\nseed = 3\ntrials = 1\nN_test = 100\n[model]\nm = 8\nmax_steps = 200\n"
          "[grid]\nN = 20,40\n")


def tool(env, *parts):
    path = os.environ.get(env) or os.path.join(ROOT, "build", *parts)
    if not os.path.exists(path):
        pytest.skip(f"{parts[-1]} is not built (ctest passes {env})")
    return path


def sweep():
    return tool("PMOE_SWEEP", "sweeps", "pmoe-sweep")


def analyze():
    return tool("PMOE_ANALYZE", "analysis", "pmoe-analyze")


@pytest.fixture(scope="module")
def shard(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shard")
    (folder / "c.ini").write_text(CONFIG)
    r = subprocess.run([sweep(), "run", str(folder / "c.ini"), "--shard", "1/2", "--out",
                        str(folder / "r.h5")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(folder / "r.shards" / "shard-1-of-2.h5")


@pytest.mark.parametrize("value", ["x/y", "1/0", "3/2", "1/99999999999999999999", "1/2junk"])
def test_a_damaged_shard_attribute_is_refused_by_name_by_both_tools(shard, tmp_path, value):
    path = str(tmp_path / "s.h5")
    shutil.copy(shard, path)
    with h5py.File(path, "r+") as f:
        f.attrs["shard"] = value
    for command in ([analyze(), "summary", path], [analyze(), "sample-complexity", path],
                    [sweep(), "status", path]):
        r = subprocess.run(command, capture_output=True, text=True)
        assert r.returncode == 2, (command, r.stderr)
        assert "attribute shard" in r.stderr and "stoll" not in r.stderr, r.stderr


def strings(value):
    """Every string in a JSON value, however nested."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [s for v in items for s in strings(v)]


def test_json_output_stays_valid_with_non_utf8_paths(tmp_path):
    folder = os.path.join(os.fsencode(tmp_path), b"r\xff\xfe-\xc3(")  # not UTF-8
    os.mkdir(folder)
    config = os.path.join(folder, b"c.ini")
    with open(config, "w") as f:
        f.write(CONFIG)
    out = os.path.join(folder, b"r.h5")
    for args in (["plan", config, "--out", out, "--json"],
                 ["run", config, "--out", out, "--json"],
                 ["status", out, "--json"]):
        r = subprocess.run([os.fsencode(sweep()), *[os.fsencode(a) for a in args]],
                           capture_output=True)
        assert r.returncode == 0, (args[0], r.stderr)
        data = json.loads(r.stdout.decode("utf-8"))  # valid UTF-8 and valid JSON
        found = [v for v in strings(data) if v.endswith("r.h5")]
        assert found and all(os.fsencode(v) == out for v in found), (args[0], found)
