#!/usr/bin/env bash
# The main job: installs the packages the tools need (not the tests': scripts/test.sh installs
# those), builds the three tools only, runs (or resumes) the demo sweep (sweeps/configs/demo.ini,
# ~2 s on 2 cores) and prints its first result, then runs the
# headline sweep (sweeps/configs/headline.ini: the CNN/pMoE ratio against n/l and the phase map
# over l, trained to zero training error; about a minute on 2 idle cores) and ends with its
# report page, results/headline-report.html, and the figures as PNG (make -f Makefile.plots adds
# PDF and SVG). About 4 minutes on a fresh 2-core machine (measured 233-263 s, first result
# 170-194 s: building packages 40-48 s, then the build 2-2.4 minutes beside the Python packages'
# install, the headline sweep 52-62 s, figures and page 13-16 s). Chen et al.'s page is one
# more command (printed at the end): scripts/chen-report.sh quick, about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --build
# The figures' and report pages' Python packages are installed while the tools compile and the
# sweeps run (needed only at the end): the build does not wait for them, and the first result
# comes about 8 s sooner. (The total stays: dpkg beside two compilers costs as much CPU as the
# core it left idle alone.) An interrupted install is finished by the next install-deps.sh.
mkdir -p build
python_log=build/install-python.log
bash scripts/install-deps.sh --python > "$python_log" 2>&1 &
python_install=$!
# The tools only (the tests are built by scripts/test.sh); the Python packages are on their way.
bash scripts/build.sh --tools --build-deps-only
# The demo's result file belongs to the main job: when an earlier version of the tool (or of
# demo.ini) computed it, pmoe-sweep refuses to resume into it, and the main job starts it over.
force=()
if [[ -e results/demo.h5 ]] && ! build/sweeps/pmoe-sweep plan sweeps/configs/demo.ini > /dev/null 2>&1; then
  echo "main job: results/demo.h5 holds another computation of the demo; starting it over"
  force=(--force)
fi
build/sweeps/pmoe-sweep run sweeps/configs/demo.ini "${force[@]}"
# The first result, before the longer headline sweep.
build/sweeps/pmoe-sweep status results/demo.h5
analyze=build/analysis/pmoe-analyze
$analyze summary results/demo.h5 > results/demo-summary.txt
$analyze exponent results/demo.h5 --over l --from 4 | tee results/demo-exponent.txt
echo "main job: first result after $SECONDS s"
headline_force=()
if [[ -e results/headline.h5 ]] && ! build/sweeps/pmoe-sweep plan sweeps/configs/headline.ini > /dev/null 2>&1; then
  echo "main job: results/headline.h5 holds another computation of the headline; starting it over"
  headline_force=(--force)
fi
build/sweeps/pmoe-sweep run sweeps/configs/headline.ini "${headline_force[@]}"
if ! wait "$python_install"; then
  cat "$python_log" >&2
  echo "main job: installing the Python packages failed (bash scripts/install-deps.sh --python; log above)" >&2
  exit 1
fi
head -n 1 "$python_log"  # what was installed (or that nothing was missing); apt's lines in the log
# The figures of both result files (PNG: the formats for a paper, PDF and SVG, would double the
# drawing time; make -f Makefile.plots draws all three) and the report page at the same time:
# each alone leaves a core idle at its ends.
mkdir -p results/plots
names=(demo headline)
plots=()
for name in "${names[@]}"; do
  /usr/bin/python3 analysis/plots/plot_results.py "results/$name.h5" "results/plots/$name" \
    --analyze "$analyze" --formats png > "results/plots/$name.log" 2>&1 &
  plots+=($!)
done
/usr/bin/python3 analysis/report/paper_report.py results --headline --scale headline \
  --out results/headline-report.html --analyze "$analyze"
for i in "${!names[@]}"; do
  name=${names[$i]}
  if ! wait "${plots[$i]}"; then
    cat "results/plots/$name.log" >&2
    echo "main job: drawing the $name figures failed (analysis/plots/plot_results.py; log above)" >&2
    exit 1
  fi
done
echo
echo "main job done in $SECONDS s:"
echo "  results      results/demo.h5 (HDF5; analysis/examples/read_results.py reads it)"
echo "  tables       results/demo-summary.txt, results/demo-exponent.txt"
echo "  figures      $(ls results/plots/demo/*.png | tr '\n' ' ')"
echo "  headline     results/headline.h5; figures in results/plots/headline/"
echo "  paper        make -f Makefile.plots   (PDF and SVG beside the PNGs, for every results/*.h5)"
echo "  report page  results/headline-report.html: does the CNN need more samples than pMoE by a"
echo "               factor growing with n/l, and is the router's phase transition at l*? (open it"
echo "               in a browser; every verdict with its rule, numbers and figures)"
echo "  next         bash scripts/chen-report.sh quick   (about a minute): Chen et al.'s switch MoE"
echo "               on cluster data, which of its claims hold, in results/chen/report.html"
