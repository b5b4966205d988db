#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The sync_write figure (synchronous writes, doc/clyde.1). It changes no
# bonnie++ CSV line: a run with it gives a line of the same fields as a
# run whose --only leaves it out. The JSON document has it with its
# latency and settings.sync_write; clyde-report shows it; --only runs it
# alone, -s 0 skips it; bad values of its options are refused in one
# line, exit 2. As root, through the fault rig with every fsync and
# fdatasync of its file delayed 10 ms, its p50 is within 5% (and the
# histogram's 0.8% resolution) of 10 ms plus
# the p50 on the same rig without the delay (measured again once when
# it misses, as t/007 does); and ran_read's the same with every read of
# the data file delayed 10 ms (the rig's sleep overshoots by 100 to
# 200 us, which a shorter delay would not leave room for when loaded).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D=$WORK/d
mkdir "$D" || fail "mkdir $D"

# shape LINE: a CSV line with its label fields as they are and every
# figure field as "v" (a value) or nothing.
shape() {
	printf '%s\n' "$1" | awk -F, -v OFS=, '{
		for (i = 10; i <= NF; i++) if ($i != "") $i = "v"
		print }'
}

# (a) bonnie++'s line unchanged, the figure in the JSON document.
# (bonnie++'s 8192 seeks given, so that the two lines' labels match.)
expect_status 0 "$CLYDE" -d "$D" -s 8m::8192 -r 0 -n 0 -f -q -z 1 -m sw \
	--sync-ops=50 --json="$WORK/with.json"
with=$(grep '^1\.98,' "$WORK/out") || fail "no CSV line: $(cat "$WORK/out")"
expect_status 0 "$CLYDE" -d "$D" -s 8m::8192 -r 0 -n 0 -f -q -z 1 -m sw \
	--only=put_block,rewrite,get_block,seeks
without=$(grep '^1\.98,' "$WORK/out") || fail "no CSV line: $(cat "$WORK/out")"
[ "$(fields "$with")" = 50 ] || fail "not 50 fields: $with"
[ "$(shape "$with")" = "$(shape "$without")" ] ||
	fail "the CSV line changed: $with; without sync_write: $without"
jq -e '.runs[0].tests.sync_write |
	(.status == "ok" or .status == "too-fast") and .unit == "operations" and .rate_unit == "ops/s" and
	.work == 50 and .latency.count == 50 and .latency.p50_ns > 0 and
	(.histogram | map(.[2]) | add) == 50' "$WORK/with.json" >/dev/null ||
	fail "JSON sync_write: $(jq -c '.runs[0].tests.sync_write | del(.histogram)' "$WORK/with.json")"
jq -e '.settings.sync_write == {"method": "fdatasync", "size": 8192,
	"ops": 50, "time": 1}' "$WORK/with.json" >/dev/null ||
	fail "settings.sync_write: $(jq -c .settings.sync_write "$WORK/with.json")"
assert_empty "$D"

# clyde-report: the section after bonnie++'s table, the latency listing
# and compare name it.
expect_status 0 "$CLYDE_REPORT" txt "$WORK/with.json"
grep -q '^sw  *sync_write  *[0-9+]* ops/s' "$WORK/out" ||
	fail "report txt: $(cat "$WORK/out")"
expect_status 0 "$CLYDE_REPORT" txt --latency "$WORK/with.json"
grep -q '^sync_write ' "$WORK/out" || fail "report txt --latency: $(cat "$WORK/out")"
expect_status 0 "$CLYDE_REPORT" compare "$WORK/with.json" "$WORK/with.json"
grep -q 'sync' "$WORK/out" || fail "report compare: $(cat "$WORK/out")"

# --only=sync_write alone, each method, and -v's listing; -s 0 skips it
# and refuses it named.
for m in fdatasync fsync dsync sync; do
	expect_status 0 "$CLYDE" -d "$D" -s 8m -r 0 -v --only=sync_write \
		--sync-method=$m --sync-ops=20 --json="$WORK/only.json"
	grep -q '^sync_write .* 20$' "$WORK/out" || fail "-v, $m: $(cat "$WORK/out")"
	jq -e --arg m $m '.settings.sync_write.method == $m and
		.runs[0].tests.sync_write.work == 20 and
		.runs[0].tests.put_block.status == "skipped"' \
		"$WORK/only.json" >/dev/null || fail "--only=sync_write, $m"
