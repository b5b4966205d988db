#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The queueing truth of clyde-curve. The fault rig of the tests
# (t/faultfs, a FUSE passthrough), single-threaded and told to delay
# every read by a fixed time, is one server with a deterministic service
# time S. Its curve's maximum (a closed loop at depth 32) is 1/S, so the
# step at P% of it offers a load rho = P/100, and under Poisson arrivals
# the server is an M/D/1 queue whose mean response time is
# S + rho S / (2 (1 - rho)): 1.5 S at 50%, 2.5 S at 75%. clyde-curve
# must report those means within 10%, and with --target=mean:2S (M/D/1
# gives 2 S at rho = 2/3) a knee within 10% of 2/3 of the maximum.
# S is 1/max of a first closed loop (the rig's delay plus its own
# round trip), the target set from it; the figures are then judged with
# the curve's own maximum, as its steps were.
# A benchmark, not a test: it prints figures and never fails on them.
# Needs t/faultfs (make check builds it), FUSE and jq; run as root or a
# user who may mount FUSE.
#
# Measured on the 2-core VM (see the figures the script prints; the
# command and its output are in the closing note of the curve's issue).

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-S MS] [-T SECONDS] [-d DIR] [-C CLYDE-CURVE]
  -S MS       the rig's delay of every read, milliseconds (default 5)
  -T SECONDS  each step's time (default 30)
  -d DIR      where the rig's backing directory and mount go (default /var/tmp)
  -C CURVE    the clyde-curve binary (default: this tree's src/clyde-curve)
EOF
}

delay=5 secs=30 dir=/var/tmp curve=
while getopts S:T:d:C:h opt; do
	case $opt in
	S) delay=$OPTARG ;;
	T) secs=$OPTARG ;;
	d) dir=$OPTARG ;;
	C) curve=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"
whole_in -S "$delay" 1 1000
whole_in -T "$secs" 1 3600
writable_dir "$dir"
root=$(cd "$(dirname "$0")/../.." && pwd -P)
curve=${curve:-$root/src/clyde-curve}
[[ -f $curve && -x $curve ]] || die_usage "'$curve': not an executable (run make)"
clyde=$curve
command -v jq >/dev/null || die_usage "needs jq (apt-get install jq)"
rig_start curve-truth
printf 'delay read fixed=%sms\n' "$delay" >"$work/m/.faultfs"

# curve ARGS...: one curve on the rig, its document in $work/c.json.
curve() {
	run_or_die "clyde-curve $*" "$curve" -d "$work/m/d" -s 16m -r 0 -q \
		--json="$work/c.json" "$@"
}

runs_begin
# S: 1/max of a closed loop at depth 32 (one step of 10% to have a curve).
curve --steps=10 --step-time=10
S=$(jq '1e9 / .curves[0].steps[0].test.rate' "$work/c.json")
target_us=$(awk -v s="$S" 'BEGIN { printf "%d", 2 * s / 1e3 + 0.5 }')
printf 'M/D/1 on the rig: every read delayed %s ms, S = 1/max = %.3f ms\n' \
	"$delay" "$(awk -v s="$S" 'BEGIN { print s / 1e6 }')"
curve --steps=50,75 --step-time="$secs" --target="mean:${target_us}us" --refine=3
# The steps' loads are shares of this curve's own maximum: S is its 1/max.
max=$(jq '.curves[0].steps[0].test.rate' "$work/c.json")
S=$(awk -v m="$max" 'BEGIN { print 1e9 / m }')
printf '  this curve'"'"'s max %.1f IOPS: S %.3f ms; the target set from the first\n' \
	"$max" "$(awk -v s="$S" 'BEGIN { print s / 1e6 }')"
printf '  %-6s %9s %9s %12s %12s %8s\n' step offered achieved "mean ms" "M/D/1 ms" off
jq -r '.curves[0].steps[1:][] | "\(.percent) \(.kind) \(.offered) \(.test.rate) \(.test.latency.mean_ns)"' \
	"$work/c.json" | while read -r pct kind off ach mean; do
	awk -v p="$pct" -v k="$kind" -v o="$off" -v a="$ach" -v m="$mean" -v s="$S" \
		'BEGIN { r = p / 100; w = s * (1 + r / (2 * (1 - r)));
			printf "  %-6s %9d %9.1f %12.3f %12.3f %+7.1f%%\n",
				p "%" (k == "refine" ? "*" : ""), o, a, m / 1e6, w / 1e6,
				(m - w) / w * 100 }'
done
knee=$(jq '.curves[0].knee.iops // 0' "$work/c.json")
# Where M/D/1's mean meets the target t: S (1 + rho / (2 (1 - rho))) = t.
awk -v k="$knee" -v s="$S" -v t="$target_us" \
	'BEGIN { x = t * 1e3 / s - 1; rho = 2 * x / (1 + 2 * x); w = rho * 1e9 / s;
		printf "  knee of mean <= %d us: %.1f IOPS, M/D/1 %.1f (rho %.3f): %+.1f%%\n",
			t, k, w, rho, (k - w) / w * 100 }'
runs_end
printf '  load average: %s before, %s after\n' "$load1" "$load2"
changed_note
