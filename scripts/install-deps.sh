#!/usr/bin/env bash
# Installs the Debian packages pmoe-sim needs on a fresh Debian 12 machine (run as root, or with
# sudo). Idempotent: packages already present are left alone and apt is not touched at all.
#
#   bash scripts/install-deps.sh          # the tools: build pmoe-sim, pmoe-sweep, pmoe-analyze,
#                                         # draw the plots and report pages (the main job's needs)
#   bash scripts/install-deps.sh --build  # only what building the three tools needs
#   bash scripts/install-deps.sh --python # only what the plots and report pages need (Python)
#   bash scripts/install-deps.sh --tests  # the tools' and what the test suite needs (scripts/test.sh)
#
# The main job installs --build, then --python in the background while it compiles: the build
# does not wait for packages it does not use (its first result comes about 8 s sooner).
#
# The tests' packages (clang, a Slurm, Chromium, Catch2, pytest, the Fashion-MNIST files) are
# most of the download; the main job gets its first result without them.
set -euo pipefail

build=(
  cmake g++ make pkg-config
  libeigen3-dev libtbb-dev libboost-program-options-dev libhdf5-dev zlib1g-dev
)
python=(
  python3-h5py python3-matplotlib python3-numpy python3-pandas
  # Matplotlib's python3-fonttools needs "python3-scipy | python3-munkres": named here, the
  # 100 kB munkres is taken instead of SciPy and the compilers and BLAS its build helper pulls in
  # (about 200 MB and a tenth of the install on a fresh machine). Nothing here imports SciPy.
  python3-munkres
)
tests=(
  catch2 hdf5-tools python3-pytest pyflakes3 clang-format
  dataset-fashion-mnist  # the image data model's tests (and image sweeps: sweeps/configs/image_*)
  clang libclang-rt-14-dev  # the fuzz targets (scripts/fuzz.sh): libFuzzer, ASan, UBSan
  slurmctld slurmd slurm-client munge  # tests/slurm: a real one-node Slurm (no daemon is started)
  chromium  # the report page's rendering test (headless)
)

case "${1:-}" in
  "") packages=("${build[@]}" "${python[@]}"); what="the tools" ;;
  --build) packages=("${build[@]}"); what="building the tools" ;;
  --python) packages=("${python[@]}"); what="the plots and report pages" ;;
  --tests) packages=("${build[@]}" "${python[@]}" "${tests[@]}"); what="the tools and the tests" ;;
  *)
    echo "install-deps: unknown argument \"$1\" (expected nothing, --build, --python or --tests)" >&2
    exit 2
    ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages of $what present"
  exit 0
fi

echo "install-deps: installing for $what: ${missing[*]}"
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get -o DPkg::Lock::Timeout=600 update -qq
# An install that was interrupted (Ctrl-C during the main job, whose Python packages install in
# the background) leaves dpkg refusing every further install until its packages are configured:
# finish that first (nothing to do otherwise).
$sudo_cmd dpkg --force-unsafe-io --configure -a
# --force-unsafe-io: dpkg unpacks without an fsync per file (a fifth of the install's time on a
# fresh machine). What it risks: a power cut during the install can leave files of the packages
# being installed empty (apt-get install --reinstall mends them). Debian's container images set
# the same option.
$sudo_cmd apt-get -o DPkg::Lock::Timeout=600 -o Dpkg::Options::=--force-unsafe-io \
  install -y -qq --no-install-recommends "${missing[@]}"
