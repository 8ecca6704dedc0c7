#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Language binding checks, run by scripts/test.sh after the CTest suites
# (which already ran the Fortran ones: fortran_interfaces, fortran_contract,
# fortran_gemm_gpu). Here, the Rust workspace in bindings/rust, against a
# fresh `cmake --install` of BUILD_DIR:
#   1. cargo fmt --check and cargo clippy -D warnings;
#   2. cargo test through pkg-config (PKG_CONFIG_PATH), with Cargo.lock as committed;
#   3. cargo test with BWGEMM_LIB_DIR and a pkg-config that always fails,
#      so that the override is shown to bypass pkg-config;
#   4. the GPU example: passes, or skips with exit code 77 without a GPU.
#   usage: bindings/ci-check.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || {
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
}
build=$(realpath "$1")
work="$build/bindings"

fail() {
  echo "bindings: FAIL: $*" >&2
  exit 1
}
step() { echo "bindings: $*"; }

command -v cargo >/dev/null || PATH="$HOME/.cargo/bin:$PATH"
command -v cargo >/dev/null || fail "cargo not found (rustup installs it in ~/.cargo/bin)"

stage="$work/stage"
rm -rf "$stage"
mkdir -p "$work"
cmake --install "$build" --prefix "$stage" >"$work/install.log"
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")
lib="$stage/$libdir"
cudaroot=$(PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --variable=cudaroot bwgemm)
[ -f "$build/tests/consumer/cuda-library-dir" ] ||
  fail "$build was configured without tests (BWGEMM_BUILD_TESTS=OFF)"
cudalib=$(cat "$build/tests/consumer/cuda-library-dir")
step "Rust against $stage (CUDA in $cudaroot, libraries in $cudalib)"

export CARGO_TARGET_DIR="$work/rust-target"
# Test and example programs find libbwgemm and the CUDA libraries at run time.
export LD_LIBRARY_PATH="$lib:$cudalib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cd "$root/bindings/rust"

step "cargo fmt --check"
cargo fmt --check || fail "run cargo fmt in bindings/rust"
step "cargo clippy --all-targets -D warnings"
PKG_CONFIG_PATH="$lib/pkgconfig" cargo clippy --offline --locked --all-targets -q -- -D warnings

step "cargo test through pkg-config"
PKG_CONFIG_PATH="$lib/pkgconfig" cargo test --offline --locked

step "cargo test with BWGEMM_LIB_DIR (pkg-config must not be needed)"
BWGEMM_LIB_DIR="$lib" CUDA_PATH="$cudaroot" PKG_CONFIG=false cargo test --offline --locked

step "GPU example"
PKG_CONFIG_PATH="$lib/pkgconfig" cargo build --offline --locked --example gemm_gpu
rc=0
"$CARGO_TARGET_DIR/debug/examples/gemm_gpu" || rc=$?
case $rc in
  0) step "ok, the GPU example passed" ;;
  77) step "ok, the GPU example skipped (no GPU)" ;;
  *) fail "the GPU example failed (exit code $rc)" ;;
esac
step "all checks passed"
