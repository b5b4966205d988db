#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --steady against the fault rig, a device whose answer is known.
#   A write-back cache of 32 MiB in front of a 20 MiB/s device (delay
#   write rate=20m cache=32m, after the data file's 64 MiB: skip=64m):
#   ran_write at 64k in rounds of 1 s is steady only after the cache is
#   full (the rounds before its window wrote at least 32 MiB), and its
#   figure, the window's mean, is within 5% of 20 MiB/s.
#   A device whose delay grows each second (fixed=1ms grow=2ms) is NOT
#   steady at --steady-max, and says so in the settings column.
#   ran_read, ran_mix and sync_write in rounds: each figure is its
#   window's operations over its window's time, and the table's settings
#   column and clyde-report's txt say what the JSON says.
#   Bad combinations are refused with one line, exit 2.
# t/081-steady-caps.sh runs a capped loop device (as root).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
MIB=1048576

# Refused: one line naming the value and why, exit 2, nothing made.
mkdir "$WORK/d"
refused() {
	want=$1
	shift
	"$CLYDE" -d "$WORK/d" -r 0 -n 0 "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ $rc -eq 2 ] || fail "clyde $*: exit $rc, not 2"
	[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "clyde $*: $(cat "$WORK/err")"
	grep -q -- "$want" "$WORK/err" || fail "clyde $*: $(cat "$WORK/err")"
	assert_empty "$WORK/d"
}
refused "^clyde: --round '5': rounds are --steady's" --round=5
refused "^clyde: --steady-max '9': shorter than one window (5 rounds of 2 s)" \
	--steady --round=2 --steady-max=9
refused "^clyde: --steady '5:20': expected ROUNDS:RANGE:SLOPE" --steady=5:20
refused "^clyde: --steady 'iops:2': expected" --steady=iops:2
refused "^clyde: --steady with -c:" --steady -c 2
# Where --only leaves out every test it sets, it would change nothing.
refused "^clyde: --steady: --only leaves out ran_read, ran_write, ran_mix and sync_write, the tests it sets$" \
	--steady --only=put_block,get_block
refused "^clyde: --steady with several -d:" --steady -d "$WORK/d"
refused "^clyde: --steady with :p99 and --no-latency" --steady=p99 --no-latency
refused "^clyde: --round '0': expected whole seconds" --steady --round=0

ff_setup

# run NAME ARGS...: clyde on the rig, -q, its table in $WORK/NAME.out,
# its JSON in $WORK/NAME.json; nothing left behind.
run() {
	rn=$1
	shift
	"$CLYDE" -d "$M" -r 0 -n 0 -q --json="$WORK/$rn.json" "$@" \
		>"$WORK/$rn.csv" 2>"$WORK/$rn.out" ||
		fail "clyde $*: $(cat "$WORK/$rn.out")"
	assert_empty "$B"
}

# window NAME TEST: the figure is the window's: its operations and time
# the sum of the window's rounds', and the settings column the steady
# words the JSON implies.
window() {
	s=".runs[0].tests.$2"
	jq -e "$s as \$t | \$t.steady as \$s | \$s.window as \$w |
		(\$s.rounds | length) >= \$s.rule.rounds and
		\$w.rounds == \$s.rule.rounds and
		\$w.first == (\$s.rounds | length) - \$w.rounds and
		([\$s.rounds[\$w.first:][] | .ops] | add) == \$t.work and
		(([\$s.rounds[\$w.first:][] | .seconds] | add) - \$t.elapsed) as \$d |
		\$d < 0.01 and \$d > -0.01" "$WORK/$1.json" >/dev/null ||
		fail "$2: the figure is not its window's: $(jq -c "$s | {work, elapsed, steady}" "$WORK/$1.json")"
	words=$(jq -r "$s.steady | if .steady then
		\"steady r\(.rounds | length) (\(.seconds | round) s)\" else
		\"NOT steady after \(.seconds | round) s\" end" "$WORK/$1.json")
	grep -q "^[^ ].* $2  .* $words\$" "$WORK/$1.out" ||
		fail "$2: no '$words' in its row: $(cat "$WORK/$1.out")"
	"$R" txt "$WORK/$1.json" >"$WORK/$1.txt" 2>&1 ||
		fail "clyde-report txt: $(cat "$WORK/$1.txt")"
	grep -q "^[^ ].* $2  .* $words\$" "$WORK/$1.txt" ||
		fail "$2: clyde-report txt has no '$words': $(cat "$WORK/$1.txt")"
}

# The cache: steady after it is full, at the device's 20 MiB/s.
cached() {
	ff_cmd clear 'delay write rate=20m cache=32m skip=64m'
	run cache -s 64m --only=ran_write --ran-bs=64k --steady --round=1 \
		--steady-max=30
	window cache ran_write
	s=.runs[0].tests.ran_write
	[ "$(jq "$s.steady.steady" "$WORK/cache.json")" = true ] ||
		fail "not steady on the cache: $(jq -c "$s.steady" "$WORK/cache.json")"
	before=$(jq "$s.steady | [.rounds[:.window.first][] | .bytes] | add // 0" "$WORK/cache.json")
	echo "written before the window: $before bytes" >&2
	[ "$before" -ge $((32 * MIB)) ] ||
		missed_figure "written before the window" "$before" 0 ">= 32 MiB"
	near "steady ran_write" "$(jq "$s.bandwidth" "$WORK/cache.json")" \
		$((20 * MIB)) 5
}
cached
while measure_again; do
	cached
done
judge_figures

# A device that keeps slowing: NOT steady after --steady-max.
ff_cmd clear 'delay write fixed=1ms grow=2ms skip=16m'
run slide -s 16m --only=ran_write --ran-bs=64k --steady --round=1 \
	--steady-max=8
window slide ran_write
jq -e '.runs[0].tests.ran_write.steady | .steady == false and
	.seconds >= 8 and (.window.range_ok and .window.slope_ok | not)' \
	"$WORK/slide.json" >/dev/null ||
	fail "the sliding device: $(jq -c '.runs[0].tests.ran_write.steady | {steady, seconds, window}' "$WORK/slide.json")"
grep -q "ran_write .* NOT steady after 8 s$" "$WORK/slide.out" ||
	fail "no NOT steady: $(cat "$WORK/slide.out")"

# The other three, two rounds of a loose rule each.
ff_cmd clear
run three -s 16m --only=ran_read,ran_mix,sync_write --mix=50 \
	--steady=2:90:90 --round=1 --steady-max=6
for t in ran_read ran_mix sync_write; do
	window three $t
done
jq -e '.runs[0].tests.ran_read.steady.rule == {"rounds": 2,
	"range_pct": 90, "slope_pct": 90, "on": "rate"}' "$WORK/three.json" \
	>/dev/null || fail "the rule: $(jq -c '.runs[0].tests.ran_read.steady.rule' "$WORK/three.json")"
ff_umount
exit 0
