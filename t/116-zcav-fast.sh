#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-zcav on a target too fast for its blocks (any user): files on
# /dev/shm, where a 512 MiB block reads in a few hundredths of a second.
# Without -b the lines grow until each takes 0.5 s, which is said once on
# stderr, every data line is timed and the summary has its seconds; a
# file read whole in under 0.5 s is said to be too fast to time rather
# than left as lines of "++++" alone. With -b the block stays, and one
# line on stderr names the -b that times the lines, which then does.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}

[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
case $(stat -f -c %T /dev/shm 2>/dev/null) in
tmpfs) ;;
*) skip "/dev/shm is not a tmpfs" ;;
esac
S=/dev/shm/clyde-zcav-t.$$
at_exit rm -f "$S.sparse" "$S.1g"

# timed FILE: FILE's data lines that are timed (not commented out).
timed() {
	grep -c '^[0-9][0-9.]* [0-9.]* [0-9.]*$' "$1"
}
# untimed FILE: its lines commented out as too fast.
untimed() {
	grep -c '^#[0-9][0-9.]* ++++ [0-9.]*$' "$1"
}
# summary_secs FILE: the seconds of its summary line.
summary_secs() {
	sed -n 's/^# Read [0-9]* [gm][ie][gs]s in \([0-9]*\) seconds, .*/\1/p' "$1"
}

# How fast this machine reads a tmpfs hole at its fastest: 2 GiB in
# 256 MiB blocks. Holes need no memory, so the big file below costs
# nothing.
truncate -s 2G "$S.sparse" || fail "making a sparse file"
expect_status 0 "$ZCAV" -b 256 "$S.sparse"
secs=$(awk '$1 ~ /^#?[0-9.]+$/ && $3 > 0 && (m == "" || $3 < m) { m = $3 } END { print m }' "$WORK/out")
[ -n "$secs" ] || fail "no time for a 256 MiB block: $(cat "$WORK/out")"
# MiB/s, and a file that takes about 3 s at that speed (whole GiB).
rate=$(awk -v s="$secs" 'BEGIN { printf "%d", 256 / s }')
[ "$rate" -ge 2048 ] || skip "a tmpfs hole reads at $rate MiB/s: a 512 MiB block is timed"
size=$(awk -v r="$rate" 'BEGIN { g = int(r * 3 / 1024) + 1; print (g < 4 ? 4 : g) * 1024 }')
truncate -s "${size}M" "$S.sparse" || fail "making a ${size} MiB sparse file"

# Default block: every data line timed, the growth said once.
expect_status 0 "$ZCAV" "$S.sparse"
[ "$(timed "$WORK/out")" -ge 1 ] ||
	fail "${size} MiB at $rate MiB/s, default block: no timed line: $(cat "$WORK/out")"
[ "$(untimed "$WORK/out")" = 0 ] ||
	fail "${size} MiB, default block: lines under 0.5 s: $(cat "$WORK/out")"
[ "$(summary_secs "$WORK/out")" -ge 1 ] ||
	fail "${size} MiB, default block: summary: $(tail -1 "$WORK/out")"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "default block: not one line on stderr: $(cat "$WORK/err")"
grep -q "^clyde-zcav: $S.sparse: lines cover [0-9]* MiB: each 512 MiB block read in under 0.5 s$" "$WORK/err" ||
	fail "default block: stderr: $(cat "$WORK/err")"
# The offsets are the lines' real positions: each line starts where the
# one before it ended, lines only grow, and the last one ends the file.
awk -v size="$size" '/^[0-9]/ { o[n++] = $1 * 1024 }
END {
	if (n == 0 || o[0] != 0) exit 1
	o[n] = size
	for (i = 1; i < n; i++)
		if (o[i + 1] - o[i] < o[i] - o[i - 1]) exit 1
}' "$WORK/out" || fail "default block: offsets: $(cat "$WORK/out")"
echo "default block, ${size} MiB at $rate MiB/s: $(cat "$WORK/err")" >&2
cat "$WORK/out" >&2

# A 1 GiB file of real pages: read whole in under 0.5 s here, so no line
# can be timed, and stderr says so; where it takes longer, its lines are
# timed as above.
fallocate -l 1G "$S.1g" 2>/dev/null || head -c 1G /dev/zero >"$S.1g" ||
	fail "making a 1 GiB file"
expect_status 0 "$ZCAV" "$S.1g"
if [ "$(timed "$WORK/out")" = 0 ]; then
	[ "$(untimed "$WORK/out")" = 1 ] ||
		fail "1 GiB: not one line over the whole file: $(cat "$WORK/out")"
	grep -q '^#0\.00 ++++ ' "$WORK/out" || fail "1 GiB: $(cat "$WORK/out")"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "1 GiB: not one line on stderr: $(cat "$WORK/err")"
	grep -q "^clyde-zcav: $S.1g: read at [0-9]* MiB/s, its 1024 MiB take under 0.5 s: too fast to time, even as one line$" "$WORK/err" ||
		fail "1 GiB: stderr: $(cat "$WORK/err")"
else
	[ "$(untimed "$WORK/out")" = 0 ] || fail "1 GiB: lines under 0.5 s: $(cat "$WORK/out")"
fi
echo "1 GiB: $(cat "$WORK/err")" >&2
rm -f "$S.1g"

# -b given: the block kept, its lines untimed, and the -b to give said.
expect_status 0 "$ZCAV" -b 256 "$S.sparse"
[ "$(timed "$WORK/out")" = 0 ] || fail "-b 256: a timed line at $rate MiB/s: $(cat "$WORK/out")"
[ "$(untimed "$WORK/out")" = $((size / 256)) ] || fail "-b 256: not 256 MiB lines: $(cat "$WORK/out")"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "-b 256: not one line on stderr: $(cat "$WORK/err")"
grep -q "^clyde-zcav: $S.sparse: $((size / 256)) of $((size / 256)) lines under 0.5 s, untimed ([0-9]* MiB/s): give -b [0-9]* to time them$" "$WORK/err" ||
	fail "-b 256: stderr: $(cat "$WORK/err")"
echo "-b 256: $(cat "$WORK/err")" >&2
b=$(sed -n 's/.* give -b \([0-9]*\) .*/\1/p' "$WORK/err")
[ "$b" -le "$size" ] || fail "-b 256: -b $b is past the ${size} MiB file"
# The -b said times them (over whole blocks: a short last one may not).
expect_status 0 "$ZCAV" -b "$b" -r $((size / b * b)) "$S.sparse"
[ "$(untimed "$WORK/out")" = 0 ] && [ "$(timed "$WORK/out")" = $((size / b)) ] ||
	fail "-b $b: lines under 0.5 s: $(cat "$WORK/out")"
[ ! -s "$WORK/err" ] || fail "-b $b: said: $(cat "$WORK/err")"
exit 0
