#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The total of several -d is one figure: ran_mix on a plain directory and
# on the fault rig delaying every read 500 us, so that the first target
# ends long before the second.
#   - Its rate is the one while every target was busy (first_finished),
#     and the Random I/O section's response, reads and writes are that
#     rate and its parts (the section gave the last-finished rate).
#   - Its write-cache cliff is judged over the time every target ran:
#     the sum falling when the fast target ends is no cliff (one was
#     found on the total, none on either target).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
ff_setup
mkdir "$WORK/d"
ff_cmd clear 'delay read fixed=500us'
for z in 5 6; do
	"$CLYDE" -d "$WORK/d" -d "$M" -s 16m -n 0 -f -r 0 --only=ran_mix --mix=70 \
		--ran-ops=3000 --ran-time=30 -z $z --json="$WORK/j.json" \
		>"$WORK/out" 2>"$WORK/err" || fail "-z $z: $(cat "$WORK/err")"
	jq -e '.runs[0].tests.ran_mix as $t |
		$t.rate == $t.first_finished.rate and
		($t.reads.iops + $t.writes.iops - $t.rate | fabs) < 1e-6 * $t.rate' \
		"$WORK/j.json" >/dev/null ||
		fail "-z $z: the total's rates: $(jq -c '.runs[0].tests.ran_mix | {rate, first_finished, last_finished, r: .reads.iops, w: .writes.iops}' "$WORK/j.json")"
	rate=$(jq '.runs[0].tests.ran_mix.rate * 10 | round / 10' "$WORK/j.json")
	resp=$(awk '$1 == "vm" && $2 == "ran_mix" && $3 == "response" { print $4 }' "$WORK/out")
	awk -v a="$rate" -v b="$resp" 'BEGIN { exit !(a - b < 0.11 && b - a < 0.11) }' ||
		fail "-z $z: the total's response is $resp IOPS, its rate $rate: $(cat "$WORK/out")"
	jq -e '[.runs[0].targets[].tests.ran_mix.cliff.found] == [false, false] and
		(.runs[0].tests.ran_mix.cliff.found | not)' "$WORK/j.json" >/dev/null ||
		fail "-z $z: a cliff on the total: $(jq -c '[.runs[0].tests.ran_mix.cliff, .runs[0].targets[].tests.ran_mix.cliff]' "$WORK/j.json")"
	assert_empty "$WORK/d"
	assert_empty "$B"
done
ff_alive
exit 0
