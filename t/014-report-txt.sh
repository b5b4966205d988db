#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report txt: golden tables for lines of all three CSV formats and
# a JSON document, in both layouts; bon_csv2txt itself (when installed)
# prints the same for 1.98 lines, except the "+++++" I/O rates it
# misprints as "0k".
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:?}
D="$T_SRCDIR/data"

golden() { # golden EXPECTED ARGS...
	gold=$1
	shift
	expect_status 0 "$R" txt "$@"
	cmp "$WORK/out" "$D/$gold" ||
		fail "txt $*: $(diff "$WORK/out" "$D/$gold" | head -20)"
	[ -s "$WORK/err" ] && fail "txt $*: stderr: $(cat "$WORK/err")"
	return 0
}

for f in r198 r197 r103; do
	golden $f.txt.expected "$D/$f.csv"
	golden $f.txt103.expected --format=1.03 "$D/$f.csv"
done
golden run.txt.expected "$D/run.json"
golden run.txt103.expected --format=1.03 "$D/run.json"

# All inputs at once, with a header and a comment: the I/O rows of every
# input under one header, then the file rows, in input order.
{
	echo "# mixed"
	cat "$D/r103.csv"
	echo 'format_version,bonnie_version,name'
	cat "$D/r198.csv" "$D/r197.csv"
} >"$WORK/mixed.csv"
expect_status 0 "$R" txt "$WORK/mixed.csv" "$D/run.json"
[ "$(grep -c '^Version' "$WORK/out")" = 1 ] || fail "one I/O header: $(cat "$WORK/out")"
names=$(awk '/^Latency|^Version|^Name|^  |^Machine/ { next } { print $1 }' "$WORK/out" | tr '\n' ' ')
[ "$names" = "convm004 convm005 vm nas san1 san2 vm vm convm004 convm005 vm nas san1 san2 vm vm " ] ||
	fail "rows out of order: $names"

# A "+++++" I/O rate stays "+++++" (bon_csv2txt 2.00 prints "0k").
grep -q '^vm      64M::8192:5 +++++ +++ +++++ +++' "$D/run.txt.expected" || fail "+++++ row"

if command -v bon_csv2txt >/dev/null 2>&1; then
	bon_csv2txt <"$D/r198.csv" >"$WORK/bon" 2>"$WORK/bon.err"
	expect_status 0 "$R" txt "$D/r198.csv"
	cmp "$WORK/out" "$WORK/bon" || fail "bon_csv2txt differs: $(diff "$WORK/out" "$WORK/bon")"
	# The misprint, on a line with a "+++++" block input.
	sed 's/^\(1.98,2.00a,vm,1,1795989744,2G,,8192,5,604,96,449755,71,821393,62,571,96,\)2527078,98/\1+++++,+++/' \
		"$D/r198.csv" >"$WORK/fast.csv"
	bon_csv2txt <"$WORK/fast.csv" >"$WORK/bon" 2>/dev/null
	expect_status 0 "$R" txt "$WORK/fast.csv"
	grep -q ' 571k  96    0k +++ ' "$WORK/bon" || fail "bon_csv2txt no longer misprints: $(cat "$WORK/bon")"
	grep -q ' 571k  96 +++++ +++ ' "$WORK/out" || fail "+++++ lost: $(cat "$WORK/out")"
	[ "$(diff "$WORK/out" "$WORK/bon" | grep -c '^[<>]')" = 2 ] ||
		fail "more than the +++++ cell differs: $(diff "$WORK/out" "$WORK/bon")"
else
	echo "bon_csv2txt not installed: the comparison with it is skipped" >&2
fi
exit 0
