#!/usr/bin/python3
"""Entry point of pmoe.chen.agreement (analysis/python/pmoe/chen/agreement.py).

    /usr/bin/python3 sweeps/bench/peer/chen_agreement.py --help"""
import os
import sys

# The package lives in analysis/python; this script is the one place that puts it on the path.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "analysis", "python"))
from pmoe.cli import run  # noqa: E402
from pmoe.chen.agreement import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(run(main))
