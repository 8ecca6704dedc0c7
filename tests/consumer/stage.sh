#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the build tree into a fresh staging prefix (cmake --install) and
# checks the result: every file under the prefix, the soname links, the
# files a consumer needs, and a bwgemm.pc that validates and names the prefix.
#   usage: stage.sh BUILD_DIR STAGE LIBDIR INCLUDEDIR VERSION SOVERSION
set -euo pipefail
build=$1 stage=$2 libdir=$3 includedir=$4 version=$5 soversion=$6

fail() {
  echo "stage: FAIL: $*" >&2
  exit 1
}
case "$libdir$includedir" in
  /*) fail "CMAKE_INSTALL_LIBDIR/INCLUDEDIR are absolute; cannot stage under a prefix" ;;
esac

rm -rf "$stage"
cmake --install "$build" --prefix "$stage"
while read -r f; do
  case "$f" in "$stage"/*) ;; *) fail "installed outside the staging prefix: $f" ;; esac
done <"$build/install_manifest.txt"

lib="$stage/$libdir"
echo "stage: soname links in $lib"
if [ ! -f "$lib/libbwgemm.so.$version" ] || [ -L "$lib/libbwgemm.so.$version" ]; then
  fail "libbwgemm.so.$version is not a regular file"
fi
[ "$(readlink "$lib/libbwgemm.so.$soversion")" = "libbwgemm.so.$version" ] ||
  fail "libbwgemm.so.$soversion does not point to libbwgemm.so.$version"
[ "$(readlink "$lib/libbwgemm.so")" = "libbwgemm.so.$soversion" ] ||
  fail "libbwgemm.so does not point to libbwgemm.so.$soversion"
soname=$(objdump -p "$lib/libbwgemm.so.$version" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = "libbwgemm.so.$soversion" ] || fail "SONAME is '$soname'"

echo "stage: installed headers, Fortran module source and CMake package"
for f in "$includedir/bwgemm/bwgemm.h" "$includedir/bwgemm/bwgemm.f90" \
  "$libdir/cmake/bwgemm/bwgemmConfig.cmake" "$libdir/cmake/bwgemm/bwgemmConfigVersion.cmake" \
  "$libdir/cmake/bwgemm/bwgemmTargets.cmake" "$libdir/pkgconfig/bwgemm.pc"; do
  [ -f "$stage/$f" ] || fail "missing $f"
done

echo "stage: pkg-config --validate bwgemm"
export PKG_CONFIG_PATH="$lib/pkgconfig"
pkg-config --validate bwgemm || fail "bwgemm.pc does not validate"
[ "$(pkg-config --modversion bwgemm)" = "$version" ] || fail "bwgemm.pc version"
[ "$(pkg-config --variable=prefix bwgemm)" = "$stage" ] || fail "bwgemm.pc prefix is not $stage"
cflags=$(pkg-config --cflags bwgemm) || fail "pkg-config --cflags bwgemm"
libs=$(pkg-config --libs bwgemm) || fail "pkg-config --libs bwgemm"
case " $cflags " in *" -I$stage/$includedir "*) ;; *) fail "Cflags lack -I$stage/$includedir" ;; esac
case " $libs " in *" -L$lib "*) ;; *) fail "Libs lack -L$lib" ;; esac
cudalibdir=$(pkg-config --variable=cudalibdir bwgemm)
[ -f "$cudalibdir/libcudart.so" ] || fail "bwgemm.pc's cudalibdir ($cudalibdir) has no libcudart.so"
case " $libs " in *" -L$cudalibdir "*) ;; *) fail "Libs lack -L$cudalibdir (the CUDA libraries)" ;; esac
echo "stage: ok ($stage)"
