#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report reads clyde-pgscan's documents (clyde's document with
# "program": "clyde-pgscan", settings.pgscan and a pg_scan test in each
# run) and shows pg_scan wherever clyde's extended figures show: txt's
# More figures with each run's ratio line against its block input,
# compare's rows and each side's ratio, html's More figures table (a
# row per side) and its ratio lines, a chart panel, plot's panel; json
# writes the document again keeping program and settings.pgscan. A bad
# pg_scan record or settings.pgscan value is one line naming the key,
# exit 2. clyde itself refuses --only=pg_scan: another program measures
# it.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
R=${CLYDE_REPORT:?}
A="$T_SRCDIR/data/pgscan.json"
B="$T_SRCDIR/data/pgscan-2ctl.json"
J="$WORK/bad.json"

# txt: the More figures rows, then a ratio line per run.
expect_status 0 "$R" txt "$A"
[ -s "$WORK/err" ] && fail "txt: stderr: $(cat "$WORK/err")"
grep -q '^db1  *pg_scan  *209960 KiB/s  *97 *$' "$WORK/out" ||
	fail "txt: no pg_scan row: $(cat "$WORK/out")"
grep -q '^More figures ' "$WORK/out" || fail "txt: no More figures section"
for want in \
	'db1                 PostgreSQL seq scan = 86% of block input (215 MB/s / 250 MB/s), backend CPU 97%' \
	'db1                 PostgreSQL seq scan = 85% of block input (213 MB/s / 252 MB/s), backend CPU 96%'; do
	grep -qxF "$want" "$WORK/out" || fail "txt: no line '$want': $(cat "$WORK/out")"
done
# Each ratio line after its section, and one per run.
[ "$(grep -c 'PostgreSQL seq scan =' "$WORK/out")" = 2 ] ||
	fail "txt: not two ratio lines"
[ "$(tail -n 1 "$WORK/out" | cut -c1-40)" = 'db1                 PostgreSQL seq scan ' ] ||
	fail "txt: the ratio lines are not last"

# A run without its scan, or with a too-fast one, has no ratio line.
jq 'del(.runs[1].tests.pg_scan) | .runs[0].tests.pg_scan.status = "too-fast"' \
	"$A" >"$J"
expect_status 0 "$R" txt "$J"
grep -q 'PostgreSQL seq scan =' "$WORK/out" && fail "txt: a ratio of no scan"
grep -q '^db1  *pg_scan  *+++++ KiB/s  *+++ *$' "$WORK/out" ||
	fail "txt: the too-fast scan's row: $(cat "$WORK/out")"

# compare: pg_scan judged (280 against 215 MB/s is faster), each side's
# ratio from its means.
expect_status 0 "$R" compare "$A" "$B"
grep -q '^pg_scan  *KiB/s .* +31\.3% .* faster$' "$WORK/out" ||
	fail "compare: pg_scan not judged faster: $(cat "$WORK/out")"
grep -q '^pg_scan cpu  *%CP ' "$WORK/out" || fail "compare: no pg_scan cpu row"
grep -qxF 'baseline: PostgreSQL seq scan = 85% of block input (214 MB/s / 251 MB/s), backend CPU 96%' \
	"$WORK/out" || fail "compare: no baseline ratio: $(cat "$WORK/out")"
grep -qxF 'this:     PostgreSQL seq scan = 76% of block input (281 MB/s / 369 MB/s), backend CPU 99%' \
	"$WORK/out" || fail "compare: no ratio of this side: $(cat "$WORK/out")"
# --csv stays one table: no ratio lines in it.
expect_status 0 "$R" compare --csv "$A" "$B"
grep -q 'PostgreSQL' "$WORK/out" && fail "compare --csv: a ratio line in the CSV"
grep -q '^pg_scan,KiB/s,' "$WORK/out" || fail "compare --csv: no pg_scan row"

# html: the More figures row of each side (the mean of its two runs),
# the ratio lines, a chart panel of pg_scan.
expect_status 0 "$R" html "$A" "$B"
grep -q '^<tr><td class="name">db1<div class="ver">mean of 2 runs</div></td><td class="label">PostgreSQL seq scan</td><td title="mean 208984, 95% CI 196576 to 221391 KiB/s (2 runs)">204m ' \
	"$WORK/out" || fail "html: no pg_scan row in More figures"
[ "$(grep -c '<td class="label">PostgreSQL seq scan</td>' "$WORK/out")" = 2 ] ||
	fail "html: not a pg_scan row per side: $(grep '<td class="label">PostgreSQL seq scan</td>' "$WORK/out")"
