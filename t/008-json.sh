#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --json: a document jq reads, whose per-run rates are the CSV lines'
# figures, and whose keys are exactly those doc/clyde-json.5 lists.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
D="$WORK/d"
mkdir "$D"
DOC="${T_SRCDIR:-$(dirname "$0")}/../doc/clyde-json.5"

# (At most 100 synchronous writes: every key is there all the same.)
expect_status 0 "$CLYDE" -d "$D" -x 3 -s 32m -r 0 -n 1 -q -f 1m --sync-ops=100 --json="$WORK/out.json"
assert_empty "$D"
[ "$(grep -c '^1\.98,' "$WORK/out")" = 3 ] || fail "not 3 CSV lines: $(cat "$WORK/out")"
jq -e '.schema_version == 1 and (.runs | length) == 3' "$WORK/out.json" >/dev/null ||
	fail "jq: $(head -c 300 "$WORK/out.json")"
# The summary in the document (below) and on stderr, as without --json.
grep -q '^Summary of 3 runs' "$WORK/err" || fail "--json: no summary on stderr: $(cat "$WORK/err")"

# Every CSV figure equals the JSON rate of the same run and test (seeks:
# the CSV rounds to whole seeks/s from 1000 on).
names="putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del"
run=0
tail -n 3 "$WORK/out" | while IFS= read -r line; do
	f=10
	for t in $names; do
		[ $f = 22 ] && f=27
		csv=$(printf '%s\n' "$line" | cut -d, -f$f)
		js=$(jq -r ".runs[$run].tests.$t.rate" "$WORK/out.json")
		status=$(jq -r ".runs[$run].tests.$t.status" "$WORK/out.json")
		case $csv in
		+++++) [ "$status" = too-fast ] || fail "run $run $t: +++++ but status $status" ;;
		*) awk -v a="$csv" -v b="$js" 'BEGIN { exit !(a == b || (a - b <= 0.5 && b - a <= 0.5)) }' ||
			fail "run $run $t: CSV $csv, JSON $js" ;;
		esac
		f=$((f + 2))
	done
	[ "$(jq -r ".runs[$run].csv" "$WORK/out.json")" = "$line" ] || fail "run $run: csv key differs"
	run=$((run + 1))
done || exit 1
jq -e '.summary.put_block.n == 3 and .summary.put_block.ci_low <= .summary.put_block.mean' \
	"$WORK/out.json" >/dev/null || fail "summary: $(jq -c .summary.put_block "$WORK/out.json")"
jq -e '[.runs[].data_compress_ratio | . > 0.99] == [true, true, true]' "$WORK/out.json" >/dev/null ||
	fail "data_compress_ratio: $(jq -c '[.runs[].data_compress_ratio]' "$WORK/out.json")"
jq -e '[.runs[].tests.put_block.latency.count] == [4096, 4096, 4096]' "$WORK/out.json" >/dev/null ||
	fail "latency counts"
jq -e '.runs[0].tests.put_block | (.histogram | map(.[2]) | add) == .latency.count' \
	"$WORK/out.json" >/dev/null || fail "histogram counts do not add up"

# The keys: what the document has and what the man page lists. A
# test's keys are TEST's for each figure clyde measures, as the registry
# (lib/figures.h) has them: a new figure needs no edit here.
tests=$(sed -nE 's/^	X\(([a-z_]+), "[^"]*", [A-Z]+, (IO|SEQ|RAN),.*/\1/p' \
	"${T_SRCDIR:-$(dirname "$0")}/../lib/figures.h" | paste -sd'|')
[ -n "$tests" ] || fail "no figure found in lib/figures.h"
jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique | .[]' \
	"$WORK/out.json" | sed 's/\.\[\]/[]/g' |
	sed -E "s/^(runs\[\]\.tests|summary)\.($tests)(\.|\$)/\1.TEST\3/" |
	sort -u >"$WORK/have"
# A key is the .B line right after a .TP in the KEYS section; a troff
# comment marks the ones present only sometimes.
keys() {
	sed -n '/^\.SH KEYS/,/^\.SH /p' "$DOC" |
		awk -v all="$1" 'prev == ".TP" && /^\.B / && (all || !/conditional/) { print $2 } { prev = $0 }' |
		sort -u
}
keys 0 >"$WORK/listed"
keys 1 >"$WORK/all"
missing=$(comm -23 "$WORK/listed" "$WORK/have")
[ -z "$missing" ] || fail "documented but not in the output: $missing"
extra=$(comm -13 "$WORK/all" "$WORK/have")
[ -z "$extra" ] || fail "in the output but not documented: $extra"

# --json alone: the document on stdout, tables and CSV on stderr.
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -f --json --only=put_block,seeks
jq -e '.settings.only == ["put_block", "seeks"] and .runs[0].tests.putc.status == "skipped"' \
	"$WORK/out" >/dev/null || fail "--json to stdout: $(head -c 300 "$WORK/out")"
grep -q '^1\.98,' "$WORK/err" || fail "--json: CSV line not on stderr"

# A failed run is still written, with its error.
( ulimit -f 8192 && exec "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -f --json="$WORK/f.json" ) \
	>"$WORK/out" 2>"$WORK/err"
[ $? = 1 ] || fail "failed run: exit status"
jq -e '.runs[0].tests.put_block.status == "failed" and (.runs[0].error | test("File too large"))' \
	"$WORK/f.json" >/dev/null || fail "failed run JSON: $(jq -c '.runs[0].error' "$WORK/f.json")"
assert_empty "$D"

expect_status 2 "$CLYDE" -d "$D" --json=
exit 0
