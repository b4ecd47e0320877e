#!/usr/bin/python3
"""Entry point of pmoe.report.agreement (analysis/python/pmoe/report/agreement.py).

    /usr/bin/python3 analysis/report/compare_reference.py --help"""
import os
import sys

# The package lives in analysis/python; this script is the one place that puts it on the path.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from pmoe.cli import run  # noqa: E402
from pmoe.report.agreement import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(run(main))
