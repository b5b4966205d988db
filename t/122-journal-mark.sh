#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A data file written under --journal says so in its blocks' headers:
# --verify-only without the journal refuses it in one line (exit 2)
# instead of calling the journal's generations lost writes; with the
# journal it passes, and a --keep --verify file without one still
# passes alone.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

[ -d /dev/shm ] && [ "$(stat -c %d /dev/shm)" != "$(stat -c %d "$WORK")" ] ||
	skip "no /dev/shm on another filesystem than $WORK for the journal"
J=$(mktemp -u /dev/shm/clyde-t-j.XXXXXX)
at_exit rm -f "$J"
mkdir "$WORK/d"

expect_status 0 "$CLYDE" -d "$WORK/d" -s 16m -r 0 -n 0 -f -q --only=ran_write \
	--ran-time=1 --journal="$J" -z 11
K=$WORK/d/clyde-kept.11
[ -f "$K" ] || fail "no kept file: $(cat "$WORK/err")"
expect_refused "^clyde: --verify-only '$K': written under --journal: give it" \
	"$CLYDE" --verify-only="$K"
[ -s "$WORK/out" ] && fail "a refused check wrote to stdout: $(cat "$WORK/out")"
expect_status 0 "$CLYDE" --verify-only="$K" --journal="$J"
grep -q "verdict: PASS" "$WORK/out" || fail "with its journal: $(cat "$WORK/out")"
rm -f "$K"

expect_status 0 "$CLYDE" -d "$WORK/d" -s 16m -r 0 -n 0 -f -q --only=ran_write \
	--ran-time=1 --verify --keep -z 12
expect_status 0 "$CLYDE" --verify-only="$WORK/d/clyde-kept.12"
exit 0
