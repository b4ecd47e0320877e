#!/usr/bin/python3
"""Entry point of pmoe.plots.plot_all (analysis/python/pmoe/plots/plot_all.py), which
Makefile.plots runs.

    /usr/bin/python3 analysis/plots/plot_all.py --help"""
import os
import sys

# The package lives in analysis/python; this script is the one place that puts it on the path.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from pmoe.cli import run  # noqa: E402
from pmoe.plots.plot_all import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(run(main))
