#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The workload options of the random-I/O tests (--mix, a --ran-bs split,
# --dist, --rate, --arrivals) and the figure they bring, ran_mix: bad
# values refused in one line; ran_mix run only when asked; the settings
# column and JSON settings say the workload; the Random I/O section's
# rows; bonnie++'s line unchanged; an offered rate split over -c workers
# and several -d; --log-interval, --verify and --data under a mix; and,
# on the fault rig, the same -z drawing the same offsets. How true the
# figures are is contrib/bench's (queueing.sh, rate-truth.sh) and
# t/072's.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"

D="$WORK/d"
mkdir "$D"
quick="-d $D -r 0 -q -n 0 -f -z 7 -m box -s 8m"

# Bad values: one line naming the value and why, exit 2, nothing left.
while IFS='|' read -r args pat; do
	# shellcheck disable=SC2086
	expect_refused "^clyde: $pat" "$CLYDE" $quick $args
	assert_empty "$D"
done <<'EOF'
--ran-bs=8k:70,64k:20|--ran-bs '8k:70,64k:20': shares add to 90, not 100
--ran-bs=8k:0,64k:100|--ran-bs '8k:0,64k:100': .*share of 0
--ran-bs=12k:50,8k:50|--ran-bs '12k:50,8k:50': .*not a power of two
--ran-bs=8k:50,8k:50|--ran-bs '8k:50,8k:50': .*given twice
--mix=101|--mix '101': .*above 100
--mix=-1|--mix '-1': 
--dist=zipf:0|--dist 'zipf:0': .*not above 0
--dist=zipf:11|--dist 'zipf:11': .*above 10
--dist=pareto:1|--dist 'pareto:1': .*between 0 and 1
--dist=zoned:50/10,40/90|--dist 'zoned:50/10,40/90': 
--dist=normal|--dist 'normal': 
--rate=0|--rate '0': .*not above 0
--rate=5x|--rate '5x': 
--arrivals=fixed|--arrivals 'fixed': needs --rate
--arrivals=burst --rate=5|--arrivals 'burst': 
--mix=70 --only=ran_read|--mix '70': --only leaves ran_mix out
--verify --ran-bs=512:50,8k:50|--verify with --ran-bs '512:50,8k:50': .*4096
--mix=50 --mix=60|--mix '60': given twice with different values ('50' first)
--rate=1k --rate=2k|--rate '2k': given twice with different values ('1k' first)
--dist=zipf --dist=uniform|--dist 'uniform': given twice with different values ('zipf' first)
--ran-bs=4k --ran-bs=8k|--ran-bs '8k': given twice with different values ('4k' first)
--iodepth=2 --iodepth=4|--iodepth '4': given twice with different values ('2' first)
--ran-time=1 --ran-time=2|--ran-time '2': given twice with different values ('1' first)
--ran-ops=10 --ran-ops=20|--ran-ops '20': given twice with different values ('10' first)
--only=put_block --rate=10|--rate '10': --only leaves out ran_read, ran_write and ran_mix, the tests it sets
--only=get_block --dist=zipf|--dist 'zipf': --only leaves out ran_read, ran_write and ran_mix
--only=seeks --iodepth=4|--iodepth '4': --only leaves out ran_read, ran_write and ran_mix
--only=put_block --ran-bs=8k|--ran-bs '8k': --only leaves out ran_read, ran_write and ran_mix
--rate=9 --arrivals=fixed --arrivals=poisson|--arrivals 'poisson': given twice with different values ('fixed' first)
EOF
# The same value twice is taken, as -z's is.
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick --only=ran_mix --mix=60 --mix=60 --ran-ops=100 \
	--ran-ops=100 --iodepth=2 --iodepth=2
# A zone that holds no whole block of the data file: known only once
# the file's size is, and still before the first test.
# shellcheck disable=SC2086
expect_refused "^clyde: --dist 'zoned:50/0.5,50/99.5': zone 1 .* over the data file" \
	"$CLYDE" $quick --ran-bs=64k --dist=zoned:50/0.5,50/99.5
assert_empty "$D"

# ran_mix runs when --mix asks for it, or --only names it (reads 50%);
# a default run leaves it out.
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick --ran-ops=200 --only=ran_read,ran_write --json="$WORK/a.json"
jq -e '.runs[0].tests.ran_mix.status == "skipped"' "$WORK/a.json" >/dev/null ||
	fail "ran_mix ran unasked: $(jq -c '.runs[0].tests.ran_mix' "$WORK/a.json")"
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick --ran-ops=200 --only=ran_mix --json="$WORK/a.json"
jq -e '.runs[0].tests.ran_mix | .status != "skipped" and .work == 200 and
	.how == "4k r50 qd1 psync"' "$WORK/a.json" >/dev/null ||
	fail "--only=ran_mix: $(jq -c '.runs[0].tests.ran_mix' "$WORK/a.json")"
