#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What --verify and --data cost: block output and block input on tmpfs
# (where nothing but clyde's own work limits them), from the JSON rates
# (which keep the measured figure when the table shows +++++), median of
# -r interleaved runs, without --verify and with it; with -B, also a
# clyde built from main before the data modes, to show that the default
# run did not change. A benchmark, not a test: it prints figures and
# never fails on them.
#
# Every run is pinned to one CPU (-P, default the last; -P none: not
# pinned). Unpinned, a tmpfs run on a 2-core VM moved by 5% from one run
# to the next, as much as the cost being measured; pinned, by 2 to 3%.
#
# usage: verify-cost.sh [-d DIR (tmpfs, default /dev/shm)] [-s SIZE (2g)]
#                       [-r RUNS (5)] [-C CLYDE] [-B BASE_CLYDE] [-P CPU]

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

dir=/dev/shm size=2g runs=5 clyde= base= cpu=$(($(nproc) - 1))
while getopts d:s:r:C:B:P: o; do
	case $o in
	B) base=$OPTARG ;;
	*) pinned_opt "$o" || die_usage "usage: $0 [-d DIR] [-s SIZE] [-r RUNS] [-C CLYDE] [-B BASE_CLYDE] [-P CPU|none]" ;;
	esac
done
writable_dir "$dir"
whole_in -r "$runs" 1 99
find_clyde
[[ -z $base || -x $base ]] || die_usage "-B '$base': not an executable"
pin_cpu "$cpu"
command -v jq >/dev/null || die_usage "needs jq (apt-get install jq)"
work=$(mktemp -d "$dir/clyde-verifybench.XXXXXX")
trap_cleanup
declare -A vals med

# one KEY CLYDE ARGS...: a run's block output and input rates (KiB/s).
one() {
	local key=$1 bin=$2
	shift 2
	run_or_die "$key failed" "${pin[@]}" "$bin" -d "$work" -s "$size" -r 0 -f -n 0 -q \
		--only=put_block,get_block --json="$work/r.json" "$@"
	add "$key.out" "$(jq '.runs[0].tests.put_block.rate | floor' "$work/r.json")"
	add "$key.in" "$(jq '.runs[0].tests.get_block.rate | floor' "$work/r.json")"
}

runs_begin
for ((i = 1; i <= runs; i++)); do
	printf 'run %d of %d...\r' "$i" "$runs" >&2
	one plain "$clyde"
	one verify "$clyde" --verify
	[[ -n $base ]] && one base "$base"
done
echo >&2
medians plain.out plain.in verify.out verify.in base.out base.in
echo "block output and input on $dir ($(stat -f -c %T "$dir")), $size, KiB/s, median of $runs, ${pin[*]:-not pinned}"
printf '  %-14s %12s %12s %8s' figure plain --verify ratio
[[ -n $base ]] && printf ' %12s %8s' base plain/base
echo
for f in out in; do
	printf '  %-14s %12s %12s %8s' "block ${f}put" "$(cell "plain.$f")" "$(cell "verify.$f")" \
		"$(ratio "${med[verify.$f]}" 0 "${med[plain.$f]}" 0)"
	[[ -n $base ]] && printf ' %12s %8s' "$(cell "base.$f")" \
		"$(ratio "${med[plain.$f]}" 0 "${med[base.$f]}" 0)"
	echo
done
runs_end
echo "load $load1 before, $load2 after"
