"""Files written whole or not at all (pmoe.atomic) and the scripts' one line on a full disk
(pmoe.cli): a write that fails leaves the previous file as it was and no temporary file behind.
The full disk is real: the child's file-size limit (RLIMIT_FSIZE; Python ignores SIGXFSZ, so a
write past it fails with EFBIG, as one past a full disk fails with ENOSPC)."""
import errno
import os
import subprocess
import sys

import pytest

from pmoe import atomic, cli

PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                       "python")


def test_a_failed_write_leaves_the_previous_file(tmp_path):
    page = tmp_path / "report.html"
    page.write_text("the previous page")
    with pytest.raises(OSError):
        with atomic.replaced(page) as f:
            f.write("half of a new page")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert page.read_text() == "the previous page"
    assert os.listdir(tmp_path) == ["report.html"]


def test_a_complete_write_replaces_a_symlink_rather_than_its_target(tmp_path):
    target = tmp_path / "someone_else.txt"
    target.write_text("theirs")
    (tmp_path / "page.html").symlink_to(target)
    atomic.write_text(tmp_path / "page.html", "mine")
    assert target.read_text() == "theirs"
    assert not os.path.islink(tmp_path / "page.html")
    assert (tmp_path / "page.html").read_text() == "mine"


def test_a_figure_is_whole(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3])
    atomic.save_figure(fig, tmp_path / "f.png", dpi=50)
    plt.close(fig)
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
    assert os.listdir(tmp_path) == ["f.png"]


def test_a_full_disk_is_one_line_and_exit_3(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("the previous page")
    code = f"""
import resource, sys
sys.path.insert(0, {PACKAGE!r})
from pmoe import atomic, cli
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
sys.exit(cli.run(lambda: atomic.write_text({str(page)!r}, "x" * 100000), argv=[]))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == cli.WRITE_FAILED, r.stderr
    assert r.stderr.startswith(f"error: {page}: File too large")
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr
    assert page.read_text() == "the previous page"
    assert os.listdir(tmp_path) == ["page.html"]
