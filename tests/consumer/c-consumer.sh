#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds consumer.c against the staged install, through pkg-config or through
# find_package(bwgemm 0.1) in cmake-consumer/, checks that it resolves
# libbwgemm from the stage, and runs it with and without the real cuBLAS.
#   usage: c-consumer.sh pkgconfig|cmake STAGE LIBDIR WORK_DIR CC CUDA_LIB_DIR
set -euo pipefail
mode=$1 stage=$2 libdir=$3 work=$4 cc=$5 cudalib=$6
here=$(cd "$(dirname "$0")" && pwd)

fail() {
  echo "consumer: FAIL: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
export PKG_CONFIG_PATH="$stage/$libdir/pkgconfig"
# find_package searches <prefix>/<libdir>/cmake only for the host's own libdir
# layouts (Debian's CMake skips lib64), so the package directory's parent is a
# prefix too, which it searches as <prefix>/bwgemm*/.
prefix_path="$stage;$stage/$libdir/cmake"
case "$mode" in
  pkgconfig)
    # shellcheck disable=SC2046 # pkg-config output is a list of flags
    "$cc" -std=c11 -Wall -Wextra -Werror "$here/consumer.c" -o "$work/consumer" \
      $(pkg-config --cflags --libs bwgemm) -Wl,-rpath,"$(pkg-config --variable=libdir bwgemm)"
    # A program that calls the CUDA runtime itself links with the flags of
    # bwgemm.pc and -lcudart, nothing else: the CUDA -I and -L come from it.
    echo "consumer: cuda_app.c with \$(pkg-config --cflags --libs bwgemm) -lcudart"
    # shellcheck disable=SC2046
    "$cc" -std=c11 -Wall -Wextra -Werror "$here/cuda_app.c" -o "$work/cuda_app" \
      $(pkg-config --cflags --libs bwgemm) -lcudart
    LD_LIBRARY_PATH="$stage/$libdir:$cudalib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/cuda_app"
    ;;
  cmake)
    echo "consumer: find_package(bwgemm 1.0) must be refused"
    if cmake -S "$here/cmake-consumer" -B "$work/refused" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_PREFIX_PATH="$prefix_path" -DBWGEMM_CONSUMER_VERSION=1.0 >"$work/refused.log" 2>&1; then
      fail "find_package(bwgemm 1.0) accepted version 0.x"
    fi
    grep -q 'requested version "1.0"' "$work/refused.log" || fail "unexpected configure failure: $work/refused.log"
    cmake -S "$here/cmake-consumer" -B "$work/build" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_PREFIX_PATH="$prefix_path" -DCMAKE_C_FLAGS="-Wall -Wextra -Werror"
    cmake --build "$work/build"
    cp "$work/build/consumer" "$work/consumer"
    ;;
  *) fail "unknown mode $mode" ;;
esac

resolved=$(ldd "$work/consumer" | awk '$1 ~ /^libbwgemm\.so/ {print $3}')
case "$resolved" in
  "$stage"/*) echo "consumer: libbwgemm resolves to $resolved" ;;
  *) fail "libbwgemm resolves to '$resolved', not into $stage" ;;
esac

echo "consumer: run with the real cuBLAS in $cudalib"
LD_LIBRARY_PATH="$cudalib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/consumer" loaded
echo "consumer: run with cuBLAS unloadable"
BWGEMM_CUBLAS_LIBRARY="$work/no-such-libcublas.so" "$work/consumer" absent
