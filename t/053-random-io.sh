#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The random-I/O figures, ran_read and ran_write. For anyone: bonnie++'s
# CSV line keeps its shape when they run, their settings and figures are
# in the JSON document, their bad values are refused in one line, and a
# depth above 1 without io_uring falls back to 1, saying so once.
# As root, the ground truth: a loop device with ext4 on it under a blkio
# cap of read and write operations per second; ran_read and ran_write,
# -D, at depth 1 and 16 must each come within 3% of the cap. Everything
# set up is undone on every exit path.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"

D="$WORK/d"
mkdir "$D"
# (bonnie++'s 8192 seeks given: two runs' labels are compared.)
quick="-d $D -r 0 -q -n 0 -f -z 7 -s 8m:64k:8192"

# Bad values: one line naming the value, exit 2, nothing run.
for bad in --iodepth=0 --iodepth=1025 --iodepth=x --ran-bs=1000 \
	--ran-bs=4x --ran-bs=32m --ran-ops=0 --ran-ops=-1 --ran-time=0 \
	--ran-time=1.5 --ran-time=86401; do
	expect_refused "^clyde: ${bad%%=*} '${bad#*=}': " "$CLYDE" $quick "$bad"
	assert_empty "$D"
done
expect_refused "^clyde: --ran-bs 16777216: larger than the data file" \
	"$CLYDE" $quick --ran-bs=16m

# bonnie++'s line is the same with and without them: same fields, the
# same ones empty, the same values where the run does not time them.
# shellcheck disable=SC2086
"$CLYDE" $quick --iodepth=4 --ran-ops=2000 --json="$WORK/with.json" \
	>"$WORK/with" 2>"$WORK/err" || fail "clyde: $(cat "$WORK/err")"
# shellcheck disable=SC2086
"$CLYDE" $quick --only=put_block,rewrite,get_block,seeks >"$WORK/without" \
	2>"$WORK/err" || fail "clyde --only: $(cat "$WORK/err")"
shape() { awk -F, '{ for (i = 1; i <= NF; i++) printf "%s,", ($i == "" ? "" : i <= 8 ? $i : "x"); print "" }' "$1"; }
[ "$(shape "$WORK/with")" = "$(shape "$WORK/without")" ] ||
	fail "CSV differs in shape: $(cat "$WORK/with") against $(cat "$WORK/without")"
for t in ran_read ran_write; do
	grep -q "$t" "$WORK/with" && fail "$t in the CSV line: $(cat "$WORK/with")"
	jq -e --arg t "$t" '.runs[0].tests[$t] | .status == "ok" or .status == "too-fast"
		and .unit == "operations" and .rate_unit == "ops/s" and .work > 0
		and .latency.count == .work' "$WORK/with.json" >/dev/null ||
		fail "$t in JSON: $(jq -c --arg t "$t" '.runs[0].tests[$t]' "$WORK/with.json")"
done
jq -e '(.settings.random_io | del(.workload)) == {block_size: 4096, iodepth: 4,
	iodepth_asked: 4, ops: 2000, time: 3, engine: "io_uring", fallback: null}
	and .settings.random_io.workload == {block_sizes: [{size: 4096, share: 100}],
	mix_reads: 50, distribution: "uniform", rate: null, arrivals: "poisson"}' \
	"$WORK/with.json" >/dev/null ||
	fail "settings.random_io: $(jq -c .settings.random_io "$WORK/with.json")"
[ "$(jq '.runs[0].tests.ran_read.work' "$WORK/with.json")" = 2000 ] ||
	fail "ran_read did not stop at --ran-ops=2000"

# --only names each one alone, and it makes the data file it needs.
for t in ran_read ran_write; do
	# shellcheck disable=SC2086
	"$CLYDE" $quick --only=$t --ran-ops=500 --json="$WORK/one.json" \
		>/dev/null 2>"$WORK/err" || fail "--only=$t: $(cat "$WORK/err")"
	[ "$(jq -c '[.runs[0].tests | to_entries[] | select(.value.status != "skipped") | .key]' \
		"$WORK/one.json")" = "[\"$t\"]" ] ||
		fail "--only=$t ran: $(jq -c '.runs[0].tests | map_values(.status)' "$WORK/one.json")"
	assert_empty "$D"
done

# -b: ran_write's file opened O_SYNC, and the settings say so; the
# read's are not touched.
# shellcheck disable=SC2086
expect_status 0 "$CLYDE" $quick -b --ran-ops=50 --only=ran_read,ran_write --json="$WORK/b.json"
jq -e '.runs[0].tests | (.ran_write.how | endswith(" sync")) and
	(.ran_read.how | endswith(" sync") | not) and .ran_write.work == 50' "$WORK/b.json" >/dev/null ||
	fail "-b: $(jq -c '.runs[0].tests | map_values(.how)' "$WORK/b.json")"
