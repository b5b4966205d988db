#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# How clyde-zcav stops (any user): a reader that goes away (`| head -1`)
# ends the run silently with 141 and no log left; any other failure to
# write standard output is one line naming the real error, exit 1; a
# stop by signal leaves no log or temporary file, and several signals
# in a row exit with the first one's status.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}

D="$WORK/d"
mkdir "$D"
head -c $((8 * 1048576)) /dev/urandom >"$WORK/f" || fail "making data"

# A closed standard output. The input pauses after the first block, so
# head has gone before the next line is written.
slow() {
	head -c 1048576 "$WORK/f"
	sleep 1
	cat "$WORK/f"
}
{
	slow | "$ZCAV" -b 1 - 2>"$WORK/err"
	echo $? >"$WORK/st"
} | head -1 >"$WORK/out"
[ "$(cat "$WORK/st")" = 141 ] || fail "| head -1: exit $(cat "$WORK/st"), expected 141: $(cat "$WORK/err")"
[ -s "$WORK/err" ] && fail "| head -1: said something: $(cat "$WORK/err")"
grep -q '^#loops: 1' "$WORK/out" || fail "| head -1: $(cat "$WORK/out")"
# With a second target logging to a file: that log is not left either.
{
	slow | "$ZCAV" -b 1 - -l "$D/log" "$WORK/f" 2>"$WORK/err"
	echo $? >"$WORK/st"
} | head -1 >"$WORK/out"
[ "$(cat "$WORK/st")" = 141 ] || fail "| head -1 with a log: exit $(cat "$WORK/st"): $(cat "$WORK/err")"
[ -s "$WORK/err" ] && fail "| head -1 with a log: said something: $(cat "$WORK/err")"
assert_empty "$D"

# Any other error on standard output: one line with the real reason.
if [ -w /dev/full ]; then
	"$ZCAV" -b 1 "$WORK/f" >/dev/full 2>"$WORK/err"
	st=$?
	[ $st = 1 ] || fail ">/dev/full: exit $st, expected 1: $(cat "$WORK/err")"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail ">/dev/full: not one line: $(cat "$WORK/err")"
	grep -q '^clyde-zcav: writing standard output: No space left on device$' "$WORK/err" ||
		fail ">/dev/full: $(cat "$WORK/err")"
fi

# stop SIGNAL... : a run on a silent pipe, logging to $D, given the
# signals in order; sets $st. The pipe's writer is ended afterwards.
stop() {
	(
		sleep 30 >/dev/null 2>&1 &
		echo $! >"$WORK/sleeper"
		wait
	) | "$ZCAV" -b 8 -l "$D/log" - >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	i=0
	until [ -n "$(find "$D" -name '*log*')" ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "no log was started: $(cat "$WORK/err")"
		sleep 0.05
	done
	for sig; do
		kill -s "$sig" $pid 2>/dev/null
		sleep 0.05
	done
	# The shell waits for the whole pipeline, the writer's sleep too:
	# once clyde-zcav has ended (a zombie, or gone), the sleep goes, and
	# then the wait gives clyde-zcav's status.
	i=0
	while ps -o stat= -p $pid 2>/dev/null | grep -qv '^Z'; do
		i=$((i + 1))
		[ $i -lt 200 ] || break
		sleep 0.05
	done
	kill "$(cat "$WORK/sleeper")" 2>/dev/null
	wait $pid
	st=$?
	assert_empty "$D"
}
stop INT TERM HUP
[ $st = 130 ] || fail "INT, TERM, HUP: exit $st, expected 130: $(cat "$WORK/err")"
stop TERM INT HUP
[ $st = 143 ] || fail "TERM, INT, HUP: exit $st, expected 143: $(cat "$WORK/err")"
stop HUP TERM INT
[ $st = 129 ] || fail "HUP, TERM, INT: exit $st, expected 129: $(cat "$WORK/err")"
# A stop while gnuplot draws: gnuplot (here one that never finishes) is
# killed, no picture or temporary file is left, the status is the stop's.
mkdir "$D/plot"
term_while_drawing "$ZCAV" -b 1 --plot "$D/plot/x.png" "$WORK/f"
[ ! -s "$WORK/err" ] || fail "TERM while drawing said: $(cat "$WORK/err")"
assert_empty "$D/plot"
exit 0
