#!/usr/bin/python3
"""Fails when a header or source includes a header of a layer above it.

The layers (docs/ARCHITECTURE.md "Layers"): each may include its own headers and those of the
layers it lists in LAYERS, nothing else. A directory of sources belongs to the layer of DIRS.
Usage: check_layers.py SOURCE_DIR   (prints every violation; exit 1 if any)
"""
import os
import re
import sys

# Layer -> the layers below it that it may include. Analysis reads files: io, stats and the
# core's key text, never the simulator (data, models, train, family, trial) or the sweep engine.
LAYERS = {
    "core": [],
    "io": ["core"],
    "stats": ["core"],
    "data": ["core", "io"],  # the data sets read nothing of the models or their training
    # The losses and the optimizer step live with the models that use them (models/loss.hpp,
    # optimizer.hpp); training drives models over data sets.
    "models": ["core"],
    "train": ["core", "data", "models"],
    "family": ["core", "io", "data", "models", "train"],
    "trial": ["core", "io", "data", "models", "train", "family"],
    "sweep": ["core", "io", "stats", "data", "models", "train", "family", "trial"],
    # Precision targets are a work source registered with the sweep engine (config_section.hpp),
    # which never names them.
    "precision": ["core", "io", "stats", "data", "models", "train", "family", "trial", "sweep"],
    "analysis": ["core", "io", "stats"],
    # The command-line layer of the three tools: base and io only, so pmoe-analyze stays apart.
    "cli": ["core", "io"],
    "tool": ["core", "io", "stats", "cli", "data", "models", "train", "family", "trial", "sweep",
             "precision", "analysis"],
    "bench": ["core", "io", "stats", "cli", "data", "models", "train", "family", "trial",
              "sweep", "precision", "analysis", "tool"],
}

# Directories (relative to the source root) and their layer; an include "pmoe/X/..." is in the
# layer of include/pmoe/X.
DIRS = {
    "include/pmoe/core": "core", "sim/core": "core",
    "include/pmoe/io": "io", "sim/io": "io",
    "include/pmoe/stats": "stats", "sim/stats": "stats",
    "include/pmoe/cli": "cli", "sim/cli": "cli",
    "include/pmoe/data": "data", "sim/data": "data",
    "include/pmoe/models": "models", "sim/models": "models",
    "include/pmoe/train": "train", "sim/train": "train",
    "include/pmoe/family": "family", "sim/family": "family",
    "sim/f64": "family",  # the tests' double-precision models and the SGD families' twins
    "include/pmoe/trial": "trial", "sim/trial": "trial",
    "include/pmoe/sweep": "sweep",
    "include/pmoe/sweep/adaptive": "sweep", "sweeps/adaptive": "sweep",
    "include/pmoe/sweep/grid": "sweep", "sweeps/grid": "sweep",
    "include/pmoe/sweep/run": "sweep", "sweeps/run": "sweep",
    "include/pmoe/sweep/store": "sweep", "sweeps/store": "sweep",
    "include/pmoe/precision": "precision", "sweeps/precision": "precision",
    "include/pmoe/analysis": "analysis", "analysis/lib": "analysis",
    "sim/tool": "tool", "sweeps/tool": "tool", "analysis/tool": "tool",
    "sweeps/bench/speed": "bench", "sweeps/bench/adaptive": "bench",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"pmoe/([a-z_]+)/')


# Every folder of C++ under these roots must be in DIRS: a moved or new folder is not left out.
SOURCE_ROOTS = ["include/pmoe", "sim", "sweeps", "analysis"]


def undeclared_folders(root):
    found = []
    for top in SOURCE_ROOTS:
        for directory, _, names in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(directory, root)
            if rel not in DIRS and any(n.endswith((".hpp", ".cpp", ".h")) for n in names):
                found.append(f"{rel}: C++ files in a folder of no declared layer "
                             "(add it to DIRS of tests/layering/check_layers.py)")
    return found


def violations(root):
    found = undeclared_folders(root)
    for directory, layer in sorted(DIRS.items()):
        path = os.path.join(root, directory)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".hpp", ".cpp", ".h", ".in")):
                continue
            with open(os.path.join(path, name), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = DIRS.get("include/pmoe/" + m.group(1))
                    if target is None:
                        found.append(f"{directory}/{name}:{number}: includes pmoe/{m.group(1)}/, "
                                     "a folder of no declared layer (tests/layering/check_layers.py)")
                    elif target != layer and target not in LAYERS[layer]:
                        found.append(f"{directory}/{name}:{number}: layer {layer} includes "
                                     f"{line.strip()[len('#include '):]} of layer {target} "
                                     f"(allowed: {', '.join(LAYERS[layer]) or 'none'})")
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_layers.py SOURCE_DIR")
    found = violations(sys.argv[1])
    for v in found:
        print(v)
    print(f"{len(found)} include(s) against the layer order" if found else "layers point one way")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
