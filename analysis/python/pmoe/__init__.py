"""pmoe: reading, analysing, plotting and reporting pmoe-sim result files.

Importable with Debian's Python and no install step: put analysis/python on sys.path
(`PYTHONPATH=analysis/python /usr/bin/python3 ...`) or run the scripts under analysis/.
"""
