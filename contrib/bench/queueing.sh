#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The queueing truth of an offered rate. The fault rig of the tests
# (t/faultfs, a FUSE passthrough), single-threaded and told to delay
# every read by a fixed time, is one server with a deterministic service
# time S: under Poisson arrivals at a load rho (the rate times S) it is
# an M/D/1 queue, whose mean response time is S + rho S / (2 (1 - rho)):
# 1.5 S at rho 0.5, 2.5 S at 0.75. clyde --only=ran_read --rate must
# report that mean response (due to completion) within 10%:
#   - at a depth no I/O waits in clyde for (-q, default 32): the queue is
#     in the kernel and the rig, and the mean service time (submission to
#     completion) is the response too;
#   - at --iodepth=1: the queue is in clyde, the response still follows
#     M/D/1 while the mean service time stays S (within 5%).
# S is measured first, by a closed loop at depth 1 (the delay plus the
# rig's own round trip), and the rates are set from it. A tool that timed
# each I/O from its issue would report about S at every load at depth 1.
# A benchmark, not a test: it prints figures and never fails on them.
# Needs t/faultfs (make check builds it), FUSE and jq; run as root or a
# user who may mount FUSE.
#
# Measured on the 2-core VM, the machine quiet (load 0.31 before, 0.06
# after), with bash contrib/bench/queueing.sh (5 ms, 30 s a run):
#
#   M/D/1 on the rig: every read delayed 5 ms, measured S 5.204 ms
#     rho   depth      rate  response ms     M/D/1 ms      off   service ms
#     0.5   32           96        8.108        7.806    +3.9%        8.045
#     0.5   1            96        7.818        7.806    +0.2%        5.201
#     0.75  32          144       12.399       13.009    -4.7%       12.353
#     0.75  1           144       12.354       13.009    -5.0%        5.147
#
# (S here is the rig's delay plus its own round trip, so M/D/1's 1.5 S
# and 2.5 S are 7.8 and 13.0 ms.) Figures move with other load on the
# machine, which stretches the rig's service times.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-S MS] [-T SECONDS] [-q DEPTH] [-d DIR] [-C CLYDE]
  -S MS       the rig's delay of every read, milliseconds (default 5)
  -T SECONDS  each run under a rate (default 30)
  -q DEPTH    the deep runs' --iodepth (default 32)
  -d DIR      where the rig's backing directory and mount go (default /var/tmp)
  -C CLYDE    the clyde binary (default: this tree's src/clyde/clyde)
EOF
}

delay=5 secs=30 depth=32 dir=/var/tmp clyde=
while getopts S:T:q:d:C:h opt; do
	case $opt in
	S) delay=$OPTARG ;;
	T) secs=$OPTARG ;;
	q) depth=$OPTARG ;;
	d) dir=$OPTARG ;;
	C) clyde=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"
whole_in -S "$delay" 1 1000
whole_in -T "$secs" 1 3600
whole_in -q "$depth" 2 1024
writable_dir "$dir"
find_clyde
command -v jq >/dev/null || die_usage "needs jq (apt-get install jq)"
rig_start queueing
printf 'delay read fixed=%sms\n' "$delay" >"$work/m/.faultfs"

# ran ARGS...: one ran_read run on the rig; prints the mean response and
# the mean service time in ns.
ran() {
	run_or_die "clyde $*" "$clyde" -d "$work/m/d" -s 16m -r 0 -n 0 -f -q \
		--only=ran_read --ran-ops=100000000 --json="$work/c.json" "$@"
	jq -r '.runs[0].tests.ran_read | "\(.latency.mean_ns) \(.service.mean_ns // .latency.mean_ns)"' \
		"$work/c.json"
}

runs_begin
read -r S _ < <(ran --ran-time=5)
printf 'M/D/1 on the rig: every read delayed %s ms, measured S %.3f ms (closed loop, depth 1)\n' \
	"$delay" "$(awk -v s="$S" 'BEGIN { print s / 1e6 }')"
printf '  %-5s %-6s %8s %12s %12s %8s %12s\n' rho depth rate "response ms" "M/D/1 ms" off \
	"service ms"
for rho in 0.5 0.75; do
	rate=$(awk -v r="$rho" -v s="$S" 'BEGIN { printf "%d", r / (s / 1e9) + 0.5 }')
	want=$(awk -v r="$rho" -v s="$S" 'BEGIN { print s * (1 + r / (2 * (1 - r))) }')
	for q in "$depth" 1; do
		read -r resp svc < <(ran --rate="$rate" --iodepth="$q" --ran-time="$secs")
		awk -v rho="$rho" -v q="$q" -v rate="$rate" -v r="$resp" -v w="$want" -v s="$svc" \
			'BEGIN { printf "  %-5s %-6s %8d %12.3f %12.3f %+7.1f%% %12.3f\n",
				rho, q, rate, r / 1e6, w / 1e6, (r - w) / w * 100, s / 1e6 }'
	done
done
runs_end
printf '  load average: %s before, %s after\n' "$load1" "$load2"
changed_note
