#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What recording every operation's latency costs: block input of the same
# file with the histogram (the default) and with --no-latency (only the
# worst operation kept), interleaved, median of N. The rates come from
# the JSON result, which keeps the measured figure even when a test took
# under 0.5 s and the table shows +++++.
# A benchmark, not a test: it prints figures and never fails on them.
set -euo pipefail

usage() {
	echo "usage: $0 [-d DIR] [-s SIZE] [-c CHUNK] [-r REPEATS] [-C CLYDE]" >&2
	exit 2
}

top=$(cd "$(dirname "$0")/../.." && pwd)
dir=/dev/shm size=1g chunk=8k repeats=11 clyde="$top/src/clyde/clyde"
while getopts d:s:c:r:C:h opt; do
	case $opt in
	d) dir=$OPTARG ;;
	s) size=$OPTARG ;;
	c) chunk=$OPTARG ;;
	r) repeats=$OPTARG ;;
	C) clyde=$OPTARG ;;
	*) usage ;;
	esac
done
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "$0: -r '$repeats': expected a count" >&2; exit 2; }
[ -x "$clyde" ] || { echo "$0: '$clyde' is not executable (build first)" >&2; exit 2; }
[ -d "$dir" ] || { echo "$0: -d '$dir': not a directory" >&2; exit 2; }
command -v jq >/dev/null || { echo "$0: needs jq (apt-get install jq)" >&2; exit 2; }

work=$(mktemp -d "$dir/clyde-latbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# rate [EXTRA]: block input KiB/s of one run, from its JSON.
rate() {
	"$clyde" -d "$work" -s "$size:$chunk" -r 0 -n 0 -f -q \
		--only=get_block --json="$work/r.json" "$@" >/dev/null 2>&1
	jq -r '.runs[0].tests.get_block.rate' "$work/r.json"
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

with=() without=()
for ((i = 1; i <= repeats; i++)); do
	echo "  repeat $i/$repeats" >&2
	with+=("$(rate)")
	without+=("$(rate --no-latency)")
done
m_with=$(printf '%s\n' "${with[@]}" | median)
m_without=$(printf '%s\n' "${without[@]}" | median)

echo "block input, $size in $dir ($(stat -f -c %T "$dir")), chunk $chunk, median of $repeats (KiB/s)"
printf '%-22s %12s\n' "with latency histogram" "$m_with" "--no-latency" "$m_without"
awk -v a="$m_with" -v b="$m_without" 'BEGIN { printf "%-22s %+11.2f%%  (bar: within 2%%)\n", "difference", (a - b) / b * 100 }'
echo "per repeat, with:    ${with[*]}"
echo "per repeat, without: ${without[*]}"
echo "command: $clyde -d $work -s $size:$chunk -r 0 -n 0 -f -q --only=get_block --json=FILE [--no-latency]"
