#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --log-interval without a rig: its bad values refused in one line, the
# intervals in the JSON document adding up to each test's figures (one
# process and -c 2, each worker's own and their sum), read back by
# clyde-report (json keeps them, a bad one is refused, and so are one
# worker's intervals out of time order), and plot --over-time refusing
# input without them.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq not installed"
REPORT=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
D="$WORK/d"
mkdir "$D"

for bad in 0 -5 abc 9 1.5 3600001 99999999999 ""; do
	expect_refused "--log-interval '$bad'" "$CLYDE" -d "$D" -s 16m --log-interval="$bad"
	assert_empty "$D"
done
# Without --json the intervals would go nowhere: refused, not dropped.
expect_refused "^clyde: --log-interval '200': the intervals are kept only in the JSON document: give --json\\[=FILE\\] as well\$" \
	"$CLYDE" -d "$D" -s 16m --log-interval=200
assert_empty "$D"
"$CLYDE" --help | grep -q -- "--log-interval=MS" || fail "--help does not name --log-interval"

# One process: every operation counted once, the bytes adding up to the
# work, the ends in order, p50 <= p99 <= max; seeks (timed in the
# seekers, counted by the parent's watch) their operations alone.
"$CLYDE" -d "$D" -s 32m:64k -r 0 -q -n 0 -f --only=put_block,get_block,seeks,ran_read \
	--ran-ops=3000 --log-interval=20 --json="$WORK/one.json" >/dev/null 2>"$WORK/err" ||
	fail "clyde: $(cat "$WORK/err")"
jq -e '.settings.log_interval_ms == 20' "$WORK/one.json" >/dev/null || fail "no log_interval_ms"
for t in put_block get_block ran_read; do
	jq -e --arg t "$t" '.runs[0].tests[$t] as $x | $x.intervals as $iv |
		($iv | length) >= 1 and
		([$iv[].bytes] | add) == (if $t == "ran_read" then $x.work * 4096 else $x.work end) and
		([$iv[].ops] | add) == (if $t == "ran_read" then $x.work else $x.work / 65536 end) and
		([range(1; $iv | length) as $i | $iv[$i].end > $iv[$i - 1].end] | all) and
		([$iv[] | .p50_ns <= .p99_ns and .p99_ns <= .max_ns and .max_ns <= $x.max_latency_ns] | all) and
		(([$iv[].seconds] | add) - $iv[-1].end | fabs) < 1e-6' \
		"$WORK/one.json" >/dev/null || fail "$t: intervals that do not add up: $(jq -c --arg t "$t" '.runs[0].tests[$t]' "$WORK/one.json")"
done
jq -e '.runs[0].tests.seeks as $x | ([$x.intervals[].ops] | add) == $x.work and
	([$x.intervals[] | has("p50_ns") | not] | all)' "$WORK/one.json" >/dev/null ||
	fail "seeks: intervals that do not add up: $(jq -c '.runs[0].tests.seeks' "$WORK/one.json")"
# Without it, only the tests that write have intervals (clyde's own, for
# their write-cache cliff) and a cliff looked for in them.
"$CLYDE" -d "$D" -s 8m -r 0 -q -n 0 -f --only=put_block,get_block --json="$WORK/off.json" >/dev/null 2>&1
jq -e '.settings.log_interval_ms == null and (.runs[0].tests.get_block | has("intervals") | not) and
	(.runs[0].tests.put_block | has("intervals") and has("cliff"))' \
	"$WORK/off.json" >/dev/null || fail "intervals without --log-interval: $(jq -c '.runs[0].tests.get_block' "$WORK/off.json" | head -c 300)"

# -c 2: each worker's intervals, and the test's as their sum.
"$CLYDE" -d "$D" -s 32m:64k -r 0 -q -n 0 -f -c 2 --only=put_block \
	--log-interval=20 --json="$WORK/two.json" >/dev/null 2>"$WORK/err" ||
	fail "clyde -c 2: $(cat "$WORK/err")"
jq -e '.runs[0].tests.put_block as $x |
	($x.workers | length) == 2 and
	([$x.workers[] | (.intervals | length) >= 1 and ([.intervals[].bytes] | add) == .work] | all) and
	([$x.intervals[].ops] | add) == ([$x.workers[].intervals[].ops] | add) and
	([$x.intervals[] | has("p99_ns") | not] | all)' "$WORK/two.json" >/dev/null ||
	fail "-c 2: worker intervals: $(jq -c '.runs[0].tests.put_block' "$WORK/two.json")"
assert_empty "$D"

