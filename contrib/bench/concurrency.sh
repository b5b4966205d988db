#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# concurrency.sh: what -c 2 gains over -c 1 on block input, on tmpfs
# (no device to share): the median of REPEATS interleaved runs of each,
# and their ratio. A benchmark, not a test: it never fails on a speed.
#
# SIZE is per copy (default 8g: -c 2 holds 16 GiB in the tmpfs). Short
# runs understate the gain: the first start and last end of two copies
# are a few tens of ms apart whatever the size. On the project's 2-core
# VM, nothing else running: -s 8g gave 5585301 KiB/s for -c 1 and
# 9481477 for -c 2, a ratio of 1.70; -s 4g gave 1.57.
#
# usage: concurrency.sh [-d DIR (tmpfs, default /dev/shm)] [-s SIZE]
#                       [-r REPEATS] [-C CLYDE]

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

dir=/dev/shm size=8g repeats=5 clyde=
while getopts d:s:r:C: o; do
	case $o in
	d) dir=$OPTARG ;;
	s) size=$OPTARG ;;
	r) repeats=$OPTARG ;;
	C) clyde=$OPTARG ;;
	*) die_usage "usage: $0 [-d DIR] [-s SIZE] [-r REPEATS] [-C CLYDE]" ;;
	esac
done
writable_dir "$dir"
find_clyde
work=$(mktemp -d "$dir/clyde-concbench.XXXXXX")
trap_cleanup
declare -A vals med
for ((i = 1; i <= repeats; i++)); do
	for c in 1 2; do
		printf 'run %d, -c %d...\r' "$i" "$c" >&2
		run_or_die "clyde -c $c failed" "$clyde" -d "$work" -s "$size" \
			-r 0 -f -n 0 -q --only=get_block -c "$c"
		add "c$c" "$(csv_fields "$work/out" 18)"
	done
done
echo >&2
for c in 1 2; do
	# shellcheck disable=SC2086
	read -r m b <<<"$(median 0 ${vals[c$c]})"
	med[c$c]=$m
	bound[c]=$b
	echo "-c $c block input KiB/s (median of $repeats): $m  [${vals[c$c]}]"
done
echo "ratio -c 2 / -c 1: $(ratio "${med[c2]}" "${med[c2]}" "${med[c1]}" "${med[c1]}")"
