#!/usr/bin/env bash
# The paper's claims (Chowdhury et al., ICML 2023, §5.1) as sweeps, and the report page that says
# which hold: runs every config of sweeps/configs/paper/ (quick: sweeps/configs/paper/quick/) into
# results/paper/SCALE/, then writes results/paper/report-SCALE.html (and results/paper/report.html).
#
#   bash scripts/paper-report.sh quick   # about ten minutes on 2 cores (README, "The paper's claims")
#   bash scripts/paper-report.sh full    # the shipped scale; its time is in the README
#
# Running it again resumes: finished sweeps are not recomputed. Extra arguments go to
# pmoe-sweep run (e.g. --threads 1).
set -euo pipefail
cd "$(dirname "$0")/.."

scale=${1:-quick}
shift || true
case "$scale" in
  quick) configs=sweeps/configs/paper/quick ;;
  full) configs=sweeps/configs/paper ;;
  *) echo "paper-report: unknown scale \"$scale\" (expected quick or full)" >&2; exit 2 ;;
esac
for tool in build/sweeps/pmoe-sweep build/analysis/pmoe-analyze; do
  [ -x "$tool" ] || { echo "paper-report: $tool is missing: build first (bash scripts/build.sh)" >&2; exit 2; }
done

# The MNIST configs (the paper's own digits) read them from where this installs them.
bash scripts/install-mnist.sh

out=results/paper/$scale
mkdir -p "$out"
start=$(date +%s)
for config in "$configs"/[a-g]_*.ini; do
  name=$(basename "$config" .ini)
  t0=$(date +%s)
  build/sweeps/pmoe-sweep run "$config" --out "$out/$name.h5" "$@" | tail -n 1
  echo "paper-report: $name: $(( $(date +%s) - t0 )) s"
done
echo "paper-report: sweeps done in $(( $(date +%s) - start )) s"
/usr/bin/python3 analysis/report/paper_report.py "$out" --out "results/paper/report-$scale.html" \
  --scale "$scale" --analyze build/analysis/pmoe-analyze
cp "results/paper/report-$scale.html" results/paper/report.html
echo "paper-report: open results/paper/report.html ($(( $(date +%s) - start )) s in all)"
