#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-curve's behaviour and formats: bad values refused in one line,
# exit 2, nothing left; a curve's table (a row a step, the maximum
# first, then the knee's line), its CSV lines and JSON document; the
# rate of each step as its share of the maximum, split over -c workers;
# -q and --json to stdout; -x's summary; a target no step meets (exit
# 1, the curve still written); SIGINT during a step (the steps done
# printed and written, marked incomplete, exit 130). How true the curve
# is against a capped device is t/075's; against a server of known
# service time, contrib/bench's.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"

D="$WORK/d"
mkdir "$D"
base="-d $D -r 0 -z 3 -m box"
quick="$base -s 16m --step-time=1"

while IFS='|' read -r args pat; do
	# shellcheck disable=SC2086
	expect_refused "^clyde-curve: $pat" "$CLYDE_CURVE" $base $args
	assert_empty "$D"
done <<'EOF'
--steps=20,10|--steps '20,10': the steps must rise: 10 after 20$
--steps=10,250|--steps '10,250': '250' is not a percentage of the maximum from 0.1 to 200
--steps=10,,20|--steps '10,,20': '' is not a percentage
--target=p99|--target 'p99': a target needs a time: p99:TIME
--target=p99:5|--target 'p99:5': the time needs its unit
--target=p95:5ms|--target 'p95:5ms': expected STAT:TIME
--refine=2|--refine '2': needs --target
--target=p99:5ms --refine=21|--refine '21': expected a count of bisection steps from 0 to 20
--rate=5000|--rate '5000': clyde-curve offers each step its own rate
--ran-time=5|--ran-time '5': clyde-curve runs each step for --step-time
--ran-ops=5|--ran-ops '5': clyde-curve runs each step
--step-time=0|--step-time '0': expected whole seconds from 1 to 3600
-x 101|-x '101': clyde-curve repeats a curve at most 100 times
-n 1|unknown option '-n' (see clyde-curve --help)
--mix=120|--mix '120': .*above 100
--iodepth=0|--iodepth '0': 
--arrivals=burst|--arrivals 'burst': 
extra|argument 'extra': clyde-curve takes no operands
--steps=10 --steps=20|--steps '20': given twice with different values ('10' first)
--steps=10 --steps=10 -s 0|-s '0': clyde-curve needs a data file
-s 16m:4k|-s '16m:4k': clyde-curve takes the data file's size alone
--target=p99:1ms --target=p90:1ms|--target 'p90:1ms': given twice
--step-time=2 --step-time=3|--step-time '3': given twice
-D --drop-caches|--drop-caches with -D: no step reads through the page cache
--steady --step-time=3|--step-time '3': with --steady each step runs in rounds until steady
--steady -c 2|--steady with -c: each worker would settle at its own time
--round=2|--round '2': rounds are --steady's: give it too
EOF
expect_refused "^clyde-curve: --json: " "$CLYDE_CURVE" $quick --json="$WORK/no/such/dir/c.json"
assert_empty "$D"

# A curve whose target every step meets: a row a step, the knee the
# last step, no bisection (nothing lies beyond).
# shellcheck disable=SC2086
expect_status 0 "$CLYDE_CURVE" $quick --steps=20,60 --iodepth=4 \
	--target=max:60s --json="$WORK/c.json"
assert_empty "$D"
grep -q '^box: 4k qd4 io_uring, 1 s a step$' "$WORK/out" ||
	fail "no heading: $(head -3 "$WORK/out")"
for row in 'max  *- ' '20%  *[0-9]' '60%  *[0-9]'; do
	grep -q "^$row" "$WORK/out" || fail "no row '$row': $(cat "$WORK/out")"
done
grep -q '^max [0-9]* IOPS; [0-9]* IOPS ([0-9]*% of max) with max <= 60 s$' "$WORK/out" ||
	fail "knee line: $(grep '^max [0-9]' "$WORK/out")"
