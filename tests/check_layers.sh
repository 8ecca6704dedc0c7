#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails when a source file includes a layer above its own. The layers, top
# down: api -> dispatch -> {kernels, forward} -> core (and emu, the CPU
# backend of the kernels' primitive layer, sits beside kernels).
#   usage: check_layers.sh SRC_DIR
src=${1:?usage: check_layers.sh SRC_DIR}
status=0
check() {  # check LAYER FORBIDDEN...: no file of LAYER includes a FORBIDDEN one
  layer=$1
  shift
  for forbidden in "$@"; do
    hits=$(grep -rn "#include \"$forbidden/" "$src/$layer" 2>/dev/null)
    if [ -n "$hits" ]; then
      echo "FAIL: $layer includes $forbidden (layers point down only):"
      printf '%s\n' "$hits"
      status=1
    fi
  done
}
check core api dispatch kernels forward emu
check forward api dispatch kernels emu
check kernels api dispatch forward
check emu api dispatch forward
check dispatch api
[ $status -eq 0 ] && echo "ok: every include points down (api -> dispatch -> kernels/forward -> core)"
exit $status
