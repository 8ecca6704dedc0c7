#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what the build and the CPU test suites need and this machine lacks:
#   - Debian packages, with apt-get (as root, or through sudo);
#   - cuobjdump and nvdisasm for the SASS checks (tests/sass), when the CUDA
#     toolkit lacks them: NVIDIA's PyPI wheels, installed with
#     `pip install --target .tools/python` in the source tree. A --target
#     install leaves the system's Python alone, so it works where Python is
#     externally managed (PEP 668) without --break-system-packages, needs no
#     root and no virtual environment; tests/sass/check_sass.py looks there.
#   usage: scripts/install-deps.sh [--no-apt] [--no-python]
#     --no-apt     install no Debian packages (another distribution, no root);
#                  what is missing is listed, and the build says what it lacks
#     --no-python  install no Python packages; without cuobjdump and nvdisasm
#                  the SASS checks are not registered (`scripts/test.sh
#                  --no-python` configures accordingly)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
apt=1 python=1
for arg in "$@"; do
  case "$arg" in
    --no-apt) apt=0 ;;
    --no-python) python=0 ;;
    -h | --help)
      sed -n '3,17s/^# \{0,1\}//p' "$0"
      exit 0
      ;;
    *)
      echo "install-deps: unknown option $arg (try --help)" >&2
      exit 2
      ;;
  esac
done

apt_packages=(cmake pkgconf libcmocka-dev abigail-tools debhelper lintian rpm gfortran)
apt_packages+=(cpio)       # packaging/ci-check.sh unpacks the RPMs it builds
apt_packages+=(python3-pip) # pip for the SASS tools below
missing=()
if command -v dpkg-query >/dev/null; then
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
# A pip that works already (pyenv, a virtual environment) makes python3-pip unnecessary.
if python3 -m pip --version >/dev/null 2>&1; then
  missing=("${missing[@]/python3-pip/}")
  read -ra missing <<<"${missing[*]}"
fi
if ((${#missing[@]})); then
  if ((apt)); then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    echo "install-deps: apt-get install ${missing[*]}"
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  else
    echo "install-deps: --no-apt: not installing ${missing[*]}"
  fi
fi

# cuobjdump and nvdisasm (which `cuobjdump -sass` runs) for the SASS checks:
# on PATH, in the wheels of the Python environment, or in .tools/python.
tools="$root/.tools/python"
have_cuda_tool() {
  command -v "$1" >/dev/null 2>&1 && return 0
  [ -x "$tools/nvidia/cu13/bin/$1" ] && return 0
  python3 -c '
import os, sys, nvidia
sys.exit(not any(os.access(os.path.join(p, "cu13", "bin", sys.argv[1]), os.X_OK)
                 for p in nvidia.__path__))' "$1" 2>/dev/null
}
need=()
for tool in cuobjdump nvdisasm; do
  have_cuda_tool "$tool" || need+=("$tool")
done
if ((${#need[@]})); then
  if ((python)); then
    # Both in one call: a second --target install would replace the first's
    # nvidia/ directory.
    echo "install-deps: pip install --target $tools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm"
    python3 -m pip install -q --disable-pip-version-check --target "$tools" --upgrade \
      nvidia-cuda-cuobjdump==13.2.86 nvidia-cuda-nvdisasm==13.2.86
  else
    echo "install-deps: --no-python: ${need[*]} not installed; the SASS checks will not be registered"
  fi
fi
