#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds pmoe-sim into build/ (Release).
#
#   bash scripts/build.sh          # everything: the tools, the test suite (scripts/test.sh)
#   bash scripts/build.sh --tools  # only pmoe-sim, pmoe-sweep and pmoe-analyze, and only the
#                                  # packages they need (their plots and report pages included)
#   bash scripts/build.sh --tools --build-deps-only
#                                  # the same, installing only what building needs (the main
#                                  # job, which installs the Python packages meanwhile)
#
# Further arguments go to CMake's configure step, e.g. -DPMOE_MARCH=x86-64-v3 for cluster builds.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=all
deps=()  # install-deps.sh's group: the tools' packages by default
if [[ ${1:-} == --tools ]]; then
  mode=tools
  shift
  if [[ ${1:-} == --build-deps-only ]]; then
    deps=(--build)
    shift
  fi
fi
# A compiler cache, where installed, makes rebuilds (and builds of other checkouts) cheap.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [[ $mode == tools ]]; then
  bash scripts/install-deps.sh "${deps[@]}"
  # A fresh build directory is configured without the test suite (whose Catch2 may be missing);
  # one the test command configured keeps its tests, only the tools are built here.
  tests=()
  [[ -e build/CMakeCache.txt ]] || tests=(-DPMOE_BUILD_TESTS=OFF)
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "${tests[@]}" "$@" >/dev/null
  cmake --build build -j"$(nproc)" --target pmoe-tools
else
  bash scripts/install-deps.sh --tests
  bash scripts/install-mnist.sh  # the MNIST digits the tests and the MNIST configs read
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPMOE_BUILD_TESTS=ON "${launcher[@]}" "$@" \
    >/dev/null
  cmake --build build -j"$(nproc)"
fi
