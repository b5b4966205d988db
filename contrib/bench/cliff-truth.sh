#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The truth of clyde's write-cache cliff. The fault rig of the tests
# (t/faultfs, a FUSE passthrough) told `delay write rate=20m cache=96m`
# is a write-back cache of 96 MiB in front of a 20 MiB/s device: the
# first 96 MiB written pass at the rig's own speed, the rest at 20 MiB/s.
# N runs each of block output (-s 192m) and random writes of 64k (the
# rule skipping the data file's making) must report the cliff with the
# bytes absorbed within 10% of 96 MiB and the sustained rate within 5% of
# 20 MiB/s; N runs of each on the same rig without its cache (a flat 20
# MiB/s: the rig without any rule is no flat device, its backing
# directory's page cache being a write-back cache of its own), and
# as root N runs of block output -D on a loop device under a blkio cap of
# 1000 writes a second, must report none.
# A benchmark, not a test: it prints figures and never fails on them.
# Needs t/faultfs (make check builds it), FUSE and jq.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

rig_bench cliff-truth 10 "$@"
mib=1048576

# one TEST RULE ARGS...: a run on the rig with only RULE (empty: the
# same device without its cache, a flat 20 MiB/s), TEST's cliff as a
# line: found absorbed-MiB sustained-MiB/s burst-MiB/s, or "none: why".
one() {
	local test=$1 rule=${2:-delay write rate=20m}
	shift 2
	printf 'clear\n%s\n' "$rule" >"$ctl"
	run_or_die "clyde $*" "$clyde" -d "$work/m/d" -r 0 -n 0 -q \
		--json="$work/c.json" "$@"
	jq -r --argjson m "$mib" ".runs[0].tests.$test.cliff |
		if .found then \"found \(.absorbed_bytes / \$m) \(.sustained_bytes_per_s / \$m) \(.burst_bytes_per_s / \$m)\"
		else \"none: \(.why)\" end" "$work/c.json"
}

# series NAME TEST RULE ARGS...: RUNS runs; for a cache, each run's
# absorbed and sustained off the rig's and the worst; else how many found
# a cliff where there is none.
series() {
	local name=$1 test=$2 rule=$3 line found=0 worst_a=0 worst_s=0
	shift 3
	for ((i = 1; i <= runs; i++)); do
		line=$(one "$test" "$rule" "$@")
		if [[ $line == found* ]]; then
			found=$((found + 1))
			read -r _ a s b <<<"$line"
			read -r da ds < <(awk -v a="$a" -v s="$s" \
				'BEGIN { printf "%.2f %.2f\n", (a - 96) / 96 * 100, (s - 20) / 20 * 100 }')
			worst_a=$(awk -v w="$worst_a" -v d="$da" 'BEGIN { d = d < 0 ? -d : d; print (d > w ? d : w) }')
			worst_s=$(awk -v w="$worst_s" -v d="$ds" 'BEGIN { d = d < 0 ? -d : d; print (d > w ? d : w) }')
			printf '  %-26s run %2d: absorbed %7.2f MiB (%+.2f%%), sustained %6.2f MiB/s (%+.2f%%), burst %7.1f MiB/s\n' \
				"$name" "$i" "$a" "$da" "$s" "$ds" "$b"
		else
			printf '  %-26s run %2d: %s\n' "$name" "$i" "$line"
		fi
	done
	if [[ -n $rule ]]; then
		printf '  %-26s %d of %d found; worst absorbed off by %s%%, sustained by %s%%\n' \
			"$name" "$found" "$runs" "$worst_a" "$worst_s"
	else
		printf '  %-26s %d of %d runs found a cliff (none is there)\n' "$name" "$found" "$runs"
	fi
}

runs_begin
echo "the rig as a 96 MiB write-back cache in front of 20 MiB/s:"
series "block output" put_block 'delay write rate=20m cache=96m' \
	-s 192m --only=put_block
series "random writes 64k" ran_write 'delay write rate=20m cache=96m skip=192m' \
	-s 192m --only=ran_write --ran-bs=64k --ran-time=5
echo "the same rig without its cache (delay write rate=20m):"
series "block output" put_block '' -s 64m --only=put_block
series "random writes 64k" ran_write '' -s 64m --only=ran_write --ran-bs=64k --ran-time=3
rig_stop

if ((EUID == 0)) && [[ -w /sys/fs/cgroup/blkio/cgroup.procs ]]; then
	echo "a loop device under a blkio cap of 1000 writes a second, -D:"
	capped_loop cliff 200
	found=0
	for ((i = 1; i <= runs; i++)); do
		capped "$clyde" -d "$mnt" -r 0 -n 0 -q -D -s 24m --only=put_block --json="$work/c.json"
		line=$(jq -r '.runs[0].tests.put_block.cliff | if .found then "found \(.absorbed_bytes)" else "none: \(.why)" end' "$work/c.json")
		[[ $line == found* ]] && found=$((found + 1))
		printf '  %-26s run %2d: %s\n' "block output -D, capped" "$i" "$line"
	done
	printf '  %-26s %d of %d runs found a cliff (none is there)\n' "block output -D, capped" "$found" "$runs"
else
	echo "(the capped loop device needs root and the blkio (v1) controller: skipped)"
fi
runs_end
printf '  load average: %s before, %s after\n' "$load1" "$load2"
changed_note