done
assert_empty "$D"
expect_status 0 "$CLYDE" -d "$D" -s 0 -n 1 -r 0 -q --json="$WORK/s0.json"
jq -e '.runs[0].tests.sync_write.status == "skipped"' "$WORK/s0.json" >/dev/null ||
	fail "-s 0 ran sync_write"
expect_refused "^clyde: --only 'sync_write': -s 0 skips the I/O tests named$" \
	"$CLYDE" -d "$D" -s 0 --only=sync_write

# Bad values: one line naming the value, exit 2.
for bad in --sync-method=osync --sync-method= --sync-size=0 --sync-size=17m \
	--sync-size=4x --sync-ops=0 --sync-ops=1.5 --sync-time=0 \
	--sync-time=-1 --sync-time=1e2 --sync-time=3601; do
	v=${bad#*=}
	expect_refused "^clyde: ${bad%%=*} '$v': " "$CLYDE" -d "$D" "$bad"
done
expect_refused "^clyde: --sync-size '1000': -D writes whole 512-byte sectors" \
	"$CLYDE" -d "$D" --sync-size=1000 -D

# (b) The delay through the rig, root only.
[ "$(id -u)" = 0 ] || skip "the fault rig's delay needs root"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"
ff_require
ff_mount "$WORK/back" "$WORK/mnt"
M=$WORK/mnt
DELAY_US=10000

# p50 OPS TIME: sync_write's p50 in microseconds on the rig.
p50() {
	expect_status 0 "$CLYDE" -d "$M" -s 1m -r 0 -q --only=sync_write \
		--sync-ops="$1" --sync-time="$2" --json="$WORK/rig.json"
	jq -r '.runs[0].tests.sync_write.latency.p50_ns / 1000 | floor' "$WORK/rig.json"
}

# p50_near GOT WANT: GOT within 5% of WANT, and the histogram's 0.8%:
# a p50 is its bucket's midpoint, within 0.8% of the latencies in the
# bucket (lib/hist.h).
p50_near() {
	[ $(($1 * 1000)) -ge $(($2 * 942)) ] && [ $(($1 * 1000)) -le $(($2 * 1058)) ]
}

delayed() {
	ff_cmd clear
	base=$(p50 400 1)
	ff_cmd clear "delay fsync fixed=${DELAY_US}us path=*/sync_write"
	got=$(p50 100 5)
	[ "$(ff_fired 1)" -ge 100 ] || fail "the delay never fired: $(cat "$FF_CTL")"
	want=$((DELAY_US + base))
	echo "sync_write p50 on the rig: $base us, with ${DELAY_US} us on fsync: $got us (want $want +-5%, and the histogram's 0.8%)" >&2
	p50_near "$got" "$want" ||
		missed_figure "sync_write p50, us" "$got" 5 "$want (delay + $base)"
}

delayed
while measure_again; do delayed; done
judge_figures

# ran_read the same way: each read of the data file delayed 10 ms, its
# p50 within 5% of the delay plus the undelayed p50 (depth 1; the rig
# opens files direct_io, so each read is one read through it).
READ_US=10000
# ran_p50 OPS: ran_read's p50 in microseconds on the rig.
ran_p50() {
	expect_status 0 "$CLYDE" -d "$M" -s 16m -r 0 -q --only=ran_read \
		--ran-ops="$1" --ran-time=5 --json="$WORK/rig.json"
	jq -r '.runs[0].tests.ran_read.latency.p50_ns / 1000 | floor' "$WORK/rig.json"
}

read_delayed() {
	ff_cmd clear
	base=$(ran_p50 1000)
	ff_cmd clear "delay read fixed=${READ_US}us path=*/data"
	got=$(ran_p50 200)
	[ "$(ff_fired 1)" -ge 200 ] || fail "the read delay never fired: $(cat "$FF_CTL")"
	want=$((READ_US + base))
	echo "ran_read p50 on the rig: $base us, with ${READ_US} us on read: $got us (want $want +-5%, and the histogram's 0.8%)" >&2
	p50_near "$got" "$want" ||
		missed_figure "ran_read p50, us" "$got" 5 "$want (delay + $base)"
}

read_delayed
while measure_again; do read_delayed; done
judge_figures
assert_empty "$WORK/back"
ff_alive
exit 0
