#!/usr/bin/env bash
# Installs missing Debian packages (the tests' too: clang, Slurm, Chromium, pytest, ...), builds
# everything, and runs the whole test suite with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)"
# The fuzz targets with AddressSanitizer and UBSan, 5 s each over their seed corpora (ctest
# replays the corpora in every build; this builds build/fuzz-build with clang the first time).
if command -v clang++ >/dev/null || command -v clang++-14 >/dev/null; then
  bash ../scripts/fuzz.sh --seconds 5
else
  echo "test.sh: clang not installed: fuzz targets not run (bash scripts/install-deps.sh --tests installs it)"
fi