assert_empty "$D"

# The settings column and the JSON say the workload as given.
w="--mix=70 --ran-bs=8k:70,64k:30 --dist=zipf:1.1 --iodepth=4 --rate=50k"
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick $w --only=ran_mix --ran-ops=300 --json="$WORK/w.json"
how="8k:70,64k:30 r70 zipf:1.1 qd4 rate 50000 poisson io_uring"
grep -q "^box  *ran_mix .* $how$" "$WORK/err" ||
	fail "settings column: $(grep ran_mix "$WORK/err")"
jq -e --arg how "$how" '.runs[0].tests.ran_mix.how == $how and
	.runs[0].tests.ran_mix.work == 300 and
	.settings.random_io.workload == {block_sizes: [{size: 8192, share: 70},
	{size: 65536, share: 30}], mix_reads: 70, distribution: "zipf:1.1",
	rate: 50000, arrivals: "poisson"} and .settings.random_io.block_size == 65536' \
	"$WORK/w.json" >/dev/null ||
	fail "JSON: $(jq -c '.settings.random_io, .runs[0].tests.ran_mix.how' "$WORK/w.json")"
assert_empty "$D"

# The Random I/O section: under the rate, service times beside the
# response times and the schedule; in a closed loop, where the two are
# the same times, the response and the kinds only (the JSON keeps both).
grep -q '^box  *ran_mix  *service ' "$WORK/err" ||
	fail "no service row under a rate: $(cat "$WORK/err")"
grep -q '^box  *ran_mix  *offered  *50000 IOPS poisson: ' "$WORK/err" ||
	fail "no schedule row: $(cat "$WORK/err")"
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick --mix=70 --iodepth=4 --only=ran_mix --ran-ops=300 \
	--json="$WORK/c.json"
grep -q '^box  *ran_mix  *response ' "$WORK/err" && grep -q '^box  *ran_mix  *read ' "$WORK/err" &&
	! grep -q '^box  *ran_mix  *service ' "$WORK/err" ||
	fail "closed loop's Random I/O section: $(cat "$WORK/err")"
jq -e '.runs[0].tests.ran_mix | .service == .latency and
	.service_histogram == .histogram and .schedule == null' "$WORK/c.json" >/dev/null ||
	fail "closed loop's JSON: $(jq -c '.runs[0].tests.ran_mix | del(.histogram, .service_histogram)' "$WORK/c.json")"
assert_empty "$D"

# bonnie++'s line is the same with the workload options as without.
# shellcheck disable=SC2086
"$CLYDE" $quick --only=ran_read --ran-ops=100 >"$WORK/plain" 2>"$WORK/err" ||
	fail "plain: $(cat "$WORK/err")"
# shellcheck disable=SC2086
"$CLYDE" $quick --only=ran_read,ran_mix $w --arrivals=fixed --ran-ops=100 \
	>"$WORK/with" 2>"$WORK/err" || fail "with: $(cat "$WORK/err")"
[ "$(tail -n 1 "$WORK/plain")" = "$(tail -n 1 "$WORK/with")" ] ||
	fail "CSV line changed: $(tail -n 1 "$WORK/plain") against $(tail -n 1 "$WORK/with")"

# An offered rate is split over the workers, -c and several -d alike:
# fixed arrivals at 400/s for 2 s are about 800 operations however they
# are split (a loose bound: the truth is contrib/bench's).
D2="$WORK/d2"
mkdir "$D2"
for split in "-c 2" "-d $D2" "-c 2 -d $D2"; do
	# shellcheck disable=SC2086
	expect_status 0 "$CLYDE" $quick $split --only=ran_mix --mix=50 \
		--rate=400 --arrivals=fixed --ran-time=2 --ran-ops=100000 \
		--json="$WORK/c.json"
	n=$(jq '[.runs[] | .tests.ran_mix.work] | add' "$WORK/c.json")
	[ "$n" -ge 700 ] && [ "$n" -le 820 ] ||
		fail "$split --rate=400 for 2 s: $n operations"
	assert_empty "$D"
	assert_empty "$D2"
done

