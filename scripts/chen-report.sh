#!/usr/bin/env bash
# Chen et al.'s claims (NeurIPS 2022, the switch MoE on cluster data, MODEL.md §8) as sweeps, and
# the report page that says which hold: runs the Chen configs (quick: sweeps/configs/chen/quick/,
# full: the shipped sweeps/configs/chen/chen_*.ini) into results/chen/SCALE/, then writes
# results/chen/report-SCALE.html (and results/chen/report.html).
#
#   bash scripts/chen-report.sh quick   # a few minutes on 2 cores (README, Chen et al.'s switch MoE)
#   bash scripts/chen-report.sh full    # the shipped scale; its time is in the README
#
# Running it again resumes: finished sweeps are not recomputed. Extra arguments go to
# pmoe-sweep run (e.g. --threads 1).
set -euo pipefail
cd "$(dirname "$0")/.."

scale=${1:-quick}
shift || true
case "$scale" in
  quick) configs=sweeps/configs/chen/quick ;;
  full) configs=sweeps/configs/chen ;;
  *) echo "chen-report: unknown scale \"$scale\" (expected quick or full)" >&2; exit 2 ;;
esac
for tool in build/sweeps/pmoe-sweep build/analysis/pmoe-analyze; do
  [ -x "$tool" ] || { echo "chen-report: $tool is missing: build first (bash scripts/build.sh)" >&2; exit 2; }
done

out=results/chen/$scale
mkdir -p "$out"
start=$(date +%s)
for name in chen_table chen_curves chen_vs_N chen_variants; do
  t0=$(date +%s)
  force=()
  # A quick-scale file computed by another version of the tool (or of its config) cannot be
  # resumed: start it over. A full-scale one is never discarded: pmoe-sweep stops and says why.
  if [[ $scale == quick && -e $out/$name.h5 ]] &&
     ! build/sweeps/pmoe-sweep plan "$configs/$name.ini" --out "$out/$name.h5" > /dev/null 2>&1; then
    echo "chen-report: $out/$name.h5 holds another computation; starting it over"
    force=(--force)
  fi
  build/sweeps/pmoe-sweep run "$configs/$name.ini" --out "$out/$name.h5" "${force[@]}" "$@" | tail -n 1
  echo "chen-report: $name: $(( $(date +%s) - t0 )) s"
done
echo "chen-report: sweeps done in $(( $(date +%s) - start )) s"
/usr/bin/python3 analysis/report/paper_report.py "$out" --paper chen \
  --out "results/chen/report-$scale.html" --scale "$scale" --analyze build/analysis/pmoe-analyze
cp "results/chen/report-$scale.html" results/chen/report.html
echo "chen-report: open results/chen/report.html ($(( $(date +%s) - start )) s in all)"
