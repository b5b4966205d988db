#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# zcav-vs-dd.sh: clyde-zcav's MiB/s per block next to dd's (O_DIRECT,
# the same block at the same offset) and, when installed, bonnie++'s
# zcav, on one device or file, with ratios.
#
# A benchmark, not a test: it prints numbers and never fails on a speed.
# It only reads (zcav without -w, dd with iflag=direct of=/dev/null).
# bonnie++'s zcav reads through the page cache, so on a file or a device
# with cached data its figures can run ahead of the other two. Each dd
# is a new process starting a new stream, so on a throttled rig it gets
# the throttle's start-up burst that one long zcav run gets only once.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF2
usage: $prog [-b MIB] [-n BLOCKS] [-C CLYDE_ZCAV] TARGET

  -b MIB      block size in MiB (default 256)
  -n BLOCKS   how many blocks from the start (default: all)
  -C PATH     the clyde-zcav binary (default: src/clyde-zcav of this tree)
EOF2
}

block=256
blocks=0
zcav_bin=$(cd "$(dirname "$0")/../.." && pwd)/src/clyde-zcav
while getopts b:n:C:h opt; do
	case $opt in
	b) [[ $OPTARG =~ ^[1-9][0-9]*$ ]] || die_usage "-b '$OPTARG': a whole number of MiB"; block=$OPTARG ;;
	n) [[ $OPTARG =~ ^[1-9][0-9]*$ ]] || die_usage "-n '$OPTARG': a count"; blocks=$OPTARG ;;
	C) zcav_bin=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 ]] || { usage >&2; exit 2; }
target=$1
[[ -b $target || -f $target ]] || die_usage "$target: not a block device or file"
[[ -x $zcav_bin ]] || die_usage "$zcav_bin: not built"

work=$(mktemp -d "${TMPDIR:-/tmp}/zcav-vs-dd.XXXXXX")
trap 'rm -rf "$work"' EXIT

range=()
((blocks)) && range=(-r $((blocks * block)))
"$zcav_bin" -b "$block" "${range[@]}" "$target" >"$work/clyde" 2>"$work/err" ||
	{ show_err "$work/err"; die "clyde-zcav failed"; }
if command -v zcav >/dev/null 2>&1; then
	zn=()
	((blocks)) && zn=(-r $((blocks * block)))
	zcav -b "$block" "${zn[@]}" "$target" >"$work/zcav" 2>/dev/null || : >"$work/zcav"
else
	: >"$work/zcav"
fi

printf '%8s %12s %12s %7s %12s %7s\n' GiB clyde-zcav dd dd/cl zcav zcav/cl
i=0
grep -E '^#?[0-9]+\.[0-9]+ ' "$work/clyde" | while read -r off rate _; do
	off=${off#\#}
	# dd: the same block, O_DIRECT, timed by dd itself.
	ddl=$(dd if="$target" of=/dev/null bs=1M count="$block" skip=$((i * block)) \
		iflag=direct 2>&1 | tail -1)
	ddr=$(awk '{ for (k = 1; k <= NF; k++) if ($k == "s,") { print $1 / 1048576 / $(k - 1); exit } }' <<<"$ddl")
	# zcav 2.00 comments out blocks it thinks too short; its time
	# still gives the rate.
	zr=$(awk -v o="$off" -v b="$block" '{ k = $1; sub(/^#/, "", k) }
		k == o && $2 != "++++" { print $2 } k == o && $2 == "++++" && $3 > 0 { printf "%.2f\n", b / $3 }' "$work/zcav")
	[[ $rate == "++++" ]] && rate=-
	awk -v o="$off" -v c="$rate" -v d="${ddr:--}" -v z="${zr:--}" 'BEGIN {
		r1 = (c + 0 > 0 && d + 0 > 0) ? sprintf("%.3f", d / c) : "-"
		r2 = (c + 0 > 0 && z + 0 > 0) ? sprintf("%.3f", z / c) : "-"
		printf "%8s %12s %12s %7s %12s %7s\n", o, c, (d == "-" ? d : sprintf("%.2f", d)), r1, z, r2 }'
	i=$((i + 1))
done