# --log-interval: a mix's intervals are logged as any test's, each
# with its response (p50, p99) and service percentiles, the service
# no longer than the response it is part of.
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick --only=ran_mix --mix=60 --rate=2000 \
	--ran-time=2 --ran-ops=100000 --log-interval=500 --json="$WORK/l.json"
jq -e '.runs[0].tests.ran_mix.intervals | length >= 3 and
	all(.[] | select(.ops > 0); .p99_ns > 0 and .service_p50_ns > 0 and
		.service_p50_ns <= .p50_ns and .service_p99_ns <= .p99_ns)' \
	"$WORK/l.json" >/dev/null ||
	fail "--log-interval: $(jq -c '.runs[0].tests.ran_mix | del(.histogram)' "$WORK/l.json")"
# Under a --ran-bs split each interval's bytes are its operations' own
# sizes: between the smaller and the larger size an operation, and a
# mix's add up to its reads' and writes' bytes (they were 0).
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick --only=ran_read,ran_write,ran_mix --mix=60 \
	--ran-bs=4k:50,16k:50 --ran-ops=3000 --log-interval=10 --json="$WORK/b.json"
jq -e '.runs[0].tests as $t |
	all($t.ran_read, $t.ran_write, $t.ran_mix; (.intervals | length) > 0 and
		all(.intervals[]; .bytes >= .ops * 4096 and .bytes <= .ops * 16384) and
		([.intervals[].bytes] | add) > .work * 4096) and
	([$t.ran_mix.intervals[].bytes] | add) == $t.ran_mix.reads.bytes + $t.ran_mix.writes.bytes' \
	"$WORK/b.json" >/dev/null ||
	fail "--log-interval under --ran-bs: $(jq -c '.runs[0].tests | map_values(select(.intervals) | {work, reads: .reads.bytes, writes: .writes.bytes, bytes: [.intervals[].bytes]})' "$WORK/b.json")"
assert_empty "$D"

# --verify: a mix's reads check the file its writes keep writing, over
# sizes of a split at offsets of the smaller one.
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick --only=ran_mix --mix=50 --ran-bs=4k:50,16k:50 \
	--dist=pareto --iodepth=8 --verify --ran-ops=3000 --json="$WORK/v.json"
jq -e '.runs[0].tests.ran_mix.work == 3000 and .settings.verify' "$WORK/v.json" >/dev/null ||
	fail "--verify: $(jq -c '.runs[0].tests.ran_mix' "$WORK/v.json")"
assert_empty "$D"
# --data: the writes of a mix carry the mode's content, which --verify
# then checks (dedupe:PCT cannot carry headers and is refused with it).
for mode in zero compress:50; do
	# shellcheck disable=SC2086
	expect_status 0 "$CLYDE" $quick --only=ran_mix --mix=50 --iodepth=4 \
		--verify --data="$mode" --ran-ops=1000 --json="$WORK/m.json"
	jq -e --arg m "$mode" '.settings.data == $m and
		.runs[0].tests.ran_mix.work == 1000' "$WORK/m.json" >/dev/null ||
		fail "--data=$mode: $(jq -c '.settings.data, .runs[0].tests.ran_mix.work' "$WORK/m.json")"
	assert_empty "$D"
done

# The same -z draws the same kinds, sizes and offsets: on the fault rig,
# the reads and writes that land in three ranges of the file, counted,
# are the same twice and differ under another seed.
ff_require
ff_mount "$WORK/back" "$WORK/m" -s
mkdir "$WORK/m/d"
prints() { # prints SEED: the three counts
	ff_cmd clear 'delay read,write fixed=0ns off=0 len=1m' \
		'delay read,write fixed=0ns off=1m len=3m' \
		'delay read,write fixed=0ns off=4m len=12m'
	"$CLYDE" -d "$WORK/m/d" -r 0 -q -n 0 -f -s 16m -D --only=ran_mix \
		--mix=70 --ran-bs=8k:50,16k:50 --dist=zipf:1.1 --iodepth=4 \
		--ran-ops=2000 --ran-time=100 -z "$1" >/dev/null 2>"$WORK/err" ||
		fail "on the rig, -z $1: $(cat "$WORK/err")"
	echo "$(ff_fired 1) $(ff_fired 2) $(ff_fired 3)"
}
a=$(prints 5)
b=$(prints 5)
c=$(prints 6)
[ "$a" = "$b" ] || fail "-z 5 twice drew different offsets: $a, then $b"
[ "$a" != "$c" ] || fail "-z 5 and -z 6 drew the same offsets: $a"
ff_alive
exit 0
