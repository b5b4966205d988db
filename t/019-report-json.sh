#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report json: a clyde document read and written again keeps its
# figures, histograms, CPU split, settings and summary (only the
# converted_by key is new); bonnie++ lines of each format become valid
# documents whose tables are the lines' own; txt --latency gives each
# document run's latency listing from its histograms, as clyde -v
# printed it; bad input is one line and exit 2.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
R=${CLYDE_REPORT:?}
DATA="$T_SRCDIR/data"
D="$WORK/d"
mkdir "$D"

# A short real run, two repeats, with latencies and file tests.
expect_status 0 "$CLYDE" -d "$D" -s 8m -r 4m -n 1 -x 2 -q -z 1 -f 1m \
	--json="$WORK/run.json"
expect_status 0 "$R" json -o "$WORK/again.json" "$WORK/run.json"
[ -s "$WORK/out" ] && fail "json -o: stdout: $(cat "$WORK/out")"
jq -e '.converted_by | startswith("clyde-report ")' "$WORK/again.json" \
	>/dev/null || fail "no converted_by: $(head -c 300 "$WORK/again.json")"
# Whole subtrees, sorted; the one key the reader adds excluded by name.
for part in .runs .settings .target .summary '.runs[].tests[].histogram' \
	'.runs[].tests[] | [.user, .sys]' 'del(.converted_by)'; do
	jq -S "$part" "$WORK/run.json" >"$WORK/a"
	jq -S "$part" "$WORK/again.json" >"$WORK/b"
	cmp -s "$WORK/a" "$WORK/b" ||
		fail "json: $part differs: $(diff "$WORK/a" "$WORK/b" | head -10)"
done
jq -e '[.runs[].tests.put_block.histogram | length > 0] == [true, true]' \
	"$WORK/again.json" >/dev/null || fail "no histograms: $(head -c 300 "$WORK/again.json")"
# Read back, the tables are the first document's.
expect_status 0 "$R" txt "$WORK/run.json"
mv "$WORK/out" "$WORK/run.txt"
expect_status 0 "$R" txt "$WORK/again.json"
cmp -s "$WORK/out" "$WORK/run.txt" || fail "txt of the copy differs"

# txt --latency: the listing clyde -v printed (between the tables and
# the CSV line), from the histograms of the document, under the run's
# name, file and place.
expect_status 0 "$CLYDE" -d "$D" -s 8m -r 4m -n 1 -z 1 -m lat-vm -v -f 1m \
	--json="$WORK/v.json"
sed -n '/^Latency  *min/,/^1\.98,/p' "$WORK/out" | sed '$d' >"$WORK/v.want"
# (a heading and a line per test the run measured: its document's
# tests, so a figure a phase adds is counted as well)
tests=$(jq '[.runs[0].tests[] | select(has("histogram"))] | length' "$WORK/v.json")
[ "$tests" -ge 15 ] || fail "clyde -v: $tests tests: $(head -c 300 "$WORK/v.json")"
[ "$(wc -l <"$WORK/v.want")" = $((tests + 1)) ] || fail "clyde -v: $(cat "$WORK/out")"
expect_status 0 "$R" txt --latency "$DATA/r198.csv" "$WORK/v.json"
grep -qx "lat-vm ($WORK/v.json, run 1)" "$WORK/out" ||
	fail "--latency: no heading: $(cat "$WORK/out")"
sed -n '/^Latency  *min/,$p' "$WORK/out" >"$WORK/v.got"
cmp -s "$WORK/v.got" "$WORK/v.want" ||
	fail "--latency: $(diff "$WORK/v.got" "$WORK/v.want" | head -10)"
# The tables before it are txt's own.
expect_status 0 "$R" txt "$DATA/r198.csv" "$WORK/v.json"
cp "$WORK/out" "$WORK/v.txt"
expect_status 0 "$R" txt --latency "$DATA/r198.csv" "$WORK/v.json"
cmp -s "$WORK/v.txt" "$WORK/out" && fail "--latency: no listing"
head -c "$(wc -c <"$WORK/v.txt")" "$WORK/out" | cmp -s - "$WORK/v.txt" ||
	fail "--latency: the tables differ"
# Lines hold no histograms: a warning, exit 0; other subcommands refuse.
expect_status 0 "$R" txt --latency "$DATA/r198.csv"
grep -qx 'clyde-report: warning: --latency: no input holds latency histograms (clyde JSON documents do)' \
	"$WORK/err" || fail "--latency of lines: $(cat "$WORK/err")"
expect_status 2 "$R" html --latency "$WORK/v.json"
grep -qx 'clyde-report: --latency does not apply to html (try --help)' \
	"$WORK/err" || fail "html --latency: $(cat "$WORK/err")"

# bonnie++ lines of each format: a valid document of as many runs, its
# csv keys 1.98 lines, its tables the lines' in both layouts.
for f in r198 r197 r103; do
	expect_status 0 "$R" json "$DATA/$f.csv"
	mv "$WORK/out" "$WORK/$f.json"
	lines=$(grep -c . "$DATA/$f.csv")
	jq -e --argjson n "$lines" '.schema_version == 1 and .program == "clyde"
		and (.runs | length) == $n and .settings == null
		and ([.runs[].csv | split(",") | length] | unique) == [50]
		and ([.runs[].csv | startswith("1.98,")] | all)
		and ([.runs[].tests[] | has("histogram") or has("work")] | any | not)' \
		"$WORK/$f.json" >/dev/null || fail "$f: $(head -c 400 "$WORK/$f.json")"
	for layout in 2.00 1.03; do
		expect_status 0 "$R" txt --format=$layout "$DATA/$f.csv"
		mv "$WORK/out" "$WORK/$f.txt"
		expect_status 0 "$R" txt --format=$layout "$WORK/$f.json"
		cmp -s "$WORK/out" "$WORK/$f.txt" ||
			fail "$f $layout: $(diff "$WORK/out" "$WORK/$f.txt" | head -10)"
	done
done
# The 1.98 line of a 1.98 input is the line itself.
head -n 1 "$DATA/r198.csv" | tr -d '\r' >"$WORK/a"
jq -r '.runs[0].csv' "$WORK/r198.json" >"$WORK/b"
cmp -s "$WORK/a" "$WORK/b" || fail "r198: csv key: $(cat "$WORK/b")"

# Bad input: one line, exit 2, no document; --skip-bad goes on.
printf '1.98,x,y\n' >"$WORK/bad.csv"
expect_status 2 "$R" json -o "$WORK/never.json" "$WORK/bad.csv"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "bad: $(cat "$WORK/err")"
grep -q "^clyde-report: $WORK/bad.csv:1: " "$WORK/err" || fail "bad: $(cat "$WORK/err")"
[ -e "$WORK/never.json" ] && fail "bad: the output was made"
[ -s "$WORK/out" ] && fail "bad: stdout: $(cat "$WORK/out")"
cat "$WORK/bad.csv" "$DATA/r197.csv" >"$WORK/mixed.csv"
expect_status 0 "$R" --skip-bad json "$WORK/mixed.csv"
jq -e '.runs | length == 2' "$WORK/out" >/dev/null || fail "skip-bad: $(head -c 300 "$WORK/out")"
printf '{"runs": []}\n' >"$WORK/noschema.json"
expect_status 2 "$R" json "$WORK/noschema.json"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "no schema: $(cat "$WORK/err")"
exit 0
