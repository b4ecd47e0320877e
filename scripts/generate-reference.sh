#!/bin/sh
# Writes docs/reference/*.md from the tools themselves (the reference test compares the
# checked-in files with this output). Usage: scripts/generate-reference.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$root/docs/reference
mkdir -p "$out"
"$build/sim/pmoe-sim" --reference markdown >"$out/pmoe-sim.md"
"$build/sim/pmoe-sim" --list-params --markdown >"$out/parameters.md"
"$build/sweeps/pmoe-sweep" --reference markdown >"$out/pmoe-sweep.md"
"$build/sweeps/pmoe-sweep" --reference schema >"$out/result-file.md"
"$build/analysis/pmoe-analyze" --reference markdown >"$out/pmoe-analyze.md"
echo "wrote $out/{pmoe-sim,parameters,pmoe-sweep,result-file,pmoe-analyze}.md"
