#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang, AddressSanitizer and UBSan, and runs each
# for a bounded time over its seed corpus (tests/fuzz/corpus/NAME; new inputs the fuzzer finds go
# to BUILD_DIR/corpus/NAME, crashes to BUILD_DIR/findings/NAME/).
#
#   scripts/fuzz.sh [--seconds S] [--build-dir DIR] [--build-only | --no-build] [TARGET...]
#
# TARGET: ini, idx, journal, result (default: all); S: seconds per target (default 60);
# DIR: default build/fuzz-build. Exit status: 0 when no target found anything, 1 otherwise.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds=60
build_dir="$root/build/fuzz-build"
build=1
run=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --build-dir) build_dir="$2"; shift 2 ;;
    --build-only) run=0; shift ;;
    --no-build) build=0; shift ;;
    ini|idx|journal|result) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(ini idx journal result)

if [ "$build" = 1 ]; then
  clangxx="$(command -v clang++-14 || command -v clang++ || true)"
  clangc="$(command -v clang-14 || command -v clang || true)"
  if [ -z "$clangxx" ] || [ -z "$clangc" ]; then
    echo "fuzz.sh: clang is not installed (bash scripts/install-deps.sh --tests installs it)" >&2
    exit 2
  fi
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$clangc" -DCMAKE_CXX_COMPILER="$clangxx" "${launcher[@]}" \
    -DPMOE_FUZZ=ON >/dev/null
  cmake --build "$build_dir" -j"$(nproc)" --target $(printf 'pmoe_fuzz_%s ' "${targets[@]}")
fi
[ "$run" = 1 ] || exit 0

found=0
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for t in "${targets[@]}"; do
  work="$build_dir/corpus/$t"
  findings="$build_dir/findings/$t"
  mkdir -p "$work" "$findings"
  echo "fuzz.sh: $t for ${seconds}s (ASan+UBSan)"
  if ! "$build_dir/tests/fuzz/pmoe_fuzz_$t" -max_total_time="$seconds" -timeout=20 \
      -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" \
      "$work" "$root/tests/fuzz/corpus/$t" 2>"$build_dir/fuzz-$t.log"; then
    found=1
    echo "fuzz.sh: $t FOUND something: $(ls "$findings")" >&2
    tail -40 "$build_dir/fuzz-$t.log" >&2
  else
    grep -E "stat::number_of_executed_units|cov:" "$build_dir/fuzz-$t.log" | tail -2
  fi
done
exit "$found"