if command -v strace >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	# (LeakSanitizer cannot run under ptrace: off for this one run.)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=openat -o "$WORK/st" "$CLYDE" $quick -b --ran-ops=50 --only=ran_write \
		>/dev/null 2>&1 || fail "-b under strace"
	grep -q '"data", O_WRONLY|O_SYNC' "$WORK/st" || fail "-b: no O_SYNC open: $(grep data "$WORK/st")"
fi
assert_empty "$D"

# fallback WHY-TEXT: a depth of 8 without io_uring runs at 1, says so in
# one line and records it.
fallback() {
	# shellcheck disable=SC2086
	"$CLYDE" $quick --iodepth=8 --ran-ops=500 --only=ran_read,ran_write \
		--json="$WORK/fb.json" >"$WORK/out" 2>"$WORK/err" ||
		fail "fallback ($1): $(cat "$WORK/err")"
	[ "$(grep -c io_uring "$WORK/err")" = 1 ] && grep -qF "$1" "$WORK/err" &&
		grep -q "^clyde: --iodepth=8: io_uring cannot be used (.*): ran_read and ran_write run at depth 1" "$WORK/err" ||
		fail "fallback ($1): stderr: $(cat "$WORK/err")"
	jq -e --arg why "$1" '.settings.random_io | .iodepth == 1 and .iodepth_asked == 8
		and .engine == "psync" and (.fallback | contains($why))' "$WORK/fb.json" >/dev/null ||
		fail "fallback ($1): $(jq -c .settings.random_io "$WORK/fb.json")"
	jq -e '.runs[0].tests.ran_read.work == 500' "$WORK/fb.json" >/dev/null ||
		fail "fallback ($1): $(jq -c .runs[0].tests.ran_read "$WORK/fb.json")"
}
CLYDE_NO_IO_URING=1 fallback "CLYDE_NO_IO_URING is set"
DIS=/proc/sys/kernel/io_uring_disabled
if [ "$(id -u)" = 0 ] && [ -w "$DIS" ]; then
	was=$(cat "$DIS")
	at_exit "echo $was >$DIS"
	echo 2 >"$DIS"
	fallback "Operation not permitted"
	echo "$was" >"$DIS"
fi

# The ground truth, as root.
need_root "loop device, mount, cgroup" losetup mkfs.ext4 mount umount truncate
need_blkio_iops
RIOPS=500
WIOPS=400
ext4_rig 200
# The caps on a cgroup of clyde's own, for this loop device only. Every
# transfer is O_DIRECT, issued by clyde itself, so its cgroup is charged
# for each; the ext4's journal commits are not. On the root group they
# were: beside a job that calls sync() without pause (stress-ng --io),
# each call made the journal commit the writes' mtime, and those writes
# took 16-26% of a 400/s write cap from ran_write twice running.
iops_cgroup

# ran TEST DEPTH CAP: the figure at that depth within 3% of the cap, or
# noted as missed (lib.sh: measure_again, judge_figures). 10 s: the
# random writes' closing fsync is in their time, and with CI's jobs
# beside it, it cost a 5 s run 3.3% (1.5% on a quiet machine).
ran() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
		"$CLYDE" -d "$MNT" -r 0 -q -n 0 -f -D -s 64m:1m --only="$1" --iodepth="$2" \
		--ran-time=10 --ran-ops=100000 --json="$WORK/ran.json" \
		>/dev/null 2>"$WORK/err" || fail "clyde $1 --iodepth=$2: $(cat "$WORK/err")"
	[ "$(ls -A "$MNT")" = lost+found ] || fail "left behind: $(ls -A "$MNT")"
	got=$(jq -r ".runs[0].tests.$1.rate" "$WORK/ran.json")
	case $got in '' | *[!0-9.]*) fail "$1: no figure ('$got')" ;; esac
	echo "$1 --iodepth=$2: $got against $3 ($(awk -v g="$got" -v w="$3" 'BEGIN { printf "%+.2f%%", (g - w) / w * 100 }'))" >&2
	awk -v g="$got" -v w="$3" 'BEGIN { d = (g - w) / w * 100; exit !(d <= 3 && d >= -3) }' ||
		missed_figure "$1 --iodepth=$2" "$got" 3 "$3"
}

caps $RIOPS $WIOPS
for depth in 1 16; do
	ran ran_read $depth $RIOPS
	ran ran_write $depth $WIOPS
	while measure_again; do
		ran ran_read $depth $RIOPS
		ran ran_write $depth $WIOPS
	done
	judge_figures
done
caps 0 0
exit 0
