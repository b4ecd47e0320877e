#!/usr/bin/python3
"""The layering check itself: silent on a tree whose includes point down, and naming the file,
line and layers of an include that points up (a data header including a family header)."""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layers.py")


def write(root, path, text):
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    with open(os.path.join(root, path), "w", encoding="utf-8") as f:
        f.write(text)


def run(root):
    return subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as root:
    write(root, "include/pmoe/core/rng.hpp", "#pragma once\n")
    write(root, "include/pmoe/family/family.hpp", '#include "pmoe/data/data_source.hpp"\n')
    write(root, "include/pmoe/data/data_source.hpp", '#include "pmoe/core/rng.hpp"\n')
    write(root, "analysis/lib/results.cpp", '#include "pmoe/io/h5_file.hpp"\n')
    good = run(root)
    assert good.returncode == 0, good.stdout + good.stderr

    write(root, "include/pmoe/data/data_source.hpp",
          '#include "pmoe/core/rng.hpp"\n#include "pmoe/family/family.hpp"\n')
    write(root, "analysis/lib/results.cpp", '  #  include "pmoe/trial/trial.hpp"\n')
    bad = run(root)
    assert bad.returncode == 1, bad.stdout
    assert ('include/pmoe/data/data_source.hpp:2: layer data includes "pmoe/family/family.hpp" '
            "of layer family") in bad.stdout, bad.stdout
    assert "analysis/lib/results.cpp:1: layer analysis includes" in bad.stdout, bad.stdout
    assert "2 include(s) against the layer order" in bad.stdout, bad.stdout

    write(root, "sim/tool/main.cpp", '#include "pmoe/nowhere/x.hpp"\n')
    unknown = run(root)
    assert "pmoe/nowhere/, a folder of no declared layer" in unknown.stdout, unknown.stdout

    write(root, "sweeps/newplace/x.cpp", '#include "pmoe/core/rng.hpp"\n')
    undeclared = run(root)
    assert undeclared.returncode == 1, undeclared.stdout
    assert "sweeps/newplace: C++ files in a folder of no declared layer" in undeclared.stdout, \
        undeclared.stdout
print("ok")