head=name,curve,step,percent,offered_iops,achieved_iops,mb_s,late_share,behind_share,p50_us,p90_us,p99_us,p999_us,max_us,mean_us,svc_p50_us,svc_p99_us,cpu_percent
grep -qx "$head" "$WORK/out" || fail "CSV header: $(cat "$WORK/out")"
[ "$(grep -c '^box,1,' "$WORK/out")" = 3 ] || fail "CSV lines: $(grep '^box,' "$WORK/out")"
for l in $(grep '^box,1,' "$WORK/out"); do
	[ "$(fields "$l")" = 18 ] || fail "CSV line of $(fields "$l") fields: $l"
done
grep -q '^box,1,max,,,[0-9.]*,' "$WORK/out" || fail "CSV max line"
grep -q '^box,1,step,20.0,[0-9]*,[0-9.]*,' "$WORK/out" || fail "CSV 20% line"

# clyde-report txt of the document prints what the program printed.
"${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}" txt "$WORK/c.json" >"$WORK/txt" 2>"$WORK/err" ||
	fail "clyde-report txt: $(cat "$WORK/err")"
cmp -s "$WORK/out" "$WORK/txt" || fail "txt of the document: $(diff "$WORK/out" "$WORK/txt" | head -6)"

# The document: the curve's settings, every step's test, each step's
# rate its share of what the maximum achieved, the knee.
jq -e '.program == "clyde-curve" and .complete and (.runs == null) and
	.settings.curve == {test: "ran_read", steps: [20, 60], step_time: 1,
		target: {stat: "max", ns: 60000000000}, refine: 3} and
	.settings.random_io.workload.rate == null and
	(.curves | length) == 1 and .summary == null and
	(.curves[0].steps | map(.kind)) == ["max", "step", "step"] and
	(.curves[0].steps[0] | .percent == null and .offered == null and
		.test.status == "ok" and .test.schedule == null) and
	(.curves[0].steps[0].test.rate as $m | .curves[0].steps[1:] |
		all(.offered == ((.percent * $m / 100) | round) and
		    .test.schedule.rate == .offered and
		    .test.schedule.arrivals == "poisson" and
		    (.test.histogram | length) > 0)) and
	.curves[0].knee.step == 2 and
	.curves[0].knee.iops == .curves[0].steps[2].test.rate' "$WORK/c.json" >/dev/null ||
	fail "document: $(jq -c '.settings.curve, [.curves[0].steps[] | {kind, percent, offered, r: .test.rate, s: .test.schedule}], .curves[0].knee' "$WORK/c.json")"

# -c 2 with --mix: ran_mix, each step's rate split over the workers
# and their figures merged; fixed arrivals; -q: CSV alone on stdout.
# shellcheck disable=SC2086
expect_status 0 "$CLYDE_CURVE" $quick -c 2 -q --mix=70 --arrivals=fixed \
	--steps=30 --iodepth=2 --json="$WORK/m.json"
assert_empty "$D"
[ "$(head -1 "$WORK/out")" = "$head" ] || fail "-q: stdout: $(head -2 "$WORK/out")"
[ "$(wc -l <"$WORK/out")" = 3 ] || fail "-q: stdout: $(cat "$WORK/out")"
grep -q '^max  *- ' "$WORK/err" || fail "-q: no table on stderr: $(cat "$WORK/err")"
jq -e '.settings.curve.test == "ran_mix" and
	(.curves[0].steps[1].test | .schedule.arrivals == "fixed" and
		.schedule.rate == .schedule.rate and
		(.workers | length) == 2 and .reads.ops > 0 and .writes.ops > 0 and
		(.how | test("^4k r70 qd2 rate [0-9]+ fixed io_uring$")))' \
	"$WORK/m.json" >/dev/null ||
	fail "-c 2 --mix: $(jq -c '.curves[0].steps[1].test | {how, schedule, w: (.workers | length)}' "$WORK/m.json")"

# --json to stdout: the document alone there; -x 2: each curve, then
# each step's mean and CI over them.
# shellcheck disable=SC2086
expect_status 0 "$CLYDE_CURVE" $quick --steps=50 -x 2 --json
jq -e '(.curves | length) == 2 and .summary.stat == "p99" and
	.summary.max.achieved.n == 2 and
	(.summary.steps | length) == 1 and .summary.steps[0].percent == 50 and
	.summary.steps[0].value_ns.n == 2 and .summary.knee == null' \
	"$WORK/out" >/dev/null || fail "--json -x 2: $(head -c 300 "$WORK/out")"