grep -qF '<p class="note pgscan">db1 (mean of 2 runs): PostgreSQL seq scan = 85% of block input (214 MB/s / 251 MB/s), backend CPU 96%</p>' \
	"$WORK/out" || fail "html: no ratio line of a side"
grep -qF '<p class="note pgscan">This: PostgreSQL seq scan = 76% of block input' \
	"$WORK/out" || fail "html: no ratio line of the compared side"
grep -q '<title>db1 \[pgscan.json\] (mean of 2), PostgreSQL seq scan: 204.1 ' \
	"$WORK/out" || fail "html: no pg_scan bar in the charts"

# plot: pg_scan's tick in the script gnuplot is given.
if command -v gnuplot >/dev/null; then
	expect_status 0 "$R" plot -o "$WORK/p.svg" --script="$WORK/p.gp" "$A"
	grep -q '"pg seq\\nscan"' "$WORK/p.gp" || fail "plot: no pg_scan tick"
fi

# json: program, settings.pgscan and the scans kept, and read again.
expect_status 0 "$R" json -o "$WORK/again.json" "$A"
for part in .program .settings.pgscan '.runs[].tests.pg_scan' .runs; do
	jq -S "$part" "$A" >"$WORK/a"
	jq -S "$part" "$WORK/again.json" >"$WORK/b"
	cmp -s "$WORK/a" "$WORK/b" ||
		fail "json: $part differs: $(diff "$WORK/a" "$WORK/b" | head -10)"
done
expect_status 0 "$R" txt "$WORK/again.json"
grep -q '86% of block input' "$WORK/out" || fail "json: read again, no ratio"
# A line has no pg_scan: a CSV input's runs do not get one.
expect_status 0 "$R" json "$T_SRCDIR/data/r198.csv"
jq -e '.runs[0].tests | has("pg_scan") | not' "$WORK/out" >/dev/null ||
	fail "json of a CSV line: a pg_scan test"

# bad JQ WANT: the fixture changed by JQ is refused, one line, exit 2.
bad() {
	jq "$1" "$A" >"$J" || fail "jq $1"
	expect_one_line 2 "clyde-report: $J:1: $2" "$R" txt "$J"
	[ -s "$WORK/out" ] && fail "$1: output: $(cat "$WORK/out")"
}
bad '.runs[0].tests.pg_scan.rate = "fast"' \
	'runs[0].tests.pg_scan.rate "fast" is not a rate'
bad '.runs[1].tests.pg_scan.rate = -215' \
	'runs[1].tests.pg_scan.rate -215 is not a rate'
bad '.runs[0].tests.pg_scan.cpu_percent = 97.5' \
	'runs[0].tests.pg_scan.cpu_percent 97.5 is not a %CP'
bad '.runs[0].tests.pg_scan.status = "done"' \
	'runs[0].tests.pg_scan.status "done" is not a status'
bad '.settings.pgscan = [1]' 'settings.pgscan [1] is not an object'
bad '.settings.pgscan.relation_bytes = "67M"' \
	'settings.pgscan.relation_bytes "67M" is not a relation size'
bad '.settings.pgscan.scale = -1' 'settings.pgscan.scale -1 is not a pgbench scale'
bad '.settings.pgscan.parallel_workers = 2000' \
	'settings.pgscan.parallel_workers 2000 is not a number of parallel workers'
bad '.settings.pgscan.evict = "none"' 'settings.pgscan.evict "none" is not an eviction'
bad '.settings.pgscan.resident_after_evict = 1.5' \
	'settings.pgscan.resident_after_evict 1.5 is not a share of the table'
bad '.settings.pgscan.server_version = 15' \
	'settings.pgscan.server_version 15 is not a name'
bad '.program = "clyde-pgscan2"' 'program "clyde-pgscan2": not a clyde result document'
# A key the reader does not know is left alone, as elsewhere in settings.
jq '.settings.pgscan.checkpoint = "spread"' "$A" >"$J"
expect_status 0 "$R" txt "$J"

# clyde: another program's figure is no test of its own.
expect_one_line 2 "clyde: --only 'pg_scan': pg_scan is measured by clyde-pgscan" \
	"$CLYDE" -d "$WORK" --only=pg_scan
[ -s "$WORK/out" ] && fail "clyde --only=pg_scan: output: $(cat "$WORK/out")"
exit 0
