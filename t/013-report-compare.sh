#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report compare: the golden output of a fixture with three runs a
# side, the t statistic and verdict of a figure whose values were worked
# out apart from clyde (t/check_stats.c has the same samples), single
# lines against each other, and the usage errors.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:?}
D="$T_SRCDIR/data"

cd "$D" || fail "no $D"
expect_status 0 "$R" compare compare-repeats.csv
cmp "$WORK/out" compare-repeats.txt.expected ||
	fail "compare text differs: $(diff "$WORK/out" compare-repeats.txt.expected | head -20)"
expect_status 0 "$R" compare --csv compare-repeats.csv
cmp "$WORK/out" compare-repeats.csv.expected ||
	fail "compare --csv differs: $(diff "$WORK/out" compare-repeats.csv.expected | head -20)"

# put_block: 134822 131200 137900 against 168000 171300 165800;
# Welch t = 13.43303104, df = 3.861316764, p = 0.0002200718296.
line=$(grep '^put_block,' "$WORK/out")
echo "$line" | awk -F, '{
	ok = ($14 - 13.43303104 < 1e-4 && 13.43303104 - $14 < 1e-4) &&
	     ($15 - 3.861316764 < 1e-4 && 3.861316764 - $15 < 1e-4) &&
	     ($16 - 0.0002200718 < 1e-8 && 0.0002200718 - $16 < 1e-8) &&
	     $17 == "faster" && $13 > 25.0 && $13 < 25.1
	exit !ok }' || fail "put_block: $line"
# putc differs by -0.2% with overlapping runs: noise.
grep -q '^putc,.*,within noise$' "$WORK/out" || fail "putc: $(grep '^putc,' "$WORK/out")"
# Latency: lower is faster.
grep -q '^put_block latency,us,.*,faster$' "$WORK/out" ||
	fail "latency verdict: $(grep '^put_block latency' "$WORK/out")"
# A "+++++" without an exact rate is shown, not compared.
grep -q '^seq_stat  *files/s  *+++++  *+++++  *-  *-  -$' compare-repeats.txt.expected ||
	fail "seq_stat row"

# Two single lines (two inputs): values and change, no test.
expect_status 0 "$R" compare san-1.csv san-2.csv
grep -q '^put_block  *KiB/s  *134822  *188347  *+39.7%  *-  -$' "$WORK/out" ||
	fail "single lines: $(grep '^put_block ' "$WORK/out")"
grep -q 'no repeats' "$WORK/out" || fail "no note on the missing repeats"

# One side only, and bad usage: one line, exit 2.
expect_status 2 "$R" compare san-1.csv
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "one side: $(cat "$WORK/err")"
expect_status 2 "$R" compare
expect_status 2 "$R" compare --alpha=0.7 san-1.csv san-2.csv
grep -q "alpha=0.7" "$WORK/err" || fail "alpha: $(cat "$WORK/err")"
expect_status 2 "$R" compare --page san-1.csv san-2.csv
# --alpha moves the verdict: p = 0.0032 for seeks.
expect_status 0 "$R" compare --alpha=0.001 compare-repeats.csv
grep -q '^seeks  .*within noise$' "$WORK/out" || fail "alpha 0.001: $(grep '^seeks ' "$WORK/out")"
exit 0
