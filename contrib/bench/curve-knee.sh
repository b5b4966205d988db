#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A knee that moves. The fault rig of the tests (t/faultfs),
# single-threaded, delays every read by a fixed time: one server of a
# fixed service time, an M/D/1 queue under clyde-curve's Poisson steps.
# Two settings of it, S and 1.5 S (-S MS and one and a half times it:
# mirroring off and on, say), each a curve -x 3 times with the same
# target, mean <= 2 S (which M/D/1 meets at 2/3 of the first's maximum
# and 2/5 of the second's), then clyde-report compare of the two: it
# must name the second slower at every step from 50% on and its maximum
# and knee lower, with p < 0.05. The documents stay in -o DIR when given
# (t/data's curve fixtures were made so).
# A benchmark, not a test: it prints figures and never fails on them.
# Needs t/faultfs (make check builds it), FUSE and jq; run as root or a
# user who may mount FUSE.
#
# Measured on the 2-core VM (the command and its output are in the
# closing note of the curve's issue).

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-S MS] [-T SECONDS] [-x N] [-d DIR] [-o DIR]
  -S MS       the first setting's delay of every read, milliseconds
              (default 2; the second's is 1.5 times it)
  -T SECONDS  each step's time (default 3)
  -x N        curves a setting (default 3)
  -d DIR      where the rig's backing directory and mount go (default /var/tmp)
  -o DIR      keep the two documents there (off.json, on.json)
EOF
}

delay=2 secs=3 repeats=3 dir=/var/tmp keep=
while getopts S:T:x:d:o:h opt; do
	case $opt in
	S) delay=$OPTARG ;;
	T) secs=$OPTARG ;;
	x) repeats=$OPTARG ;;
	d) dir=$OPTARG ;;
	o) keep=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"
whole_in -S "$delay" 1 1000
whole_in -T "$secs" 1 3600
whole_in -x "$repeats" 2 100
writable_dir "$dir"
[[ -z $keep ]] || writable_dir "$keep"
root=$(cd "$(dirname "$0")/../.." && pwd -P)
curve_bin=$root/src/clyde-curve
report=$root/src/clyde-report
clyde=$curve_bin
[[ -x $curve_bin && -x $report ]] || die_usage "$root: not built (run make)"
command -v jq >/dev/null || die_usage "needs jq (apt-get install jq)"
rig_start curve-knee

# curve NAME DELAY-US ARGS...: one clyde-curve on the rig, every read
# delayed DELAY-US microseconds; its document in $work/NAME.json.
curve() {
	local name=$1
	printf 'clear\ndelay read fixed=%sus\n' "$2" >"$work/m/.faultfs"
	shift 2
	run_or_die "clyde-curve $name" "$curve_bin" -d "$work/m/d" -s 4m -r 0 -q \
		-m "$name" --json="$work/$name.json" "$@"
}

runs_begin
us=$((delay * 1000))
curve probe "$us" --steps=10 --step-time=2
S=$(jq '1e9 / .curves[0].steps[0].test.rate' "$work/probe.json")
target=$(awk -v s="$S" 'BEGIN { printf "%d", 2 * s / 1e3 }')us
printf 'The rig: every read delayed %s ms, then %s ms; S = %.3f ms; --target=mean:%s\n' \
	"$delay" "$(awk -v d="$delay" 'BEGIN { print d * 1.5 }')" \
	"$(awk -v s="$S" 'BEGIN { print s / 1e6 }')" "$target"
set -- --steps=25,50,75 --step-time="$secs" -x "$repeats" \
	--target="mean:$target" --refine=1
curve off "$us" "$@"
curve on $((us * 3 / 2)) "$@"
runs_end
"$report" compare "$work/off.json" "$work/on.json" | sed 's/^/  /'
if [[ -n $keep ]]; then
	cp "$work/off.json" "$work/on.json" "$keep/" || die "cannot copy to $keep"
	printf '  documents kept: %s/off.json, %s/on.json\n' "$keep" "$keep"
fi
printf '  load average: %s before, %s after\n' "$load1" "$load2"
changed_note
