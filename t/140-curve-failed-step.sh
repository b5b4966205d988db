#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-curve exits 1 when a step failed: the fault rig failing the data
# file's writes with EIO after 20 of them fails the maximum's step (the
# data file's making); the one line names the error, and nothing is left
# in the rig's backing directory. (A signal's 130 and 143 are 074's.)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

CURVE=${CLYDE_CURVE:-$(dirname "$CLYDE")/clyde-curve}
ff_setup

ff_cmd clear 'fail write EIO after=20 path=*/data'
"$CURVE" -d "$M" -s 32m -r 0 --step-time=1 --steps=50 >"$WORK/out" 2>"$WORK/err"
st=$?
[ $st = 1 ] || fail "a failed step: exit $st, expected 1: $(cat "$WORK/err")"
grep -q 'Input/output error' "$WORK/err" || fail "a failed step: no EIO said: $(cat "$WORK/err")"
[ "$(ff_fired 1)" -ge 1 ] || fail "the fault never fired"
assert_empty "$B"
ff_alive
exit 0
