# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2034,SC2154 # status and results belong to the caller
# Sourced by the GPU check scripts: step NAME TIMEOUT CMD... runs CMD under a
# timeout (a hung kernel becomes a failure, not a stuck run), logs it to
# $results/NAME.log, prints the log's tail and the exit status, and sets
# status=1 on a failure. Returns CMD's exit status.
step() {
  local name=$1 limit=$2
  shift 2
  echo "== $name"
  timeout -s KILL "$limit" "$@" >"$results/$name.log" 2>&1
  local rc=$?
  tail -n 20 "$results/$name.log"
  echo "== $name: exit $rc"
  [ $rc -eq 0 ] || status=1
  return $rc
}
