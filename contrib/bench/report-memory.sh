#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What clyde-report costs on large inputs: the peak resident size and the
# wall time of
#   (a) N CSV lines (default 100,000) through txt;
#   (b) 250,000 lines through txt: past the limit of result lines, so
#       what it costs until it refuses;
#   (c) a document with M intervals (default 10^6, about 160 MB) through
#       txt, json, html and plot --over-time.
# The inputs are made from two real runs of this tree's clyde: the CSV
# line of bonnie++'s figures on 16 MiB (-n 1) repeated, and the
# intervals of a second of ran_read logged every 10 ms repeated
# (report-inputs.py). -R gives another clyde-report, to set an
# older build beside this one.
# A benchmark, not a test: it prints figures and never fails on them.
# Needs /usr/bin/time (GNU time), python3 and gnuplot (for plot).

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-n LINES] [-m INTERVALS] [-d DIR] [-C CLYDE] [-R REPORT]
  -n LINES      CSV lines of case (a) (default 100000)
  -m INTERVALS  intervals of case (c) (default 1000000)
  -d DIR        where the run and the inputs go (default /var/tmp)
  -C CLYDE      the clyde binary (default: this tree's src/clyde/clyde)
  -R REPORT     the clyde-report binary (default: this tree's)
EOF
}

top=$(cd "$(dirname "$0")/../.." && pwd)
lines=100000 intervals=1000000 dir=/var/tmp clyde='' report=''
while getopts n:m:d:C:R:h opt; do
	case $opt in
	n)
		whole_in -n "$OPTARG" 1 200000
		lines=$OPTARG
		;;
	m)
		whole_in -m "$OPTARG" 1 10000000
		intervals=$OPTARG
		;;
	d) dir=$OPTARG ;;
	C) clyde=$OPTARG ;;
	R) report=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"
clyde=${clyde:-$top/src/clyde/clyde}
report=${report:-$top/src/clyde-report}
gen=$top/contrib/bench/report-inputs.py
[[ -x /usr/bin/time ]] || die "needs GNU time as /usr/bin/time"

work=$(mktemp -d "$dir/report-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$clyde" -d "$work" -s 16m -n 1 -r 0 -f -q >"$work/run.csv" 2>/dev/null ||
	die "the run of $clyde failed"
"$clyde" -d "$work" -s 16m -n 0 -r 0 -f --only=ran_read --ran-time=1 \
	--log-interval=10 --json="$work/run.json" -q >/dev/null \
	2>/dev/null || die "the run of $clyde failed"
python3 "$gen" csv "$work/run.csv" "$lines" "$work/a.csv"
python3 "$gen" csv "$work/run.csv" 250000 "$work/b.csv"
python3 "$gen" json "$work/run.json" "$intervals" "$work/c.json"

# measure NAME ARGS...: one run of clyde-report, its exit status, peak
# resident size and wall time.
measure() {
	local name=$1 rc=0
	shift
	/usr/bin/time -v -o "$work/time" "$report" "$@" \
		>"$work/out" 2>"$work/err" || rc=$?
	awk -v n="$name" -v rc="$rc" '
		/Maximum resident set size/ { kb = $NF }
		/Elapsed \(wall clock\)/ { t = $NF }
		END { printf "%-34s exit %-3s peak %8.1f MiB  time %s\n",
		      n, rc, kb / 1024, t }' "$work/time"
}

printf '%s\n' "$report"
printf 'CSV line %d bytes; document %d bytes\n' \
	"$(tail -n 1 "$work/run.csv" | wc -c)" "$(wc -c <"$work/c.json")"
measure "(a) txt, $lines lines" txt "$work/a.csv"
measure "(b) txt, 250000 lines" txt "$work/b.csv"
measure "(c) txt, $intervals intervals" txt "$work/c.json"
measure "(c) json" json "$work/c.json"
measure "(c) html" -o "$work/c.html" html "$work/c.json"
measure "(c) plot --over-time" -o "$work/c.png" plot --over-time \
	"$work/c.json"
