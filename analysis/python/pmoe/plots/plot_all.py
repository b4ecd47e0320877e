"""The figures of every result file in a folder (what `make -f Makefile.plots` runs):
RESULTS/NAME.h5 -> PLOTS/NAME/ (plot_results), only for files whose result file, plotting
scripts or pmoe-analyze changed since their figures were drawn (PLOTS/NAME/.done).

File names never reach a shell (issue 44): make split names at spaces and its recipes handed
them to sh, so a file named `$(touch x).h5` ran a command and one name with a space stopped the
figures of every other file. Here each name is one argv word, and one file that cannot be drawn
is reported without stopping the others (exit 1 at the end, naming them)."""
import argparse
import glob
import os
import shlex
import stat
import subprocess
import sys

from pmoe import paths

SCRIPT = os.path.join(paths.ROOT, "analysis", "plots", "plot_results.py")
SCRIPT_GLOBS = ("analysis/plots/*.py", "analysis/python/pmoe/*.py",
                "analysis/python/pmoe/plots/*.py", "analysis/python/pmoe/plots/pmoe.mplstyle")


def mtime(path):
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None


def is_regular(path):
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # a dangling link
        return False


def result_files(folder):
    """The regular *.h5 files directly in folder (shards live in NAME.shards/, not drawn)."""
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    return [os.path.join(folder, n) for n in names
            if n.endswith(".h5") and is_regular(os.path.join(folder, n))]


def stale(h5, stamp, newest_input):
    done = mtime(stamp)
    return done is None or done < max(mtime(h5) or 0, newest_input)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="the folder of result files")
    ap.add_argument("plots", help="the folder the figures go to (PLOTS/NAME/)")
    ap.add_argument("--analyze", default=paths.ANALYZE, help="the pmoe-analyze binary")
    ap.add_argument("--size", choices=("single", "double"), default="double",
                    help="figures one journal column wide (3.5 in) or two (7.2 in)")
    args = ap.parse_args(argv)
    if not os.access(args.analyze, os.X_OK):
        print(f"{args.analyze} is missing: build first (bash scripts/build.sh)", file=sys.stderr)
        return 1
    inputs = [p for g in SCRIPT_GLOBS for p in glob.glob(os.path.join(paths.ROOT, g))]
    newest = max([mtime(p) or 0 for p in inputs] + [mtime(args.analyze) or 0])
    files, failed = result_files(args.results), []
    for h5 in files:
        outdir = os.path.join(args.plots, os.path.basename(h5)[:-3])
        stamp = os.path.join(outdir, ".done")
        if not stale(h5, stamp, newest):
            continue
        os.makedirs(outdir, exist_ok=True)
        # "--" first: a file whose name starts with "-" is a file, not an option.
        command = [sys.executable, SCRIPT, "--analyze", args.analyze, "--size", args.size, "--",
                   h5, outdir]
        print(shlex.join(command), flush=True)
        if subprocess.run(command).returncode != 0:
            failed.append(h5)
            continue
        with open(stamp, "w"):
            pass
    print(f"plots: {len(files)} result file(s) in {args.plots}/")
    if failed:
        print("error: no figures for " + ", ".join(shlex.quote(f) for f in failed) +
              " (their errors above); the other files' figures are drawn", file=sys.stderr)
        return 1
    return 0
