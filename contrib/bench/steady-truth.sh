#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The truth of clyde's --steady. The fault rig of the tests (t/faultfs)
# told `delay write rate=20m cache=96m` is a write-back cache of 96 MiB
# in front of a 20 MiB/s device. N runs of random writes of 64k under
# --steady (rounds of 1 s, PTS's rule 5:20:10) must each be steady only
# after the cache is full (the rounds before the window wrote at least
# 96 MiB) with the window's figure within 5% of 20 MiB/s. N runs on the
# rig as a device whose delay grows 2 ms every second (fixed=1ms
# grow=2ms) must each be NOT steady at --steady-max=15. As root, N runs
# of ran_write -D on a loop device under a blkio cap of 1000 writes a
# second must each be steady after the first window (5 rounds), the
# figure within 3% of the cap.
# A benchmark, not a test: it prints figures and never fails on them.
# Needs t/faultfs (make check builds it), FUSE and jq.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

rig_bench steady-truth 5 "$@"
mib=1048576

# line: the run's ran_write under --steady in a line: steady or NOT,
# rounds, seconds, MiB written before the window, the figure in MiB/s
# and ops/s.
line() {
	jq -r --argjson m "$mib" '.runs[0].tests.ran_write as $t | $t.steady |
		"\(if .steady then "steady" else "NOT steady" end) r\(.rounds | length) \(.seconds * 10 | round / 10) s, before the window \(([.rounds[:.window.first][] | .bytes] | add // 0) / $m * 10 | round / 10) MiB, figure \($t.bandwidth / $m * 100 | round / 100) MiB/s \($t.rate * 10 | round / 10) ops/s"' \
		"$work/c.json"
}

# rig RULE ARGS...: clyde on the rig with only RULE.
rig() {
	printf 'clear\n%s\n' "$1" >"$ctl"
	shift
	run_or_die "clyde $*" "$clyde" -d "$work/m/d" -r 0 -n 0 -q \
		--only=ran_write --ran-bs=64k --steady --round=1 \
		--json="$work/c.json" "$@"
}

runs_begin
echo "the rig as a 96 MiB write-back cache in front of 20 MiB/s, ran_write 64k --steady --round=1:"
for ((i = 1; i <= runs; i++)); do
	rig 'delay write rate=20m cache=96m skip=192m' -s 192m --steady-max=60
	printf '  run %2d: %s\n' "$i" "$(line)"
done
echo "the rig with a delay growing 2 ms a second (fixed=1ms grow=2ms), --steady-max=15:"
for ((i = 1; i <= runs; i++)); do
	rig 'delay write fixed=1ms grow=2ms skip=16m' -s 16m --steady-max=15
	printf '  run %2d: %s\n' "$i" "$(line)"
done
rig_stop

if ((EUID == 0)) && [[ -w /sys/fs/cgroup/blkio/cgroup.procs ]]; then
	echo "a loop device under a blkio cap of 1000 writes a second, ran_write 4k -D --steady --round=1:"
	capped_loop steady 100
	for ((i = 1; i <= runs; i++)); do
		capped "$clyde" -d "$mnt" -r 0 -n 0 -q -f -D -s 32m --only=ran_write \
			--steady --round=1 --steady-max=30 --json="$work/c.json"
		printf '  run %2d: %s\n' "$i" "$(line)"
	done
else
	echo "(the capped loop device needs root and the blkio (v1) controller: skipped)"
fi
runs_end
printf '  load average: %s before, %s after\n' "$load1" "$load2"
changed_note
