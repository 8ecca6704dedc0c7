#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the project metadata of packaging/metadata.env (homepage, maintainer)
# into the package files that cannot read it themselves: debian/control,
# debian/copyright, the newest debian/changelog entry, and rpm/bwgemm.spec (URL
# and newest %changelog entry). bwgemm.pc and the CMake package read it at
# configure time.
#   usage: packaging/apply-metadata.sh [--check]
#     --check  change nothing; fail, listing the differences, when a file
#              disagrees with metadata.env (packaging/ci-check.sh runs this)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *)
    echo "usage: $0 [--check]" >&2
    exit 2
    ;;
esac
# shellcheck source=metadata.env
. "$here/metadata.env"
maintainer="$BWGEMM_MAINTAINER_NAME <$BWGEMM_MAINTAINER_EMAIL>"

# file sed-program: the file as it should be, on stdout
rewrite() {
  case "$1" in
    debian/control)
      sed -E "s|^Maintainer: .*|Maintainer: $maintainer|; s|^Homepage: .*|Homepage: $BWGEMM_HOMEPAGE|" ;;
    debian/copyright)
      sed -E "s|^Upstream-Contact: .*|Upstream-Contact: $maintainer|; s|^Source: .*|Source: $BWGEMM_HOMEPAGE|" ;;
    debian/changelog)
      # the newest entry's trailer only: older entries keep their authors
      sed -E "0,/^ -- .*>  /s|^ -- .*>  | -- $maintainer  |" ;;
    rpm/bwgemm.spec)
      sed -E "s|^URL:( +).*|URL:\1$BWGEMM_HOMEPAGE|;
              /^%changelog/,\${0,/^\* /s|^(\* [A-Z][a-z]{2} [A-Z][a-z]{2} [0-9]{1,2} [0-9]{4}) .* - |\1 $maintainer - |}" ;;
  esac <"$here/$1"
}

status=0
for f in debian/control debian/copyright debian/changelog rpm/bwgemm.spec; do
  wanted=$(rewrite "$f")
  if [ "$wanted" != "$(cat "$here/$f")" ]; then
    if ((check)); then
      echo "apply-metadata: packaging/$f disagrees with packaging/metadata.env:" >&2
      diff -u "$here/$f" <(echo "$wanted") >&2 || true
      status=1
    else
      echo "$wanted" >"$here/$f"
      echo "apply-metadata: wrote packaging/$f"
    fi
  fi
done
((check)) && ((status == 0)) && echo "apply-metadata: package files agree with packaging/metadata.env"
exit $status
