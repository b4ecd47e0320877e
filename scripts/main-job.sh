#!/usr/bin/env bash
# The main job: installs missing packages, builds, runs (or resumes) the demo sweep
# (sweeps/configs/demo.ini, ~10 s on 2 cores), and summarizes its result file.
# Analysis tables and plots join here when pmoe-analyze and Makefile.plots land (README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build/sweeps/pmoe-sweep run sweeps/configs/demo.ini
build/sweeps/pmoe-sweep status results/demo.h5
/usr/bin/python3 analysis/examples/read_results.py results/demo.h5 | tee results/demo-summary.txt
echo "main job: results in results/demo.h5, per-cell summary in results/demo-summary.txt"
