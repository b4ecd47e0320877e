#!/usr/bin/python3
"""Entry point of pmoe.chen.report (analysis/python/pmoe/chen/report.py).

    /usr/bin/python3 analysis/report/chen_report.py --help"""
import os
import sys

# The package lives in analysis/python; this script is the one place that puts it on the path.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from pmoe.cli import result_files, run  # noqa: E402
from pmoe.chen.report import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(run(main, check=result_files))
