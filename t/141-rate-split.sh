#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An offered rate split over more workers than it has operations a
# second still throttles each: --rate=1 under -c 2 (and over two -d) for
# 1 s does at most a few operations, not a closed loop's thousands, and
# the offered total is the rate asked (--rate=3 --arrivals=fixed under
# -c 2: "offered 3 IOPS", 3 in the JSON), a worker that did no operation
# counted too.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
mkdir "$WORK/a" "$WORK/b"
run="-s 16m -n 0 -f -r 0 --only=ran_read --ran-time=1 -z 1"

# shellcheck disable=SC2086
for d in "-c 2 -d $WORK/a" "-d $WORK/a -d $WORK/b"; do
	expect_status 0 "$CLYDE" $d $run --rate=1 --json="$WORK/r.json"
	ops=$(jq '.runs[0].tests.ran_read.work' "$WORK/r.json")
	[ "$ops" -le 3 ] || fail "--rate=1 with $d: $ops operations in 1 s"
done
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" -c 2 -d "$WORK/a" $run --rate=3 --arrivals=fixed --json="$WORK/f.json"
grep -q ' offered  *3 IOPS fixed' "$WORK/out" || fail "--rate=3 under -c 2: $(grep offered "$WORK/out")"
[ "$(jq '.runs[0].tests.ran_read.schedule.rate' "$WORK/f.json")" = 3 ] ||
	fail "--rate=3 under -c 2, JSON: $(jq -c '.runs[0].tests.ran_read.schedule' "$WORK/f.json")"
assert_empty "$WORK/a"
assert_empty "$WORK/b"
exit 0
