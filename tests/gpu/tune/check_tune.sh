#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bwgemm-bench --tune on a GPU: it writes a policy file, the library loads it
# (the decision log names a policy rule for a tuned shape) and rejects a
# malformed one with a warning, keeping its built-in selection.
#   usage: check_tune.sh BWGEMM_BENCH WORK_DIR
set -uo pipefail
bench=$1 work=$2
mkdir -p "$work"
policy="$work/policy.txt" log="$work/bwgemm.log"
rm -f "$policy" "$log"
fail() {
  echo "FAIL: $*"
  exit 1
}

out=$("$bench" --tune "$policy" --tune-grid quick --reps 20 2>&1) || fail "--tune exited $?: $out"
echo "$out"
if grep -q "no CUDA GPU found\|runs no bwgemm kernel" <<<"$out"; then
  echo "SKIP: no GPU that runs a bwgemm kernel"
  exit 77
fi
[ -s "$policy" ] || fail "--tune wrote no policy file"
[ "$(head -1 "$policy")" = "bwgemm-policy 1" ] || fail "not a policy file: $(head -1 "$policy")"
rules=$(grep -c '^rule ' "$policy")
[ "$rules" -eq 2 ] || fail "$rules rules for the two shapes of the quick grid"

# The tuned shape under the default policy: its rule decides.
BWGEMM_POLICY_FILE="$policy" BWGEMM_LOG=2 BWGEMM_LOG_FILE="$log" \
  "$bench" --shape 4096,16,4096,TN,bf16 --reps 20 --csv "$work/run.csv" >"$work/run.txt" 2>&1 ||
  fail "the bench under the policy exited $?: $(tail -5 "$work/run.txt")"
grep -q "policy file rule 1" "$log" || fail "no call was decided by the policy's rule 1: $(tail -3 "$log")"
echo "ok: the decision log names the policy: $(grep -m1 'policy file rule 1' "$log" | sed 's/.* -> //')"

# A malformed file: one warning, the built-in table decides.
printf 'bwgemm-policy 1\ndevice x\n' >"$work/bad.txt"
rm -f "$log"
BWGEMM_POLICY_FILE="$work/bad.txt" BWGEMM_LOG=2 BWGEMM_LOG_FILE="$log" \
  "$bench" --shape 4096,16,4096,TN,bf16 --reps 20 --csv "$work/bad.csv" >"$work/bad-run.txt" 2>&1 ||
  fail "the bench under a malformed policy exited $?"
grep -q "BWGEMM_POLICY_FILE=.* ignored" "$log" || fail "no warning for the malformed policy file"
if grep -q "policy file rule" "$log"; then fail "a rejected policy file decided a call"; fi
echo "ok: the malformed file was ignored with a warning"
