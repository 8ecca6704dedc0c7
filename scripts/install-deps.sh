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

# cuobjdump and nvdisasm (which `cuobjdump -sass` runs) for the SASS checks
# (tests/sass): the toolkit here has neither, PyPI has both; the wheels put
# them in <site-packages>/nvidia/cu13/bin.
have_cuda_tool() {
  command -v "$1" >/dev/null 2>&1 || python3 -c '
import os, sys, nvidia
sys.exit(not any(os.access(os.path.join(p, "cu13", "bin", sys.argv[1]), os.X_OK)
                 for p in nvidia.__path__))' "$1" 2>/dev/null
}
for tool in cuobjdump nvdisasm; do
  if ! have_cuda_tool "$tool"; then
    echo "install-deps: pip install nvidia-cuda-$tool"
    python3 -m pip install -q "nvidia-cuda-$tool==13.2.86"
  fi
done
