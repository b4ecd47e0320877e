"""Where the package finds the rest of the checkout: the repository root and the built tools,
so that scripts work from any current directory."""
import os

# analysis/python/pmoe/paths.py -> the repository root, three folders up from the package.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))
ANALYZE = os.path.join(ROOT, "build", "analysis", "pmoe-analyze")
SIM = os.path.join(ROOT, "build", "sim", "pmoe-sim")

_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,=+")


def component(name):
    """A name read from a file (a result file's name attribute, say) as one file-name
    component: such a name is data, never a path (issue 44: a name "../../x" wrote figures
    outside the folder asked for). Every character outside letters, digits and _ - . , = + is
    written _, and a leading "." too (no "..", no hidden file); an empty name is "_". The one
    rule for every path built from such a name."""
    text = "".join(c if c in _SAFE else "_" for c in str(name))
    return "_" + text[1:] if text.startswith(".") else text or "_"
