#!/usr/bin/env bash
# Installs what the build and the CPU test suite need and this machine lacks.
# Debian packages via apt-get (as root, or through sudo), Python tools via pip.
set -euo pipefail

apt_packages=(cmake pkgconf libcmocka-dev abigail-tools debhelper lintian rpm gfortran)
apt_packages+=(cpio) # packaging/ci-check.sh unpacks the RPMs it builds
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  echo "install-deps: apt-get install ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# cuobjdump for the SASS checks: the toolkit here has none, PyPI has it.
if ! command -v cuobjdump >/dev/null 2>&1 && ! python3 -c 'import nvidia.cuda_cuobjdump' 2>/dev/null; then
  echo "install-deps: pip install nvidia-cuda-cuobjdump"
  python3 -m pip install -q "nvidia-cuda-cuobjdump==13.2.86"
fi
