#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report html: the page of each input format (1.98, 1.97, 1.03
# CSV, a clyde JSON document) byte for byte against its golden copy,
# the rates as txt prints them, bon_csv2html's colouring rule
# (--colours=bonnie) and the default blue scale, repeats as a mean with
# the runs in a <details>, the compare section and the settings that
# differ, escaping, percentiles from JSON, -o and --title, text of 12px
# or more, and no name of anything outside the page.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
DATA=${T_SRCDIR:-$(dirname "$0")}/data

# html ARGS...: render into $WORK/out; $WORK/page is the same with the
# version in the generator line replaced, so golden copies outlive a
# release.
html() {
	expect_status 0 "$R" html "$@"
	[ -s "$WORK/err" ] && fail "html $*: stderr: $(cat "$WORK/err")"
	# The golden pages hold the table and the compare section; the
	# charts' sections are check_svg's to check, so they are cut here.
	sed -e 's/\(<meta name="generator" content="clyde-report \)[^"]*"/\1VERSION"/' \
		-e '/^<section class="\(charts\|over-time\)">$/,/^<\/section>$/d' \
		"$WORK/out" >"$WORK/page"
}

# golden NAME ARGS...: the page equals data/NAME.html.expected.
golden() {
	gold=$DATA/$1.html.expected
	shift
	html "$@"
	cmp -s "$WORK/page" "$gold" ||
		fail "html $*: not as $gold:
$(diff "$gold" "$WORK/page" | head -20)"
}

# has TEXT / hasnt TEXT: in the last page or not.
has() {
	grep -q -F -e "$1" "$WORK/out" || fail "no '$1' in the page"
}
hasnt() {
	grep -q -F -e "$1" "$WORK/out" && fail "'$1' in the page"
	return 0
}

golden r198 "$DATA/r198.csv"
golden r197 "$DATA/r197.csv"
golden r103 "$DATA/r103.csv"
golden run "$DATA/run.json"
golden all --title='Four inputs: <1.98> & "1.97", 1.03, JSON' \
	"$DATA/r198.csv" "$DATA/r197.csv" "$DATA/r103.csv" "$DATA/run.json"

# The generator line names this program and its version.
version=$("$R" --version | cut -d' ' -f2)
html "$DATA/r198.csv"
has "<meta name=\"generator\" content=\"clyde-report $version\">"
has '<meta charset="utf-8">'

# Nothing outside the page: no URL at all, no script, no fetched file.
for f in r198.csv r197.csv r103.csv run.json; do
	html "$DATA/$f"
	grep -qi 'http' "$WORK/out" && fail "$f: a URL: $(grep -i http "$WORK/out")"
	grep -qiE '<script|<link|<img|<iframe|src=|url\(|@import' "$WORK/out" &&
		fail "$f: the page names an outside resource"
	[ "$(grep -c '<style>' "$WORK/out")" = 1 ] || fail "$f: no inline style"
done

# One row per result, a latency row under each line that has latencies.
html "$DATA/r198.csv"
[ "$(grep -c '<td class="name" rowspan="2">' "$WORK/out")" = 2 ] || fail "r198: not 2 rows"
[ "$(grep -c '<tr class="lat">' "$WORK/out")" = 2 ] || fail "r198: not 2 latency rows"
html "$DATA/r103.csv"
[ "$(grep -c '<td class="name" rowspan="1">' "$WORK/out")" = 2 ] || fail "r103: not 2 rows"
hasnt '<tr class="lat">'
has '<td class="name" rowspan="1">convm004<div class="ver">1.03 format</div></td><td class="label">16G</td><td style="background:#4292C6" title="51346 KiB/s">50.1m</td>'

# Units: KiB/s for every I/O rate, per-char included (bon_csv2html 2.00
# says M/sec); seeks and files per second.
[ "$(grep -o '<th class="unit">K/sec</th>' "$WORK/out" | wc -l)" = 5 ] || fail "not 5 K/sec columns"
[ "$(grep -o '<th class="unit">/sec</th>' "$WORK/out" | wc -l)" = 1 ] || fail "not 1 /sec column"
[ "$(grep -o '<th class="unit">files/sec</th>' "$WORK/out" | wc -l)" = 6 ] || fail "not 6 files/sec columns"
hasnt 'M/sec'

