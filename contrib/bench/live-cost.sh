#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the live status line (--progress) costs: block input on tmpfs
# (where nothing but clyde's own work limits it, so a cost in the timed
# loop would show), from the JSON rate (which keeps the measured figure
# when the table shows +++++), median of -r interleaved runs, with the
# line drawn (--progress: stderr is a file here, which --progress draws
# to as to a terminal) and without it (--progress=none). The line is
# drawn from the clock read each operation already takes, at most four
# times a second, so the two should not differ beyond the runs' own
# spread. A benchmark, not a test: it prints figures and never fails on
# them.
#
# Every run is pinned to one CPU (-P, default the last; -P none: not
# pinned), as verify-cost.sh's are.
#
# usage: live-cost.sh [-d DIR (tmpfs, default /dev/shm)] [-s SIZE (2g)]
#                     [-r RUNS (5)] [-C CLYDE] [-P CPU]

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

dir=/dev/shm size=2g runs=5 clyde= cpu=$(($(nproc) - 1))
usage() {
	echo "usage: $prog [-d DIR] [-s SIZE] [-r RUNS] [-C CLYDE] [-P CPU|none]"
}
while getopts :d:s:r:C:P:h o; do
	pinned_opt "$o" || opt_other "$o"
done
no_operands "${@:OPTIND}"
pinned_bench livebench
trap_cleanup
declare -A vals med

# one KEY ARGS...: a run's block input rate (KiB/s); not -q, which
# would turn the line off.
one() {
	local key=$1
	shift
	run_or_die "$key failed" "${pin[@]}" "$clyde" -d "$work" -s "$size" -r 0 -f -n 0 \
		--only=get_block --json="$work/r.json" "$@"
	add "$key" "$(jq '.runs[0].tests.get_block.rate | floor' "$work/r.json")"
}

runs_begin
for ((i = 1; i <= runs; i++)); do
	printf 'run %d of %d...\r' "$i" "$runs" >&2
	one off --progress=none
	one on --progress
	# The line was drawn (else the comparison says nothing).
	grep -q $'\rget_block ' "$work/err" || die "--progress drew no status line"
done
echo >&2
medians off on
echo "block input on $dir ($(stat -f -c %T "$dir")), $size, KiB/s, median of $runs, ${pin[*]:-not pinned}"
printf '  %-22s %12s %12s %8s\n' figure --progress=none --progress "on/off"
printf '  %-22s %12s %12s %8s\n' "block input" "$(cell off)" "$(cell on)" \
	"$(awk -v a="${med[on]}" -v b="${med[off]}" 'BEGIN { printf "%+.1f%%", (a / b - 1) * 100 }')"
runs_end
changed_note
echo "load $load1 before, $load2 after"
