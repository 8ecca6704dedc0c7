#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Packaging checks:
#   1. versions, the Debian symbols file and the project metadata
#      (metadata.env) agree with the build, abi/ and every package file;
#   2. .deb: dpkg-buildpackage (nocheck) in a scratch copy of the tree, lintian
#      (any E: or W: tag fails), file lists, dependency fields, and a C and a
#      Fortran consumer built against the unpacked packages;
#   3. .rpm: rpmbuild --without tests, file lists (rpm -qlp), dependencies, and
#      the same consumers against the unpacked packages.
# Steps 2 and 3 build the library again, the way the package builds do (tests
# and benchmarks off, the distribution's flags): minutes on a small machine.
# --quick runs step 1 only (seconds; scripts/test.sh runs that); .ci/run runs
# everything after scripts/test.sh.
#   usage: packaging/ci-check.sh [--quick] BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
if [ "${1:-}" = --quick ]; then
  quick=1
  shift
fi
[ $# -eq 1 ] || {
  echo "usage: $0 [--quick] BUILD_DIR" >&2
  exit 2
}
build=$(realpath "$1")
work="$build/packaging"
cd "$root"

fail() {
  echo "packaging: FAIL: $*" >&2
  exit 1
}
step() { echo "packaging: $*"; }

# Lists compared after naming the parts that vary: the multiarch triplet and
# the CMake configuration in bwgemmTargets-<config>.cmake.
normalize() {
  sed -E "s|/$multiarch/|/<triplet>/|; s|bwgemmTargets-[a-z]+\.cmake|bwgemmTargets-<config>.cmake|" |
    LC_ALL=C sort
}
same_list() { # name expected actual
  if ! diff -u <(echo "$2" | LC_ALL=C sort) <(echo "$3"); then
    fail "$1 differs from the expected list (- expected, + found)"
  fi
}

# A copy of the tree as git sees it (tracked and untracked, not ignored).
copy_tree() {
  mkdir -p "$1"
  git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$1"
}

# A C and a Fortran program built against an unpacked package tree.
consumers() { # prefix libdir dir
  PKG_CONFIG_PATH="$1/$2/pkgconfig" pkg-config --validate bwgemm || fail "bwgemm.pc does not validate"
  tests/consumer/c-consumer.sh cmake "$1" "$2" "$3/c" cc "$cudalib" >"$3-c.log" 2>&1 ||
    fail "C consumer against the packages: $(cat "$3-c.log")"
  bindings/fortran/build-and-run.sh contract "$1" "$2" include "$3/fortran" gfortran \
    >"$3-fortran.log" 2>&1 || fail "Fortran consumer against the packages: $(cat "$3-fortran.log")"
  step "ok, the C (find_package) and Fortran consumers build and pass against them"
}

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# The consumers run once with the real cuBLAS, from the build's CUDA toolkit.
[ -f "$build/tests/consumer/cuda-library-dir" ] ||
  fail "$build was configured without tests (BWGEMM_BUILD_TESTS=OFF)"
cudalib=$(cat "$build/tests/consumer/cuda-library-dir")