# I/O rates as clyde-report txt prints them, the exact figure in the
# title; seeks and file tests as written.
html "$DATA/r198.csv"
"$R" txt "$DATA/r198.csv" | grep -q ' 439m  71 ' || fail "txt does not print 439m"
has 'title="449755 KiB/s">439m</td>'
has 'title="301234 KiB/s">294m</td>'
sed -n '/<table class="main">/,/<\/table>/p' "$WORK/out" | grep -q '>449755<' &&
	fail "a raw KiB/s figure in the table"

# Colours, two rows (r198.csv): the faster block output is all green, the
# slower all red; %CP per unit of work and latency are greener lower.
html --colours=bonnie "$DATA/r198.csv"
has '<td style="background:#00FF00" title="449755 KiB/s">439m</td><td style="background:#00FF00">71</td>'
has '<td style="background:#FF0000" title="301234 KiB/s">294m</td><td style="background:#FF0000">58</td>'
has '<td colspan="2" style="background:#00FF00">8094us</td>'
has '<td colspan="2" style="background:#FF0000">162ms</td>'
# Sequential stat: one figure and a +++++, so no colour; +++++ and the
# empty per-char cells are never coloured.
has '<td>28440</td><td>79</td>'
has '<td>+++++</td><td>+++</td>'
has '<td></td><td></td>'
grep -q 'style="[^"]*">+++' "$WORK/out" && fail "a +++++ cell is coloured"
grep -q 'style="[^"]*"></td>' "$WORK/out" && fail "an empty cell is coloured"

# Three rows 100000, 200000, 300000 KiB/s with latencies 1, 2, 3 ms: the
# middle is green 255 * 0.5 = 127.5 -> 128 (0x80), red 127 (0x7F).
line=$(head -n 1 "$DATA/r198.csv")
for k in 1 2 3; do
	printf '%s\n' "$line" | awk -F, -v OFS=, -v k=$k \
		'{ $3 = "m" k; $12 = k * 100000; $40 = k * 1000 "us"; print }'
done >"$WORK/three.csv"
html --colours=bonnie "$WORK/three.csv"
has '<td style="background:#FF0000" title="100000 KiB/s">97.7m</td>'
has '<td style="background:#7F8000" title="200000 KiB/s">195m</td>'
has '<td style="background:#00FF00" title="300000 KiB/s">293m</td>'
has '<td colspan="2" style="background:#00FF00">1000us</td>'
has '<td colspan="2" style="background:#7F8000">2000us</td>'
has '<td colspan="2" style="background:#FF0000">3000us</td>'
# %CP 71 over each: less CPU per KiB for the faster rows.
has '<td style="background:#FF0000">71</td>'
has '<td style="background:#00FF00">71</td>'

# Equal lines: nothing to tell apart, nothing coloured.
printf '%s\n%s\n' "$line" "$line" >"$WORK/same.csv"
html "$WORK/same.csv"
hasnt 'style="background:'

# Escaping: a name from a file and a title with the five characters.
printf '%s\n' "$line" | awk -F, -v OFS=, '{ $3 = "a<b&c>d \"q\" '\''s"; print }' >"$WORK/esc.csv"
html --title="<T&'\">" "$WORK/esc.csv"
has 'a&lt;b&amp;c&gt;d &quot;q&quot; &#39;s<div class="ver">'
has '<title>&lt;T&amp;&#39;&quot;&gt;</title>'
has '<h1>&lt;T&amp;&#39;&quot;&gt;</h1>'
hasnt 'a<b&c>d'
hasnt '<T&'

# The default title.
html "$DATA/r103.csv"
has '<title>clyde-report</title>'
has '<h1>clyde-report</h1>'

# Percentiles: only from JSON, and the document's own figures.
html "$DATA/r198.csv" "$DATA/r197.csv" "$DATA/r103.csv"
hasnt 'p50'
hasnt 'max&nbsp;'
html "$DATA/run.json"
# lat NS: the latency cell text, as units_fmt_latency prints it.
lat() {
	us=$(($1 / 1000))
	if [ "$us" -gt 99999 ]; then
		echo "$((us / 1000))ms"
	else
		echo "${us}us"
	fi
}
if command -v jq >/dev/null; then
	for t in put_block seeks seq_create; do
		jq -r ".runs[1].tests.$t.latency | .max_ns, .p50_ns, .p90_ns, .p99_ns, .p99_9_ns" \
			"$DATA/run.json" >"$WORK/pct"
		{
			read -r max
			read -r p50
			read -r p90
			read -r p99
			read -r p999
		} <"$WORK/pct"
		has "max&nbsp;$(lat "$max")<div class=\"pct\">p50&nbsp;$(lat "$p50")<br>p90&nbsp;$(lat "$p90")<br>p99&nbsp;$(lat "$p99")<br>p99.9&nbsp;$(lat "$p999")</div>"
	done
