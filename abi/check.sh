#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The ABI gate of libbwgemm, used by CTest (cmake/AbiCheck.cmake) and by
# abi/update.sh. See abi/README.md.
#   check.sh list LIB          exported symbols, glibc abilist style ("NODE symbol F")
#   check.sh dump LIB OUT      write the abidw baseline of LIB to OUT
#   check.sh symbols LIB       LIB's list must equal abi/libbwgemm.abilist exactly
#   check.sh baseline LIB      abidiff abi/libbwgemm.abi LIB must exit 0
#                              (exits 77, a skip, when LIB has no DWARF)
#   check.sh installed BUILD_DIR STAGE LIBDIR FILE_NAME CUBLAS_NODE
#                              install BUILD_DIR's runtime component into STAGE
#                              and check the installed LIBDIR/FILE_NAME: no
#                              DT_NEEDED on the CUDA libraries, no RPATH/RUNPATH,
#                              cublas* on node CUBLAS_NODE (cublasLt* on its
#                              libcublasLt twin), bwgemm* on BWGEMM_x.y
#                              nodes, and nothing else exported
set -euo pipefail
abi_dir=$(cd "$(dirname "$0")" && pwd)
include_dir=$(cd "$abi_dir/../include" && pwd)
abilist="$abi_dir/libbwgemm.abilist"
baseline="$abi_dir/libbwgemm.abi"

fail() {
  echo "abi: FAIL: $*" >&2
  exit 1
}

usage() {
  sed -n '3,15s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

# Version definitions (nm type A) are the nodes themselves, not exports.
list() {
  nm -D --defined-only --with-symbol-versions "$1" |
    awk '$2 == "A" { next }
         { n = split($3, part, "@")
           print (n > 1 ? part[n] : "UNVERSIONED"), part[1], ($2 ~ /^[TWi]$/ ? "F" : "D") }' |
    LC_ALL=C sort
}

# abidw and abidiff need the DWARF of the exported functions' types.
require_dwarf() {
  local sections
  sections=$(readelf -S --wide "$1")
  grep -q '\.debug_info' <<<"$sections" ||
    fail "$1 has no DWARF (.debug_info): configure with -DCMAKE_BUILD_TYPE=RelWithDebInfo"
}

dump() {
  require_dwarf "$1"
  abidw --no-corpus-path --no-comp-dir-path --short-locs --type-id-style hash \
    --drop-undefined-syms --headers-dir "$include_dir" --out-file "$2" "$1"
}

check_symbols() {
  echo "abi: exported symbols of $1 against ${abilist#"$abi_dir/../"}"
  if ! list "$1" | diff -u "$abilist" -; then
    fail "the exported symbols changed (- checked in, + built). Removing or renaming a symbol" \
      "breaks the ABI (bump the SONAME, see abi/README.md); for an intended addition run abi/update.sh"
  fi
  echo "abi: ok, $(wc -l <"$abilist") symbols as listed"
}

check_baseline() {
  # A build without debug information (Release, MinSizeRel) cannot be
  # compared; CTest reports the skip (exit 77) with this reason.
  local sections
  sections=$(readelf -S --wide "$1")
  if ! grep -q '\.debug_info' <<<"$sections"; then
    echo "abi: SKIP: $1 has no DWARF (.debug_info), so abidiff cannot compare its types;" \
      "configure with -DCMAKE_BUILD_TYPE=RelWithDebInfo or Debug to run this check"
    exit 77
  fi
  echo "abi: abidiff ${baseline#"$abi_dir/../"} $1"
  local rc=0
  abidiff --headers-dir2 "$include_dir" "$baseline" "$1" || rc=$?
  if ((rc == 0)); then
    echo "abi: ok, no ABI change"
    return
  fi
  ((rc & 1)) && fail "abidiff failed to run (rc $rc)"
  ((rc & 8)) && fail "incompatible ABI change (rc $rc): bump the SONAME, see abi/README.md"
  fail "ABI change (rc $rc). abidiff reports struct layout changes this way too, so review" \
    "the report above; if intended, run abi/update.sh and commit abi/ with the change"
}

check_installed() {
  local build=$1 stage=$2 libdir=$3 file=$4 node=$5
  rm -rf "$stage"
  cmake --install "$build" --prefix "$stage" --component runtime >/dev/null
  local lib="$stage/$libdir/$file"
  [ -f "$lib" ] || fail "the runtime component did not install $libdir/$file"
  echo "abi: linkage of the installed $lib"

  local dyn
  dyn=$(readelf -d --wide "$lib")
  local cuda_needed
  cuda_needed=$(awk '/\(NEEDED\)/ && /\[lib(cublas|cublasLt|cudart|cuda)\.so/' <<<"$dyn")
  [ -z "$cuda_needed" ] ||
    fail "DT_NEEDED on a CUDA library (cudart is linked statically, cuBLAS opened by soname):" \
      "$cuda_needed"
  local paths
  paths=$(awk '/\((RPATH|RUNPATH)\)/' <<<"$dyn")
  [ -z "$paths" ] || fail "RPATH/RUNPATH in the installed library: $paths"
  echo "abi: ok, no DT_NEEDED on libcublas/libcudart/libcuda, no RPATH/RUNPATH"

  local bad
  local lt_node=${node/libcublas./libcublasLt.}
  bad=$(list "$lib" | awk -v node="$node" -v lt_node="$lt_node" '
    $3 != "F" { print "not a function: " $0; next }
    $2 ~ /^cublasLt/ { if ($1 != lt_node) print "cublasLt export not on node " lt_node ": " $0; next }
    $2 ~ /^cublas/ { if ($1 != node) print "cublas export not on node " node ": " $0; next }
    $2 ~ /^bwgemm/ { if ($1 !~ /^BWGEMM_[0-9]+\.[0-9]+$/) print "bwgemm export not on a BWGEMM_x.y node: " $0; next }
    { print "unexpected export: " $0 }')
  [ -z "$bad" ] || fail "$bad"
  echo "abi: ok, $(list "$lib" | wc -l) exports: cublas* on $node, cublasLt* on $lt_node, bwgemm* on BWGEMM_x.y, nothing else"
}

(($# >= 2)) || usage
cmd=$1
shift
case "$cmd" in
  list) list "$1" ;;
  dump)
    (($# == 2)) || usage
    dump "$1" "$2"
    ;;
  symbols) check_symbols "$1" ;;
  baseline) check_baseline "$1" ;;
  installed)
    (($# == 5)) || usage
    check_installed "$@"
    ;;
  *) usage ;;
esac