grep -q '^Over 2 curves: mean \[95% CI\]$' "$WORK/err" || fail "-x 2 summary: $(cat "$WORK/err")"
grep -q '^50%  *[0-9]* \[ *[0-9-]*, *[0-9]*\] ' "$WORK/err" || fail "-x 2 step row: $(cat "$WORK/err")"
assert_empty "$D"

# A target no step meets: one line saying so, exit 1, the curve still
# printed and written (complete, no knee).
# shellcheck disable=SC2086
expect_status 1 "$CLYDE_CURVE" $quick --steps=20,40 --target=p99:1ns \
	--json="$WORK/n.json"
[ "$(grep -c '^clyde-curve: no step met p99 <= 1 ns (the lightest, [0-9]* IOPS, had p99 ' "$WORK/err")" = 1 ] ||
	fail "no knee: $(cat "$WORK/err")"
grep -q '^20%' "$WORK/out" || fail "no knee: the table: $(cat "$WORK/out")"
jq -e '.complete and .curves[0].knee == null and (.curves[0].steps | length) == 3' \
	"$WORK/n.json" >/dev/null || fail "no knee: $(jq -c '.complete, .curves[0].knee' "$WORK/n.json")"
assert_empty "$D"

# --steady: each step in rounds; the heading gives the rule, each row
# its rounds, each step's test its steady object; txt prints the same.
# shellcheck disable=SC2086
expect_status 0 "$CLYDE_CURVE" $base -s 16m --steps=50 --steady=2:90:90 \
	--round=1 --steady-max=3 --json="$WORK/s.json"
assert_empty "$D"
grep -q '^box: 4k qd32 io_uring, each step in rounds of 1 s until steady (2:90:90 on rate), 3 s at most$' "$WORK/out" ||
	fail "--steady heading: $(cat "$WORK/out")"
[ "$(grep -c ' %CP  rounds$' "$WORK/out")" = 1 ] || fail "--steady: $(cat "$WORK/out")"
for k in 0 1; do
	words=$(jq -r ".curves[0].steps[$k].test.steady | if .steady then
		\"steady r\(.rounds | length) (\(.seconds | round) s)\" else
		\"NOT steady after \(.seconds | round) s\" end" "$WORK/s.json")
	[ "$(grep -c " $words\$" "$WORK/out")" -ge 1 ] ||
		fail "--steady: step $k has no '$words': $(cat "$WORK/out")"
done
"${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}" txt "$WORK/s.json" >"$WORK/txt" 2>"$WORK/err" ||
	fail "clyde-report txt: $(cat "$WORK/err")"
sed -n '/^box: /,$p' "$WORK/out" | grep -v '^max [0-9]* IOPS' >"$WORK/out.t"
grep -v '^max [0-9]* IOPS' "$WORK/txt" >"$WORK/txt.t"
cmp -s "$WORK/out.t" "$WORK/txt.t" || fail "--steady txt: $(diff "$WORK/out.t" "$WORK/txt.t" | head -6)"

# SIGINT during a step: the steps done printed and written, marked
# incomplete; the scratch directory removed; 130.
# shellcheck disable=SC2086
"$CLYDE_CURVE" $base -s 16m --step-time=3 --steps=10,20,30 --json="$WORK/i.json" \
	>"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_until 400 "the first step never began" in_file '^Step 10% of the maximum' "$WORK/err"
kill -INT $pid
wait $pid
st=$?
[ "$st" = 130 ] || fail "SIGINT: exit $st: $(cat "$WORK/err")"
grep -q 'interrupted by signal 2; the steps done were written, scratch files removed' "$WORK/err" ||
	fail "SIGINT: $(cat "$WORK/err")"
grep -q '(stopped: the steps done)$' "$WORK/out" || fail "SIGINT: table: $(cat "$WORK/out")"
jq -e '.complete == false and .curves[0].complete == false and
	(.curves[0].steps | length) >= 1 and .curves[0].steps[0].kind == "max"' \
	"$WORK/i.json" >/dev/null || fail "SIGINT: $(jq -c '.complete, [.curves[0].steps[].kind]' "$WORK/i.json")"
assert_empty "$D"
exit 0
