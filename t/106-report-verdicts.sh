#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report compare's verdict line: each pair's text ends with the
# count of its verdicts, the line the HTML page puts above the pair's
# table (the same words, counted by the same code), for CSV lines with
# repeats, single lines (untested), a random-I/O document (its own
# figures counted too: one verdict a row of the table) and clyde-curve
# documents, whose text and page say theirs in the same words.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
DATA=${T_SRCDIR:-$(dirname "$0")}/data

# ends_with_verdicts: each pair of $WORK/out (pairs apart by one empty
# line) ends with a "Verdicts:" line; the lines into $WORK/text.
ends_with_verdicts() {
	awk 'function done() { if (last !~ /^Verdicts: /) bad = bad " [" last "]";
			       else print last >"'"$WORK/text"'" }
	     /^$/ { done(); last = ""; next } { last = $0 }
	     END { done(); exit bad != "" }' "$WORK/out" ||
		fail "compare $*: a pair does not end with its verdicts:
$(cat "$WORK/out")"
}

# Two pairs: the repeats against each other, and a single line.
set -- "$DATA/compare-repeats.csv" "$DATA/san-1.csv"
expect_status 0 "$R" compare "$@"
ends_with_verdicts "$@"
[ "$(wc -l <"$WORK/text")" = 2 ] || fail "compare: verdict lines: $(cat "$WORK/text")"
head -1 "$WORK/text" | grep -qx 'Verdicts: 4 faster, 2 slower, 3 more CPU, 23 within noise, 4 not tested (no repeats, or a figure one side lacks)\.' ||
	fail "compare: the repeats' verdicts: $(head -1 "$WORK/text")"
# The count is of the table's rows: one word each.
rows=$(sed -n '3,/^Verdicts/p' "$WORK/out" | grep -c '  \(faster\|slower\|more CPU\|less CPU\|within noise\|-\)$')
[ "$rows" = 36 ] || fail "compare: $rows rows in the first table"
expect_status 0 "$R" html "$@"
grep -o '<p class="note">Verdicts: [^<]*' "$WORK/out" | sed 's/^<p class="note">//' >"$WORK/page"
cmp -s "$WORK/text" "$WORK/page" ||
	fail "compare's verdicts are not the page's: $(diff "$WORK/page" "$WORK/text")"

# --csv stays one table: no verdict line.
expect_status 0 "$R" compare --csv "$@"
grep -q Verdicts "$WORK/out" && fail "compare --csv: a verdict line"

# A random-I/O document, one line a side: every row untested.
expect_status 0 "$R" compare "$DATA/randio.json"
ends_with_verdicts randio.json
grep -qx 'Verdicts: 12 not tested (no repeats, or a figure one side lacks)\.' "$WORK/text" ||
	fail "compare randio: $(cat "$WORK/text")"

# clyde-curve documents: the same words in the text and on the page.
expect_status 0 "$R" compare "$DATA/curve-off.json" "$DATA/curve-on.json"
ends_with_verdicts curves
grep -qx 'Verdicts: 5 slower, 3 within noise\.' "$WORK/text" ||
	fail "compare curves: $(cat "$WORK/text")"
expect_status 0 "$R" html "$DATA/curve-off.json" "$DATA/curve-on.json"
grep -q -F "<p class=\"note\">$(cat "$WORK/text") A step is" "$WORK/out" ||
	fail "html curves: $(grep -o 'Verdicts[^<]*' "$WORK/out")"
exit 0
