#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-sweep's command line and its edges (any user, a directory
# target): empty list items and values given twice with different
# meanings are refused in one line naming the value; an option that
# belongs to a device names itself, not the directory; the --plot file is
# checked and made before the first cell and only ever renamed into
# place; INT, TERM, HUP in a row exit with the first one; a closed
# standard output ends the run silently with 141 and nothing left.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
D=$WORK/d
mkdir "$D"

# bad PATTERN ARGS...: exit 2, one line matching PATTERN, no cell run,
# nothing left in $D.
bad() {
	pat=$1
	shift
	expect_refused "^clyde-sweep: $pat" "$SWEEP" "$@"
	assert_empty "$D"
}

# Empty items: between, before and after commas, or only blanks.
bad "-B '4k,,8k': an empty item" -s 8m -B 4k,,8k "$D"
bad "-B '4k, ': an empty item" -s 8m -B '4k, ' "$D"
bad "-B '4k,': an empty item" -s 8m -B 4k, "$D"
bad "-B ',4k': an empty item" -s 8m -B ,4k "$D"
bad "-B '': empty value" -s 8m -B '' "$D"
bad "--filesystems 'raw,,ext4': an empty item" --filesystems=raw,,ext4 "$D"
bad "--filesystems 'raw,': an empty item" --filesystems=raw, "$D"
# The same item twice, even spelt differently.
bad "-B '4096': given twice (the same size as '4k')" -s 8m -B 4k,4096 "$D"
bad "--filesystems 'ext4': given twice" --filesystems=ext4,raw,ext4 "$D"

# An option given twice must mean the same thing both times.
bad "--destroy-data '/dev/b': given twice with different values ('/dev/a' first)" \
	--destroy-data=/dev/a --destroy-data=/dev/b "$D"
bad "-s '16m': given twice with different values ('8m' first)" -s 8m -s 16m "$D"
bad "-B '4k': given twice with different values ('4k,1m' first)" \
	-s 8m -B 4k,1m -B 4k "$D"
bad "-z '2': given twice with different values ('1' first)" -s 8m -z 1 -z 2 "$D"
bad "--filesystems 'xfs': given twice with different values ('ext4' first)" \
	-s 8m --filesystems=ext4 --filesystems=xfs "$D"
bad "--plot '$WORK/b.png': given twice with different values ('$WORK/a.png' first)" \
	-s 8m --plot "$WORK/a.png" --plot "$WORK/b.png" "$D"
# ... and the same value twice is just that value.
expect_status 0 "$SWEEP" -q -s 4m -s 4m -B 64k,1m -B 65536,1m -z 7 -z 7 "$D"
assert_empty "$D"

# Options that need a device name their own value, not the directory.
bad "--filesystems 'raw': goes with a block device target; '$D' is a directory" \
	--filesystems=raw "$D"
bad "--destroy-data '/dev/null': goes with a block device target" \
	--destroy-data=/dev/null "$D"

if command -v gnuplot >/dev/null 2>&1; then
	# A --plot file that cannot be made: refused before the first cell.
	bad "--plot '/nonexistent/x.png': cannot make a file there: No such file or directory" \
		-s 4m -B 64k --plot /nonexistent/x.png "$D"
	mkdir "$WORK/dir.png"
	bad "--plot '$WORK/dir.png' is a directory" -s 4m -B 64k \
		--plot "$WORK/dir.png" "$D"
	rmdir "$WORK/dir.png"
	# A good one is written under a temporary name and renamed.
	expect_status 0 "$SWEEP" -s 4m -B 64k --plot "$WORK/p.png" "$D"
	[ "$(head -c 4 "$WORK/p.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
		fail "--plot did not write a PNG: $(cat "$WORK/err")"
	[ -z "$(find "$WORK" -maxdepth 1 -name '.p.png.*')" ] ||
		fail "temporary plot file left: $(ls -a "$WORK")"
	# A run stopped by a signal leaves an existing plot as it was.
	echo "keep me" >"$WORK/old.png"
	term_after 1 "$SWEEP" -s 2g -B 4k --plot "$WORK/old.png" "$D"
	[ $st = 143 ] || fail "SIGTERM with --plot: exit $st: $(cat "$WORK/err")"
	[ "$(cat "$WORK/old.png")" = "keep me" ] || fail "a stopped run changed the plot"
	[ -z "$(find "$WORK" -maxdepth 1 -name '.old.png.*')" ] ||
		fail "temporary plot file left after a stop: $(ls -a "$WORK")"
	assert_empty "$D"
fi

# INT, TERM and HUP in a row: the first decides the status.
"$SWEEP" -s 2g -B 4k "$D" >"$WORK/out" 2>"$WORK/err" &
pid=$!
sleep 1
kill -INT $pid
sleep 0.05
kill -TERM $pid 2>/dev/null
sleep 0.05
kill -HUP $pid 2>/dev/null
wait $pid
st=$?
[ $st = 130 ] || fail "INT, TERM, HUP: exit $st, expected 130 (the first): $(cat "$WORK/err")"
assert_empty "$D"

# A closed standard output: `clyde-sweep | head -1` where head has its
# line (the echo) and is gone before the results are written. Nothing
# said about it, 141, nothing left, no plot.
plot=
command -v gnuplot >/dev/null 2>&1 && plot=$WORK/pipe.png
{
	echo first
	"$SWEEP" -s 8m -B 4k,64k ${plot:+--plot "$plot"} "$D" 2>"$WORK/err"
	echo $? >"$WORK/st"
} | head -1 >"$WORK/head"
[ "$(cat "$WORK/st")" = 141 ] || fail "| head -1: exit $(cat "$WORK/st"), expected 141: $(cat "$WORK/err")"
grep -v ' MB/s, ' "$WORK/err" | grep -q . && fail "| head -1: said more than progress: $(cat "$WORK/err")"
assert_empty "$D"
[ -z "$(find "$WORK" -maxdepth 1 -name '*pipe.png*')" ] ||
	fail "| head -1: a plot was written: $(ls -a "$WORK")"
# A stop while gnuplot draws (here one that never finishes): gnuplot is
# killed at once, no picture or temporary file is left, the status is
# the stop's.
mkdir "$WORK/plots"
term_while_drawing "$SWEEP" -q -s 4m -B 64k --plot "$WORK/plots/x.png" "$D"
grep '^clyde-sweep: ' "$WORK/err" | grep -v ' MB/s, ' | grep -q . &&
	fail "TERM while drawing said: $(cat "$WORK/err")"
assert_empty "$WORK/plots"
assert_empty "$D"
exit 0