else
	echo "jq not installed: the percentile figures are checked by the golden copy only" >&2
fi
[ "$(grep -o '<div class="pct">' "$WORK/out" | wc -l)" = 24 ] || fail "not 12 percentile cells per run"
# The measured rate of a +++++ test is the cell's title.
has '<td title="measured '

# -o FILE: the same page; a page that cannot be written whole is removed.
html "$DATA/r198.csv"
cp "$WORK/out" "$WORK/stdout.html"
expect_status 0 "$R" html -o "$WORK/p.html" "$DATA/r198.csv"
cmp -s "$WORK/p.html" "$WORK/stdout.html" || fail "-o: not the page stdout gets"
expect_status 2 "$R" html -o "$WORK/none.html" "$WORK/no-such-input"
[ -e "$WORK/none.html" ] && fail "a page was left for a missing input"
over_fsize 2 "$R" html -o "$WORK/big.html" "$DATA/r198.csv" "$DATA/r197.csv" \
	"$DATA/r103.csv" "$DATA/run.json"
[ "$status" = 1 ] || fail "a page over the file size limit: exit $status, expected 1"
[ -e "$WORK/big.html" ] && fail "a half-written page was left behind"
grep -q 'big.html' "$WORK/err" || fail "no message for the failed page: $(cat "$WORK/err")"
# Options of other subcommands are refused.
expect_status 2 "$R" html --format=1.03 "$DATA/r198.csv"
# The default palette is a blue scale, the middle row halfway between
# its ends #EFF3FF (worst) and #4292C6 (best); the legend says so.
html "$WORK/three.csv"
has '<td style="background:#EFF3FF" title="100000 KiB/s">97.7m</td>'
has '<td style="background:#99C3E3" title="200000 KiB/s">195m</td>'
has '<td style="background:#4292C6" title="300000 KiB/s">293m</td>'
has '<span class="sw" style="background:#4292C6">best</span> (darkest blue)'
hasnt '#00FF00'
hasnt '#FF0000'
html --colours=bonnie "$WORK/three.csv"
has '<span class="sw" style="background:#00FF00">best</span> (green)'
expect_status 2 "$R" html --colours=purple "$DATA/r198.csv"
[ "$(wc -l <"$WORK/err")" = 1 ] && grep -q -- '--colours=purple' "$WORK/err" ||
	fail "--colours=purple: not one line naming it: $(cat "$WORK/err")"
expect_status 2 "$R" txt --colours=safe "$DATA/r198.csv"
grep -q -- '--colours does not apply to txt' "$WORK/err" || fail "txt --colours: $(cat "$WORK/err")"

# Unlike rows: a line above the table when they come from different
# machines (names or hosts) or their per-char figures mean different
# things; none for one machine.
html "$DATA/r198.csv" "$DATA/r103.csv"
sed -n '/<body>/,/<table/p' "$WORK/out" | grep -q '<p class="warn">These rows come from different machines' ||
	fail "no machines note above the table"
sed -n '/<body>/,/<table/p' "$WORK/out" | grep -q '<p class="warn">Per Chr columns hold figures of two meanings' ||
	fail "no per-char note above the table"
html "$WORK/same.csv"
hasnt 'different machines'

# Repeats (compare-repeats.csv, three lines a side): a row of means
# +- the 95% CI half-width each side, the runs in a <details>.
html "$DATA/compare-repeats.csv"
[ "$(grep -c '<details><summary>3 runs</summary>' "$WORK/out")" = 2 ] || fail "not 2 <details> of 3 runs"
[ "$(grep -c 'mean of 3 runs' "$WORK/out")" = 2 ] || fail "not 2 rows of means"
# put_block of mirror-on: 134822, 131200, 137900 KiB/s, mean 134641
# (131m as txt prints it), CI half-width 8331 KiB/s (8.1m), as compare.
has 'title="mean 134641, 95% CI 126310 to 142972 KiB/s (3 runs)">131m ±8.1m</td>'
"$R" compare "$DATA/compare-repeats.csv" | grep -q '^put_block  *KiB/s  *134641 +- 8331 ' ||
	fail "compare does not say 134641 +- 8331"
