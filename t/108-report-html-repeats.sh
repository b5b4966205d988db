#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report html of two sides of three runs each, made by clyde with
# -n 0 (no file tests) and only a few tests: the More figures table has
# one row per side and figure, the mean of its runs (saying how many),
# not a row per run; the main table has no columns for the figures no
# side has (the file tests, their Files label, the I/O tests left out),
# in its header, its rows and the runs under them. A side with the file
# tests beside them brings their columns back.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
DATA=${T_SRCDIR:-$(dirname "$0")}/data

for side in A B; do
	mkdir "$WORK/d$side" || fail "mkdir"
	"$CLYDE" -d "$WORK/d$side" -s 16m -n 0 -r 0 -x 3 -q -m "$side" \
		--only=put_block,ran_read,ran_write,sync_write \
		--json="$WORK/$side.json" >"$WORK/$side.csv" 2>"$WORK/err" ||
		fail "clyde -m $side: $(cat "$WORK/err")"
done

expect_status 0 "$R" html "$WORK/A.json" "$WORK/B.json"
P=$WORK/page.html
cp "$WORK/out" "$P"
sed -n '/<h2>More figures<\/h2>/,/<\/table>/p' "$P" >"$WORK/more"
rows=$(grep -c '^<tr><td class="name">' "$WORK/more")
[ "$rows" = 6 ] || fail "More figures: $rows rows, expected 6 (3 figures, 2 sides):
$(grep '^<tr><td class="name">' "$WORK/more" | cut -c1-120)"
for side in A B; do
	for fig in 'random reads' 'random writes' 'synchronous write'; do
		n=$(grep -c "^<tr><td class=\"name\">$side<div class=\"ver\">mean of 3 runs</div></td><td class=\"label\">$fig</td>" "$WORK/more")
		[ "$n" = 1 ] || fail "More figures: $n rows of $side's $fig: $(grep "$fig" "$WORK/more" | cut -c1-160)"
	done
done
# A mean with its interval, as the main table shows it.
grep -q '<td class="label">random reads</td><td title="mean [0-9]*, 95% CI ' "$WORK/more" ||
	fail "More figures: no mean of the random reads: $(grep 'random reads' "$WORK/more" | head -1)"

# The main table: no file tests, no Files column, no I/O test left out.
sed -n '/<table class="main">/,/^<\/table>/p' "$P" >"$WORK/main"
for head in 'Sequential Create' 'Random Create' '>Files<' 'Per Char' 'Rewrite' 'Random<br>Seeks'; do
	grep -q "$head" "$WORK/main" && fail "main table: '$head' with no side having it: $(grep -o ".\{60\}$head.\{20\}" "$WORK/main" | head -1)"
done
grep -q '<th colspan="2" rowspan="2">Sequential Output<br>Block</th>' "$WORK/main" ||
	fail "main table: no block output column: $(grep -o '<th[^>]*>[^<]*' "$WORK/main" | head)"
# The latency row: no Files column's label in it.
awk '/^<tr class="lat">/ { n = gsub(/>Latency</, "&"); if (n != 1) bad = 1 }
	END { exit bad }' "$WORK/main" ||
	fail "main table: a latency row with a Files label: $(grep '^<tr class="lat">' "$WORK/main" | head -1)"
# Each row as wide as its header: name, size, the block output pair.
awk '/^<tr><td class="name"/ { n = gsub(/<td/, "&"); if (n != 4) bad = bad " " n }
	END { exit bad != "" }' "$WORK/main" ||
	fail "main table: rows of another width: $(grep '^<tr><td class="name"' "$WORK/main" | head -2)"
grep -q '<tr class="runs"><td colspan="4"><details>' "$WORK/main" ||
	fail "main table: the runs' cell does not span the table: $(grep -o '<tr class="runs"><td colspan="[0-9]*"' "$WORK/main" | head -1)"

# Beside a side that has the file tests, their columns are back.
expect_status 0 "$R" html "$WORK/A.json" "$DATA/r198.csv"
sed -n '/<table class="main">/,/^<\/table>/p' "$WORK/out" >"$WORK/main2"
for head in 'Sequential Create' 'Random Create' '>Files<' 'Per Char'; do
	grep -q "$head" "$WORK/main2" || fail "main table with r198.csv: no '$head'"
done
exit 0
