#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report html's whole page, of three sides: the mirror-on side of
# compare-repeats.csv (data/page-3side.csv, three repeats), a bonnie++
# 1.03 line (data/san-1.csv) and a clyde JSON document. The HTML holds the repeats'
# <details>, compare's verdicts and nothing from outside the page; in
# headless Chromium (chromium-lib.sh) it draws a page that is not blank.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
DATA=${T_SRCDIR:-$(dirname "$0")}/data

"$R" html --title='Three sides' "$DATA/page-3side.csv" "$DATA/san-1.csv" \
	"$DATA/run.json" >"$WORK/page.html" 2>"$WORK/err" ||
	fail "clyde-report html failed: $(cat "$WORK/err")"
[ -s "$WORK/err" ] && fail "stderr: $(cat "$WORK/err")"
P=$WORK/page.html
has() {
	grep -q -F -e "$1" "$P" || fail "no '$1' in the page"
}
count() {
	n=$(grep -o -F -e "$1" "$P" | wc -l)
	[ "$n" = "$2" ] || fail "'$1' $n times, expected $2"
}

# Nothing from outside the page, no script.
grep -qi '<script' "$P" && fail "a script"
grep -qi 'http' "$P" && fail "a URL: $(grep -oi '.\{20\}http.\{20\}' "$P" | head -1)"
grep -qi 'url(' "$P" && fail "a url()"

# The sides: mirror-on's three repeats as one row of means with the runs
# behind a <details>; the 1.03 line's two machines and the document's
# two runs each as theirs.
count '<details><summary>3 runs</summary>' 1
count '<details><summary>2 runs</summary>' 1
count 'mean of 3 runs' 1
has 'mirror-on<div class="ver">2.00a<br>mean of 3 runs</div>'
has '>131m ±8.1m</td>'

# Compare's verdicts: each side against mirror-on, the words of
# report_judge, and the per-char note of the 1.03 line.
has '<h2>Compared with the baseline</h2>'
sed -n '/<h2>Compared with the baseline<\/h2>/,$p' "$P" >"$WORK/cmp"
[ "$(grep -c '<h3>' "$WORK/cmp")" = 2 ] || fail "not two pairs compared: $(grep '<h3>' "$WORK/cmp")"
has '<h3>convm004 (san-1.csv, 1 line) against baseline mirror-on (page-3side.csv, 3 lines)</h3>'
has '<h3>vm (run.json, 2 lines) against baseline mirror-on (page-3side.csv, 3 lines)</h3>'
has '<td>within noise</td>'
grep -q '<td class="\(better\|worse\)">\(faster\|slower\|more CPU\|less CPU\)</td>' "$P" ||
	fail "no verdict names a direction"
has 'per-char figures (putc, getc) differ in meaning'
# The notes above the table, and the settings of the one document.
has '<p class="warn">These rows come from different machines or setups'
has 'only vm is from a clyde JSON document'
# The charts, inline SVG between the table and the compare section: a
# bar per side in each figure's panel, the verdicts under the bars, and
# the hatched +++++ markers (vm's JSON has +++++ cells).
sed -n '/<table class="main">/,/<h2>Compared with the baseline<\/h2>/p' "$P" >"$WORK/mid"
grep -q '<section class="charts">' "$WORK/mid" || fail "no charts between the table and the comparison"
n=$(grep -c '<svg class="panel"' "$WORK/mid")
[ "$n" -ge 13 ] || fail "only $n chart panels"
for s in 0 1 2; do
	grep -q "<rect class=\"bar\" data-fig=\"put_block\" data-series=\"$s\" data-panel=\"rate\"" "$WORK/mid" ||
		grep -q "<g class=\"fast\" data-fig=\"put_block\" data-series=\"$s\"" "$WORK/mid" ||
		fail "no block output bar or marker for side $s"
done
grep -q '<g class="verdict" data-fig="put_block" data-series="1"' "$WORK/mid" ||
	fail "no verdict under the second side's block output bar"
grep -q '<g class="fast"' "$WORK/mid" || fail "no +++++ marker"
grep -q -- '+++++: under 0.5 s, not timed' "$WORK/mid" || fail "no note for the +++++ markers"

# Throughput over time, from a document with --log-interval's
# intervals: a step chart per test it logged; none without them.
"$R" html "$DATA/intervals.json" >"$WORK/time.html" || fail "html of intervals.json failed"
[ "$(grep -c '<svg class="time"' "$WORK/time.html")" = 3 ] ||
	fail "not three charts over time: $(grep -c '<svg class="time"' "$WORK/time.html")"
grep -q '<section class="over-time">' "$P" && fail "charts over time without intervals"

# In Chromium: a page, not a blank.
. "${T_SRCDIR:-$(dirname "$0")}/chromium-lib.sh"
shot "$P" "$WORK/page.png" 1400 1400
hist "$WORK/page.png" 1400 1400
colours=$(wc -l <"$WORK/hist")
[ "$colours" -ge 100 ] || fail "a blank page: $colours colours"
white=$(px 255 255 255)
[ "$white" -lt $((1400 * 1400 * 9 / 10)) ] || fail "the page is nearly all white"
best=$(px 66 146 198)
[ "$best" -ge 1000 ] || fail "hardly any shading: $best pixels of the best blue"
echo "screenshot: $colours colours, $best best blue, $white white pixels"
exit 0
