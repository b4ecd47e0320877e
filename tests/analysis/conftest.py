"""pytest's set-up for the Python tests: the package (analysis/python) and this folder's helpers
on the path, the one place that puts them there."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "analysis", "python"))
sys.path.insert(0, HERE)
