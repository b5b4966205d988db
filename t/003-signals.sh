#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT and SIGTERM during block output: the run stops, removes its
# scratch directory and exits 130 / 143.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"

# interrupt SIGNAL STATUS: start a long block output, signal it mid-way.
interrupt() {
	sig=$1 want=$2
	# -b makes every 8 KiB write wait for fsync: minutes for 1 GiB.
	start_writing 200 "$D" -s 1g -r 0 -f -n 0 -b
	grep -q 'Rewriting' "$WORK/err" && fail "block output ended before the signal"
	kill -s "$sig" $pid
	wait $pid
	got=$?
	[ "$got" = "$want" ] || fail "SIG$sig: exit $got, expected $want: $(cat "$WORK/err")"
	grep -q "interrupted by signal" "$WORK/err" || fail "SIG$sig: no message"
	assert_empty "$D"
}

interrupt INT 130
interrupt TERM 143
exit 0
