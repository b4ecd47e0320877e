"""Where the package finds the rest of the checkout: the repository root and the built tools,
so that scripts work from any current directory."""
import os

# analysis/python/pmoe/paths.py -> the repository root, three folders up from the package.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))
ANALYZE = os.path.join(ROOT, "build", "analysis", "pmoe-analyze")
SIM = os.path.join(ROOT, "build", "sim", "pmoe-sim")