# clyde-report reads them back: json keeps them; a bad one is refused.
"$REPORT" json "$WORK/one.json" >"$WORK/again.json" || fail "clyde-report json"
[ "$(jq -c '.runs[0].tests.put_block.intervals' "$WORK/again.json")" = \
	"$(jq -c '.runs[0].tests.put_block.intervals' "$WORK/one.json")" ] ||
	fail "clyde-report json changed the intervals"
jq '.runs[0].tests.put_block.intervals[0].ops = -1' "$WORK/one.json" >"$WORK/bad.json"
expect_refused "intervals\[0\].ops" "$REPORT" txt "$WORK/bad.json"
jq '.runs[0].tests.put_block.intervals = 3' "$WORK/one.json" >"$WORK/bad.json"
expect_refused "put_block.intervals" "$REPORT" txt "$WORK/bad.json"

# Their times. One worker's log tiles the timed window: read as it is,
# and reversed, shuffled or with a gap refused by every format that reads
# it, the line naming the file and the key. A sum of workers' (-c 2)
# overlaps and need not be in order; but none of its intervals may start
# before the test.
iv() {
	printf '{"end": %s, "seconds": %s, "ops": 8, "bytes": 524288, "max_ns": 9000}' "$1" "$2"
}
tiled="[$(iv 0.2 0.2), $(iv 0.4 0.2), $(iv 0.6 0.2), $(iv 0.65 0.05)]"
jq --argjson v "$tiled" '.runs[0].tests.put_block.intervals = $v' \
	"$WORK/one.json" >"$WORK/tiled.json"
"$REPORT" txt "$WORK/tiled.json" >/dev/null 2>"$WORK/err" ||
	fail "intervals that tile refused: $(cat "$WORK/err")"
jq '.runs[0].tests.put_block.intervals |= reverse' "$WORK/tiled.json" >"$WORK/rev.json"
order="rev.json:1: runs\[0\]\.tests\.put_block\.intervals\[1\]\.end 0.6 is not in time order"
for f in txt html json; do
	expect_refused "$order" "$REPORT" "$f" "$WORK/rev.json"
	[ -s "$WORK/out" ] && fail "$f of reversed intervals wrote: $(head -3 "$WORK/out")"
done
if command -v gnuplot >/dev/null 2>&1; then
	for o in "" --over-time; do
		expect_refused "$order" "$REPORT" plot $o -o "$WORK/rev.png" "$WORK/rev.json"
		[ ! -e "$WORK/rev.png" ] || fail "plot $o drew reversed intervals"
	done
fi
jq '.runs[0].tests.put_block.intervals |= [.[0], .[2], .[1], .[3]]' \
	"$WORK/tiled.json" >"$WORK/bad.json"
expect_refused "put_block\.intervals\[2\]\.end 0.4 is not in time order" \
	"$REPORT" txt "$WORK/bad.json"
jq '.runs[0].tests.put_block.intervals |= del(.[1])' "$WORK/tiled.json" >"$WORK/bad.json"
expect_refused "put_block\.intervals\[1\]\.seconds 0.2 is not the time since intervals\[0\] ended" \
	"$REPORT" txt "$WORK/bad.json"
jq '.runs[0].tests.put_block.intervals[0].seconds = 0.1' "$WORK/tiled.json" >"$WORK/bad.json"
expect_refused "put_block\.intervals\[0\]\.seconds 0.1 is not the time since the test began" \
	"$REPORT" txt "$WORK/bad.json"
"$REPORT" txt "$WORK/two.json" >/dev/null 2>"$WORK/err" ||
	fail "clyde's own -c 2 document refused: $(cat "$WORK/err")"
jq '.runs[0].tests.put_block.intervals[0].seconds |= . + 1' "$WORK/two.json" >"$WORK/bad.json"
expect_refused "put_block\.intervals\[0\]\.seconds .* is not within the test" \
	"$REPORT" txt "$WORK/bad.json"

# plot --over-time: only for plot, and input without intervals refused.
expect_refused "--over-time does not apply to txt" "$REPORT" txt --over-time "$WORK/one.json"
if command -v gnuplot >/dev/null 2>&1; then
	jq 'del(.runs[].tests[].intervals)' "$WORK/off.json" >"$WORK/none.json"
	expect_refused "no test in the input has intervals" \
		"$REPORT" plot --over-time -o "$WORK/n.png" "$WORK/none.json"
	[ ! -e "$WORK/n.png" ] || fail "a picture without intervals"
	"$REPORT" plot --over-time -o "$WORK/two.svg" "$WORK/one.json" "$WORK/two.json" ||
		fail "plot --over-time of two documents"
	grep -q "<svg" "$WORK/two.svg" || fail "no SVG drawn"
fi
exit 0