### 1. Versions and symbols ###
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
lib=$(cat "$build/abi/library-path")
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
sover=${soname##*.so.}
step "project $version, SONAME $soname"
deb_version=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
[ "$deb_version" = "$version" ] || fail "packaging/debian/changelog is at $deb_version"
rpm_version=$(rpmspec -q --srpm --qf '%{VERSION}\n' packaging/rpm/bwgemm.spec)
[ "$rpm_version" = "$version" ] || fail "packaging/rpm/bwgemm.spec is at $rpm_version"
grep -q "^%global sover $sover\$" packaging/rpm/bwgemm.spec || fail "the spec's sover is not $sover"
package="libbwgemm$sover"
symbols="packaging/debian/$package.symbols"
[ -f "$symbols" ] || fail "no $symbols: run abi/update.sh"
[ "$(grep -m1 -v '^#' "$symbols")" = "$soname $package #MINVER#" ] || fail "$symbols: header"
same_list "$symbols (run abi/update.sh)" \
  "$(awk '{ print $2 "@" $1; print $1 "@" $1 }' abi/libbwgemm.abilist | LC_ALL=C sort -u)" \
  "$(awk '/^ / { print $1 }' "$symbols" | LC_ALL=C sort)"
step "ok, changelog, spec and $symbols agree with the build and abi/libbwgemm.abilist"
packaging/apply-metadata.sh --check >/dev/null || fail "run packaging/apply-metadata.sh (above)"
# shellcheck source=metadata.env
. packaging/metadata.env
pc_url=$(sed -n 's/^URL: //p' "$build/bwgemm.pc.install")
[ "$pc_url" = "$BWGEMM_HOMEPAGE" ] || fail "bwgemm.pc's URL is $pc_url, not $BWGEMM_HOMEPAGE"
step "ok, debian/, the spec and bwgemm.pc name $BWGEMM_HOMEPAGE and $BWGEMM_MAINTAINER_EMAIL (metadata.env)"
if ((quick)); then
  step "quick checks passed (package builds: $0 $1)"
  exit 0
fi
rm -rf "$work"
mkdir -p "$work"

### 2. Debian packages ###
deb="$work/deb"
src="$deb/bwgemm-$version"
copy_tree "$src"
cp -r packaging/debian "$src/debian"
step "dpkg-buildpackage -b (nocheck) in $src"
if ! (cd "$src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b -Pnocheck \
  -j"$(nproc)") >"$deb/build.log" 2>&1; then
  tail -40 "$deb/build.log"
  fail "dpkg-buildpackage failed: $deb/build.log"
fi
runtime_deb=$(echo "$deb/${package}_${version}_"*.deb)
dev_deb=$(echo "$deb/libbwgemm-dev_${version}_"*.deb)
if [ ! -f "$runtime_deb" ] || [ ! -f "$dev_deb" ]; then
  fail "packages missing: $(ls "$deb")"
fi

step "lintian -I -E --pedantic"
lintian_rc=0
lintian_out=$(lintian -I -E --pedantic --fail-on error,warning "$deb"/*.deb 2>&1) || lintian_rc=$?
lintian_out=$(grep -v 'running with root privileges' <<<"$lintian_out" || true)
[ -z "$lintian_out" ] || echo "$lintian_out"
if ((lintian_rc != 0)) || grep -q '^[EW]: ' <<<"$lintian_out"; then
  fail "lintian reported errors or warnings"
fi
step "ok, lintian: no errors or warnings"

deb_files() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ *\.\//, ""); print }' | normalize; }
same_list "$package files" "usr/lib/<triplet>/libbwgemm.so.$sover -> libbwgemm.so.$version
usr/lib/<triplet>/bwgemm/bwgemm-self-check
usr/lib/<triplet>/libbwgemm.so.$version
usr/share/doc/$package/changelog.gz
usr/share/doc/$package/copyright
usr/share/lintian/overrides/$package" "$(deb_files "$runtime_deb")"
same_list "libbwgemm-dev files" "usr/include/bwgemm/bwgemm.f90
usr/include/bwgemm/bwgemm.h
usr/lib/<triplet>/cmake/bwgemm/bwgemmConfig.cmake
usr/lib/<triplet>/cmake/bwgemm/bwgemmConfigVersion.cmake
usr/lib/<triplet>/cmake/bwgemm/bwgemmTargets-<config>.cmake
usr/lib/<triplet>/cmake/bwgemm/bwgemmTargets.cmake
usr/lib/<triplet>/libbwgemm.so -> libbwgemm.so.$sover
usr/lib/<triplet>/pkgconfig/bwgemm.pc
usr/share/doc/libbwgemm-dev/changelog.gz
usr/share/doc/libbwgemm-dev/copyright" "$(deb_files "$dev_deb")"
step "ok, file lists of $package and libbwgemm-dev"
for d in "$runtime_deb" "$dev_deb"; do
  dpkg-deb --fsys-tarfile "$d" | tar -xO --wildcards './usr/share/doc/*/copyright' |
    grep -q "CUDA Toolkit End User License Agreement" ||
    fail "$(basename "$d"): the copyright file does not name the CUDA runtime's licence"
done

depends=$(dpkg-deb -f "$runtime_deb" Depends)
recommends=$(dpkg-deb -f "$runtime_deb" Recommends)
[[ "$depends" != *cublas* && "$depends" != *cudart* ]] || fail "$package Depends on CUDA: $depends"
[[ "$recommends" == *"libcublas-13-0"* ]] || fail "$package does not recommend cuBLAS: $recommends"
[[ "$(dpkg-deb -f "$dev_deb" Depends)" == *"$package (= $version)"* ]] ||
  fail "libbwgemm-dev does not depend on $package (= $version)"
[ "$(dpkg-deb -f "$runtime_deb" Multi-Arch)" = same ] || fail "$package is not Multi-Arch: same"
shlibs=$(dpkg-deb --ctrl-tarfile "$runtime_deb" | tar -xO ./shlibs)
[ "$shlibs" = "libbwgemm $sover $package (>= $version)" ] || fail "shlibs: $shlibs"
step "ok, Depends: $depends; Recommends: $recommends; shlibs: $shlibs"

mkdir -p "$deb/root"
dpkg-deb -x "$runtime_deb" "$deb/root"
dpkg-deb -x "$dev_deb" "$deb/root"
step "consumers against the unpacked .debs"
consumers "$deb/root/usr" "lib/$multiarch" "$deb/consumer"

### 3. RPM packages ###
rpmtop="$work/rpm"
copy_tree "$rpmtop/src/bwgemm-$version"
mkdir -p "$rpmtop/SOURCES"
tar -C "$rpmtop/src" -czf "$rpmtop/SOURCES/bwgemm-$version.tar.gz" "bwgemm-$version"
rpm_args=(-bb --without tests --define "_topdir $rpmtop")
# The build host's CUDA toolkit is not an RPM, so BuildRequires cannot be met
# as such. Fedora's CMake macros come from cmake-rpm-macros; elsewhere from
# packaging/rpm/macros.fallback.
rpm_args+=(--nodeps)
[ -n "$(rpm --eval '%{?cmake}')" ] || rpm_args+=(--load packaging/rpm/macros.fallback)
step "rpmbuild ${rpm_args[*]} packaging/rpm/bwgemm.spec"
if ! rpmbuild "${rpm_args[@]}" packaging/rpm/bwgemm.spec >"$rpmtop/build.log" 2>&1; then
  tail -40 "$rpmtop/build.log"
  fail "rpmbuild failed: $rpmtop/build.log"
fi
arch=$(rpm --eval '%{_arch}')
main_rpm=$(echo "$rpmtop/RPMS/$arch/bwgemm-$version-"*".$arch.rpm")
devel_rpm=$(echo "$rpmtop/RPMS/$arch/bwgemm-devel-$version-"*".$arch.rpm")
if [ ! -f "$main_rpm" ] || [ ! -f "$devel_rpm" ]; then
  fail "RPMs missing: $(find "$rpmtop/RPMS" -name '*.rpm')"
fi

libdir=$(rpm --eval '%{_libdir}')
rpm_files() { rpm -qlp "$1" | grep -v '^/usr/lib/\.build-id' | normalize; }
same_list "bwgemm RPM files" "$libdir/libbwgemm.so.$sover
$libdir/libbwgemm.so.$version
/usr/libexec/bwgemm
/usr/libexec/bwgemm/bwgemm-self-check
/usr/share/licenses/bwgemm
/usr/share/licenses/bwgemm/LICENSE
/usr/share/licenses/bwgemm/NOTICE" "$(rpm_files "$main_rpm")"
same_list "bwgemm-devel RPM files" "/usr/include/bwgemm
/usr/include/bwgemm/bwgemm.f90
/usr/include/bwgemm/bwgemm.h
$libdir/cmake/bwgemm
$libdir/cmake/bwgemm/bwgemmConfig.cmake
$libdir/cmake/bwgemm/bwgemmConfigVersion.cmake
$libdir/cmake/bwgemm/bwgemmTargets-<config>.cmake
$libdir/cmake/bwgemm/bwgemmTargets.cmake
$libdir/libbwgemm.so
$libdir/pkgconfig/bwgemm.pc" "$(rpm_files "$devel_rpm")"
step "ok, rpm -qlp file lists of bwgemm and bwgemm-devel"

release=$(rpmspec -q --srpm --qf '%{RELEASE}\n' packaging/rpm/bwgemm.spec)
requires=$(rpm -qp --requires "$main_rpm")
provides=$(rpm -qp --provides "$main_rpm")
recommends=$(rpm -qp --recommends "$main_rpm")
devel_requires=$(rpm -qp --requires "$devel_rpm")
! grep -Eq 'cublas|cudart' <<<"$requires" || fail "the RPM requires CUDA: $requires"
grep -Fqx "$soname()(64bit)" <<<"$provides" || fail "the RPM does not provide $soname"
grep -q 'libcublas-13-0' <<<"$recommends" || fail "the RPM does not recommend cuBLAS"
grep -Fqx "bwgemm$(rpm --eval '%{?_isa}') = $version-$release" <<<"$devel_requires" ||
  fail "bwgemm-devel does not require bwgemm%{?_isa} = $version-$release"
step "ok, no CUDA requirement, provides $soname, devel requires the same build"

mkdir -p "$rpmtop/root"
for r in "$main_rpm" "$devel_rpm"; do
  rpm2cpio "$r" | (cd "$rpmtop/root" && cpio -idm --quiet)
done
step "consumers against the unpacked RPMs"
consumers "$rpmtop/root/usr" "$(rpm --eval '%{_lib}')" "$rpmtop/consumer"

step "all checks passed"
