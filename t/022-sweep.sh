#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-sweep on a directory (any user): the table has a write and a
# read row with a cell per mode and block size, the CSV has one line of
# nine fields per cell whose figures agree with each other, nothing is
# left in the directory, bad values are one line and exit 2, a stop is
# 143 with the directory emptied, and --plot draws a PNG.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
mkdir "$WORK/d"

# O_DIRECT is part of the matrix; a filesystem without it (tmpfs before
# Linux 6.6) cannot be swept.
expect_status 0 "$SWEEP" -s 8m -B 4k,1m "$WORK/d"
assert_empty "$WORK/d"
grep -q '^target  *op  *MB/s %CP  *MB/s %CP  *MB/s %CP  *MB/s %CP$' "$WORK/out" ||
	fail "no column header: $(cat "$WORK/out")"
grep -qE '^[a-z0-9]+ +write( +([0-9]+\.[0-9] +[0-9]+|\+\+\+\+\+ \+\+\+)){4}$' "$WORK/out" ||
	fail "no write row: $(cat "$WORK/out")"
grep -qE '^ +read( +([0-9]+\.[0-9] +[0-9]+|\+\+\+\+\+ \+\+\+)){4}$' "$WORK/out" ||
	fail "no read row: $(cat "$WORK/out")"
grep "^$WORK/d," "$WORK/out" >"$WORK/csv"
[ "$(wc -l <"$WORK/csv")" = 8 ] || fail "expected 8 CSV lines: $(cat "$WORK/out")"
# Every cell moved 8 MiB; MB/s is bytes / 10^6 / seconds.
awk -F, '
NF != 9 { print "fields: " NF; exit 1 }
$6 != 8388608 { print "bytes " $6; exit 1 }
$7 <= 0 { print "seconds " $7; exit 1 }
{ r = $6 / 1e6 / $7; if (r - $8 > 0.06 * r + 0.1 || $8 - r > 0.06 * r + 0.1) { print "rate " $8 " vs " r; exit 1 } }
' "$WORK/csv" || fail "CSV: $(cat "$WORK/csv")"
for cell in buffered,4096,write buffered,4096,read buffered,1048576,write \
	buffered,1048576,read direct,4096,write direct,4096,read \
	direct,1048576,write direct,1048576,read; do
	grep -q ",$cell," "$WORK/csv" || fail "no $cell cell: $(cat "$WORK/csv")"
done
# -q: only the CSV on stdout.
expect_status 0 "$SWEEP" -q -s 4m -B 64k "$WORK/d"
[ "$(grep -cv "^$WORK/d," "$WORK/out")" = 0 ] || fail "-q: $(cat "$WORK/out")"
grep -q '^target' "$WORK/err" || fail "-q: no table on stderr"

bad() {
	pat=$1
	shift
	expect_refused "^clyde-sweep: .*$pat" "$@"
	assert_empty "$WORK/d"
}
bad "-s '3x'" "$SWEEP" -s 3x "$WORK/d"
bad "-s '0'" "$SWEEP" -s 0 "$WORK/d"
bad "-s '6m': not a multiple of the block size 4m" "$SWEEP" -s 6m "$WORK/d"
bad "-B '1000'" "$SWEEP" -s 8m -B 4k,1000 "$WORK/d"
bad "-B '128m'" "$SWEEP" -s 128m -B 128m "$WORK/d"
bad "-B '4k': given twice" "$SWEEP" -s 8m -B 4k,4k "$WORK/d"
bad "--filesystems 'zfs'" "$SWEEP" --filesystems=zfs "$WORK/d"
bad "No such file" "$SWEEP" -s 8m "$WORK/nonexistent"
bad "not a directory or block device" "$SWEEP" -s 8m /dev/null
bad "goes with a block device" "$SWEEP" -s 8m --destroy-data=/dev/null "$WORK/d"
bad "no target" "$SWEEP" -s 8m
bad "only ... free\|only .* free" "$SWEEP" -s 16t -B 4m "$WORK/d"
bad "apt-get install gnuplot-nox" env PATH=/nonexistent "$SWEEP" -s 8m --plot "$WORK/s.png" "$WORK/d"

# A stop in the middle: 143, and the private directory is gone.
term_after 1 "$SWEEP" -s 2g -B 4k "$WORK/d"
[ $st = 143 ] || fail "SIGTERM: exit $st, expected 143: $(cat "$WORK/err")"
assert_empty "$WORK/d"

if command -v gnuplot >/dev/null 2>&1; then
	expect_status 0 "$SWEEP" -s 4m -B 4k,64k --plot "$WORK/s.png" "$WORK/d"
	[ "$(head -c 4 "$WORK/s.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
		fail "--plot did not write a PNG: $(cat "$WORK/err")"
fi
exit 0
