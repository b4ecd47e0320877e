"""Figures of any result file: pmoe-analyze's tables (analyze), the figure functions (figures)
and the script drawing every figure of a file (plot_results, run by Makefile.plots)."""
