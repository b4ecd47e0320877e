#!/usr/bin/python3
"""Entry point of pmoe.plots.plot_results (analysis/python/pmoe/plots/plot_results.py).

    /usr/bin/python3 analysis/plots/plot_results.py --help"""
import os
import sys

# The package lives in analysis/python; this script is the one place that puts it on the path.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from pmoe.cli import operands, run  # noqa: E402
from pmoe.plots.plot_results import main  # noqa: E402


def first_operand(argv):
    """The result file: the first operand (the second is the folder the figures go to)."""
    return operands("--analyze", "--formats", "--size")(argv)[:1]


if __name__ == "__main__":
    sys.exit(run(main, check=first_operand))
