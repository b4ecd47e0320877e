"""pmoe: reading, analysing, plotting and reporting pmoe-sim result files.

Importable with Debian's Python and no install step: put analysis/python on sys.path
(`PYTHONPATH=analysis/python /usr/bin/python3 ...`) or run the scripts under analysis/.

    import pmoe
    df = pmoe.load("results/demo.h5")   # one row per trial, parameters as columns

Modules: results (the validating reader, load), cli (errors and exit statuses of the scripts),
atomic (files written whole or not at all), paths; readings (pmoe-analyze's quantile readings,
shapes and controls); report (evidence, claim rules, the page
renderer pmoe.report.page), plots, chen, peer, examples. docs/guide/python.md describes them."""
from pmoe.results import ResultFileError, load, read

__all__ = ["ResultFileError", "load", "read"]
