#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-curve exits 1 when a step failed: the fault rig failing the data
# file's writes with EIO after 20 of them fails the maximum's step (the
# data file's making); the one line names the error, the JSON gives it
# as the step's, and nothing is left in the rig's backing directory. (A signal's 130 and 143 are 074's.)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
CURVE=${CLYDE_CURVE:-$(dirname "$CLYDE")/clyde-curve}
ff_setup

ff_cmd clear 'fail write EIO after=20 path=*/data'
"$CURVE" -d "$M" -s 32m -r 0 --step-time=1 --steps=50 --json="$WORK/c.json" \
	>"$WORK/out" 2>"$WORK/err"
st=$?
[ $st = 1 ] || fail "a failed step: exit $st, expected 1: $(cat "$WORK/err")"
grep -q 'Input/output error' "$WORK/err" || fail "a failed step: no EIO said: $(cat "$WORK/err")"
# The document gives the failed step's error (it said "skipped"), the
# table's heading no empty settings ("vm: , 1 s a step") and no "max 0
# IOPS" for a maximum that failed.
jq -e '.curves[0].steps[0].test | .status == "failed" and
	(.error | test("Input/output error"))' "$WORK/c.json" >/dev/null ||
	fail "the failed step in the JSON: $(jq -c '.curves[0].steps[0]' "$WORK/c.json")"
grep -q ': , \|max 0 IOPS' "$WORK/out" && fail "the table of a failed maximum: $(cat "$WORK/out")"
grep -q '(a step failed: the steps done)' "$WORK/out" ||
	fail "the heading does not say a step failed: $(cat "$WORK/out")"
[ "$(ff_fired 1)" -ge 1 ] || fail "the fault never fired"
assert_empty "$B"
ff_alive
exit 0
