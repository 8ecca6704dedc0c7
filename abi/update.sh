#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates everything that records libbwgemm's ABI, from a build of the
# current tree: abi/libbwgemm.abilist, abi/libbwgemm.abi and the Debian
# symbols file packaging/debian/lib<name><soversion>.symbols (symbols already
# listed keep their minimal version, new ones get the project version).
# Before overwriting, it says how the new ABI compares with the checked-in one.
#   usage: abi/update.sh [build-dir]   (default: <repo>/build; configured RelWithDebInfo if new)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
cd "$root"

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build" --target bwgemm -j"$(nproc)"
lib=$(cat "$build/abi/library-path")
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
if [ -z "$version" ] || [ -z "$soname" ]; then
  echo "update: cannot read the project version or the SONAME" >&2
  exit 1
fi

if [ -f abi/libbwgemm.abi ]; then
  rc=0
  abidiff --headers-dir2 include abi/libbwgemm.abi "$lib" >"$build/abi/abidiff.txt" || rc=$?
  if ((rc & 1)); then
    cat "$build/abi/abidiff.txt"
    echo "update: abidiff failed (rc $rc); nothing written" >&2
    exit 1
  elif ((rc & 8)); then
    cat "$build/abi/abidiff.txt"
    echo "update: INCOMPATIBLE change (rc $rc): bump the SONAME as abi/README.md says"
  elif ((rc & 4)); then
    cat "$build/abi/abidiff.txt"
    echo "update: ABI change (rc $rc): review it (struct layout changes are reported this way)"
  else
    echo "update: no ABI change against the checked-in baseline"
  fi
fi

abi/check.sh list "$lib" >abi/libbwgemm.abilist
abi/check.sh dump "$lib" abi/libbwgemm.abi

# Debian: package lib<name><soversion> after the SONAME (libbwgemm.so.0 -> libbwgemm0).
package=$(sed -E 's/\.so\.([0-9]+)$/\1/' <<<"$soname")
symbols=packaging/debian/$package.symbols
known=$symbols
if [ ! -f "$known" ]; then
  echo "update: new package $package: see abi/README.md about bumping the SONAME"
  known=/dev/null
fi
{
  echo "# SPDX-License-Identifier: MIT"
  echo "# Written by abi/update.sh from abi/libbwgemm.abilist; minimal versions are kept."
  echo "$soname $package #MINVER#"
  echo "* Build-Depends-Package: libbwgemm-dev"
  # Every node is itself a symbol (NODE@NODE) besides the functions on it.
  awk -v known_file="$known" -v version="$version" '
    FILENAME == known_file { if ($1 ~ /@/) known[$1] = $2; next }
    { entry[$2 "@" $1] = 1; entry[$1 "@" $1] = 1 }
    END { for (e in entry) print " " e, (e in known ? known[e] : version) }' \
    "$known" abi/libbwgemm.abilist | LC_ALL=C sort
} >"$build/abi/symbols.new"
mv "$build/abi/symbols.new" "$symbols"

echo "update: wrote abi/libbwgemm.abilist, abi/libbwgemm.abi and $symbols; commit them with the change"
