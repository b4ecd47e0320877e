#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds pmoe-sim into build/ (Release).
# Extra arguments go to CMake's configure step, e.g. -DPMOE_MARCH=x86-64-v3 for cluster builds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# A compiler cache, where installed, makes rebuilds (and builds of other checkouts) cheap.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
cmake --build build -j"$(nproc)"