has '>396ms ±38ms</td>'
has '<td title="134822 KiB/s">132m</td>'
hasnt '<details><summary>1 runs'
# No script: <details> opens by itself.
hasnt '<script'

# The compare section: the verdicts of clyde-report compare --csv, in
# its order, and its words for them.
has '<h2>Compared with the baseline</h2>'
has '<h3>mirror-off (compare-repeats.csv, 3 lines) against baseline mirror-on (compare-repeats.csv, 3 lines)</h3>'
"$R" compare --csv "$DATA/compare-repeats.csv" | awk -F, 'NR > 1 { print ($NF == "" ? "-" : $NF) }' >"$WORK/v.csv"
grep '^<tr><td class="label">' "$WORK/out" | sed 's/.*<td[^>]*>\([^<]*\)<\/td><\/tr>$/\1/' >"$WORK/v.html"
cmp -s "$WORK/v.csv" "$WORK/v.html" || fail "the page's verdicts are not compare's: $(diff "$WORK/v.csv" "$WORK/v.html" | head)"
[ "$(wc -l <"$WORK/v.html")" -ge 30 ] || fail "hardly any figures compared"
has '<td class="better">faster</td>'
has '<td class="worse">more CPU</td>'
has '<td class="worse">slower</td>'
has '<td>within noise</td>'
# Their gist above the table: put_block, rewrite and their latencies
# faster, seeks and its latency slower, three figures more CPU, the
# "+++++" stat tests untested.
has '<p class="note">Verdicts: 4 faster, 2 slower, 3 more CPU, 23 within noise, 4 not tested'
# One side (two repeats of one name): no compare section.
html "$WORK/same.csv"
hasnt 'Compared with the baseline'

# Settings that differ, from JSON: a second document with another kernel
# and O_DIRECT; a CSV side shows it does not record them.
sed -e 's/"kernel": "6.18.44-fc-v782"/"kernel": "6.1.0-test"/' \
	-e 's/"direct": false/"direct": true/' "$DATA/run.json" >"$WORK/run2.json"
html "$DATA/run.json" "$WORK/run2.json" "$DATA/r103.csv"
has '<h2>Settings that differ</h2>'
has '<tr><td class="label">kernel</td><td>6.18.44-fc-v782</td><td>6.1.0-test</td><td>(CSV: not recorded)</td><td>(CSV: not recorded)</td></tr>'
has '<tr><td class="label">direct</td><td>false</td><td>true</td><td>(CSV: not recorded)</td><td>(CSV: not recorded)</td></tr>'
[ "$(sed -n '/Settings that differ/,/<\/table>/p' "$WORK/out" | grep -c '^<tr>')" = 2 ] ||
	fail "not 2 settings that differ"
html "$DATA/run.json" "$DATA/run.json"
hasnt 'Settings that differ'
html "$DATA/r198.csv" "$DATA/r103.csv"
hasnt 'Settings that differ'
hasnt 'clyde JSON document, which records'
html "$DATA/r103.csv" "$DATA/run.json"
has 'only vm is from a clyde JSON document'

# All text 12px or more: every size in pixels, none relative.
html "$DATA/r198.csv" "$DATA/r197.csv" "$DATA/r103.csv" "$DATA/run.json"
grep -q 'font-size:[0-9.]*\(%\|em\)' "$WORK/out" && fail "a relative font size: $(grep -o 'font-size:[^;}]*' "$WORK/out" | sort -u)"
for px in $(grep -o 'font-size:[0-9]*px' "$WORK/out" | tr -dc '0-9\n'); do
	[ "$px" -ge 12 ] || fail "text of ${px}px"
done
grep -q '\.pct{font-size:12px' "$WORK/out" || fail "percentiles not 12px"

# The same input, the same bytes.
cp "$WORK/out" "$WORK/first.html"
html "$DATA/r198.csv" "$DATA/r197.csv" "$DATA/r103.csv" "$DATA/run.json"
cmp -s "$WORK/out" "$WORK/first.html" || fail "two runs, two pages"
exit 0
