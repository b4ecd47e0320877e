#!/usr/bin/env bash
# Installs the Debian packages pmoe-sim needs on a fresh Debian 12 machine (run as root).
# Idempotent: packages already present are left alone and apt is not touched at all.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libeigen3-dev libtbb-dev libboost-program-options-dev libhdf5-dev catch2 hdf5-tools zlib1g-dev
  dataset-fashion-mnist
  python3-h5py python3-matplotlib python3-numpy python3-pandas
  clang libclang-rt-14-dev  # the fuzz targets (scripts/fuzz.sh): libFuzzer, ASan, UBSan
  slurmctld slurmd slurm-client munge  # tests/slurm: a real one-node Slurm (no daemon is started)
  chromium  # the report page's rendering test (headless)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get -o DPkg::Lock::Timeout=600 update -qq
$sudo_cmd apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
