#!/usr/bin/env bash
# The main job: installs missing packages, builds, then runs the default cell of each model
# (separate pMoE, joint pMoE, CNN) on the default data set and prints their summaries.
# The sweep engine, analysis and plots take this place as they land (see README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p results
sim=build/sim/pmoe-sim
trials=${TRIALS:-20}
for N in 100 1000; do
  $sim --model separate --l 4 --N "$N" --trials "$trials"
  $sim --model joint --k 8 --l 6 --m 40 --N "$N" --trials "$trials"
  $sim --model cnn --m 40 --N "$N" --trials "$trials"
done | tee results/main-job.txt
echo "main job: summaries written to results/main-job.txt"
