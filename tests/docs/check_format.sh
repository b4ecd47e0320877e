#!/usr/bin/env bash
# Every C++ file of the project is formatted as .clang-format says (clang-format --dry-run
# --Werror); prints the files that differ. Skips (77) where clang-format is not installed.
set -u
cd "$1" || exit 2
command -v clang-format >/dev/null || { echo "check_format: clang-format not installed: skipped"; exit 77; }
bad=0
while IFS= read -r f; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || { echo "differs from .clang-format: $f (clang-format -i $f)"; bad=$((bad + 1)); }
done < <(git ls-files '*.cpp' '*.hpp' '*.h' 2>/dev/null || find sim sweeps analysis include tests -name '*.[ch]pp')
[ "$bad" -eq 0 ] && echo "check_format: every C++ file is formatted" || echo "check_format: $bad file(s) differ"
[ "$bad" -eq 0 ]
