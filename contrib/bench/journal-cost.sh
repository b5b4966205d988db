#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What --journal costs: ran_write with -b (each write O_SYNC) at depth 1
# on tmpfs, where nothing but clyde's own work limits it, with the
# journal on a second tmpfs, against the same run without a journal
# (--verify in both, since --journal turns it on). Median of -r runs,
# interleaved, each pinned to one CPU (-P, default the last). The issue
# asks for at least 0.9 of the rate without the journal. A benchmark,
# not a test: it prints figures and never fails on them.
#
# The second tmpfs is mounted by the script (as root) in -d, and
# unmounted on every way out; or give one with -j.
#
# usage: journal-cost.sh [-d DIR (tmpfs, default /dev/shm)] [-j JDIR]
#                        [-s SIZE (256m)] [-t SECONDS (5)] [-r RUNS (5)]
#                        [-C CLYDE] [-P CPU|none]

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

dir=/dev/shm jdir= size=256m secs=5 runs=5 clyde= cpu=$(($(nproc) - 1))
while getopts d:j:s:t:r:C:P: o; do
	case $o in
	j) jdir=$OPTARG ;;
	t) secs=$OPTARG ;;
	*) pinned_opt "$o" || die_usage "usage: $0 [-d DIR] [-j JDIR] [-s SIZE] [-t SECONDS] [-r RUNS] [-C CLYDE] [-P CPU|none]" ;;
	esac
done
no_operands "${@:OPTIND}"
whole_in -t "$secs" 1 3600
pinned_bench journalbench
mounted=
unmount_jdir() {
	[[ -n $mounted ]] && umount "$mounted" && rmdir "$mounted"
	mounted=
}
trap 'unmount_jdir; cleanup' EXIT
trap 'unmount_jdir; on_signal' INT TERM HUP
if [[ -z $jdir ]]; then
	[[ $(id -u) = 0 ]] || die_usage "without -j, needs root to mount a second tmpfs"
	jdir=$(mktemp -d /tmp/clyde-journalbench-j.XXXXXX)
	mount -t tmpfs -o size=1g tmpfs "$jdir" || die "mounting a tmpfs on $jdir"
	mounted=$jdir
fi
writable_dir "$jdir"
[[ $(stat -c %d "$jdir") != $(stat -c %d "$work") ]] ||
	die_usage "-j '$jdir': on the filesystem of -d; give another"
declare -A vals med

# one KEY ARGS...: one run's ran_write rate (ops/s).
one() {
	local key=$1
	shift
	rm -f "$jdir/j" "$work"/clyde-kept.*
	run_or_die "$key failed" "${pin[@]}" "$clyde" -d "$work" -s "$size" -r 0 -n 0 -q -b \
		--only=ran_write --ran-ops=100000000 --ran-time="$secs" --verify --json="$work/r.json" "$@"
	add "$key" "$(jq '.runs[0].tests.ran_write.rate | floor' "$work/r.json")"
}

runs_begin
for ((i = 1; i <= runs; i++)); do
	printf 'run %d of %d...\r' "$i" "$runs" >&2
	one plain
	one journal --journal="$jdir/j"
done
echo >&2
medians plain journal
echo "ran_write -b (O_SYNC), 4k, depth 1, on $dir ($(stat -f -c %T "$dir")), journal on $jdir ($(stat -f -c %T "$jdir")), $size, ${secs} s a run, ops/s, median of $runs, ${pin[*]:-not pinned}"
printf '  %-12s %12s %12s %8s\n' figure plain --journal ratio
printf '  %-12s %12s %12s %8s\n' ran_write "$(cell plain)" "$(cell journal)" \
	"$(ratio "${med[journal]}" 0 "${med[plain]}" 0)"
runs_end
