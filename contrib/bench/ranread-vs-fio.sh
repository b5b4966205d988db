#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ran_read at a queue depth against fio: clyde --only=ran_read
# --iodepth=32 and fio's randread with ioengine=io_uring iodepth=32, the
# same block size, file size and filesystem, for as long each; O_DIRECT
# on a disk directory (-d), buffered on tmpfs (-t). With -m, a mix:
# clyde's ran_mix (--mix, a --ran-bs split with -b, --dist with -z)
# against fio's randrw (rwmixread, bssplit, random_distribution, and
# end_fsync, as ran_mix fsyncs before its clock stops). Runs interleave
# (clyde, fio, clyde, ...) and each figure is the median of -r runs;
# the ratio is clyde's IOPS over fio's (target: 0.95 or more). clyde
# reads its own data file, which it writes untimed before each run
# (--only); fio reads a file of the same size that it lays out afresh
# before each run too, in the same directory. Rates come from the JSON of each (clyde's keeps
# the measured rate when the table would show +++++).
# A benchmark, not a test: it prints figures and never fails on them.
#
# Measured on the 2-core VM (virtio disk, ext4, kernel 6.18, fio 3.33),
# the machine quiet (load 0.7 before, 1.0 after), with
# bash contrib/bench/ranread-vs-fio.sh -r 5 (1g, 4k, depth 32, 3 s,
# median of 5):
#
#   target                       clyde IOPS     fio IOPS   clyde/fio
#   /var/tmp (ext2/ext3), -D         105012       107939        0.97
#   /dev/shm (tmpfs), buffered       507838       451491        1.12
#
# With -m 70 -b 8k:70,64k:30 -z zipf:1.1 (ran_mix against randrw):
#
#   target                       clyde IOPS     fio IOPS   clyde/fio
#   /var/tmp (ext2/ext3), -D          31525        33143        0.95
#   /dev/shm (tmpfs), buffered       219701        63024        3.49
#
# and the disk alone once more, -t - -r 7: 35801 against 34620, 1.03.
# Single runs on the disk range from 22830 to 38563 for clyde and
# 28013 to 43065 for fio. On tmpfs fio's randrw ran far below its own
# randread and randwrite of 8k (403k and 351k there), so that row says
# little.
#
# (stat calls ext4 "ext2/ext3".) Two changes brought clyde there from
# 0.84 and 0.67 on the same quiet machine: its ring is set up
# SINGLE_ISSUER and DEFER_TASKRUN, as fio sets up its own (tmpfs, where
# buffered reads go to io_uring's worker threads: 300k to 500k IOPS),
# and each freed slot's next read is submitted at once rather than with
# the batch of the next wait (-D on the disk: 94k to 110k IOPS). The
# layout of the file read made no difference to fio (1m buffered writes
# or 8k O_DIRECT ones, both about 110k). Per-run figures go to stderr.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-d DIR] [-t DIR] [-s SIZE] [-b BS] [-m R] [-z DIST]
       [-q DEPTH] [-T SECONDS] [-r RUNS] [-C CLYDE]
  -d DIR      disk directory, read with O_DIRECT (default /var/tmp)
  -t DIR      tmpfs directory, read buffered (default /dev/shm; - none)
  -s SIZE     file size (default 1g)
  -b BS       block size (default 4k), or with -m a split (8k:70,64k:30)
  -m R        a mix of R percent reads: ran_mix against fio's randrw
  -z DIST     with -m: where offsets land (uniform, zipf:THETA, pareto:H)
  -q DEPTH    queue depth (default 32)
  -T SECONDS  each run's length (default 3)
  -r RUNS     runs of each, interleaved (default 5)
  -C CLYDE    the clyde binary (default: this tree's src/clyde/clyde)
EOF
}

disk=/var/tmp tmpfs=/dev/shm size=1g bs=4k depth=32 secs=3 runs=5 clyde=
mix= dist=uniform
while getopts d:t:s:b:m:z:q:T:r:C:h opt; do
	case $opt in
	m) mix=$OPTARG ;;
	z) dist=$OPTARG ;;
	d) disk=$OPTARG ;;
	t) tmpfs=$OPTARG ;;
	s) size=$OPTARG ;;
	b) bs=$OPTARG ;;
	q) depth=$OPTARG ;;
	T) secs=$OPTARG ;;
	r) runs=$OPTARG ;;
	C) clyde=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"
whole_in -q "$depth" 1 1024
whole_in -T "$secs" 1 3600
whole_in -r "$runs" 1 99
to_bytes "$size" 1 >/dev/null || die_usage "-s '$size': not a size"
if [[ -n $mix ]]; then
	whole_in -m "$mix" 0 100
	[[ $bs =~ ^[0-9]+[kKmM]?(:[0-9]+(,[0-9]+[kKmM]?:[0-9]+)*)?$ ]] ||
		die_usage "-b '$bs': not a size or a split"
	[[ $dist =~ ^(uniform|zipf:[0-9.]+|pareto:[0-9.]+)$ ]] ||
		die_usage "-z '$dist': uniform, zipf:THETA or pareto:H"
	# The same workload in fio's words: 8k/70:64k/30.
	fio_work=(--rw=randrw --rwmixread="$mix" --random_distribution="$dist"
		--end_fsync=1)
	if [[ $bs == *:* ]]; then
		fio_work+=(--bssplit="$(sed 's/:/\//g; s/,/:/g' <<<"$bs")")
	else
		fio_work+=(--bs="$bs")
	fi
	clyde_work=(--only=ran_mix --mix="$mix" --dist="$dist")
	test_key=ran_mix
else
	to_bytes "$bs" 1 >/dev/null || die_usage "-b '$bs': not a size"
	[[ $dist == uniform ]] || die_usage "-z goes with -m"
	fio_work=(--rw=randread --bs="$bs")
	clyde_work=(--only=ran_read)
	test_key=ran_read
fi
find_clyde
command -v fio >/dev/null || die_usage "needs fio (apt-get install fio)"
command -v jq >/dev/null || die_usage "needs jq (apt-get install jq)"
writable_dir "$disk"
[[ $tmpfs == - ]] || writable_dir "$tmpfs"

works=()
cleanup() {
	stop_child
	for w in "${works[@]}"; do rm -rf -- "$w"; done
}
trap_cleanup

# clyde_iops DIR DIRECT: one ran_read run's IOPS.
clyde_iops() {
	local d=() w=$1/c
	[[ $2 == 1 ]] && d=(-D)
	mkdir -p "$w"
	run "$work/out" "$work/err" "$clyde" -d "$w" -s "$size" -r 0 -n 0 -f -q \
		"${clyde_work[@]}" --iodepth="$depth" --ran-bs="$bs" \
		--ran-time="$secs" --ran-ops=1099511627776 "${d[@]}" \
		--json="$work/c.json" || { show_err "$work/err"; die "clyde failed"; }
	jq -r --arg t "$test_key" '.runs[0].tests[$t].rate' "$work/c.json"
}

# fio_iops DIR DIRECT: one fio randread run's IOPS over DIR/fio.dat,
# written afresh first (untimed), as clyde writes its data file before
# each run: otherwise fio would read a file the layers under the
# filesystem (a VM host's page cache) have had runs to keep.
fio_iops() {
	rm -f -- "$1/fio.dat"
	fio --name=layout --filename="$1/fio.dat" --size="$size" --rw=write \
		--bs=1m --direct="$2" --output=/dev/null || die "fio: cannot lay out $1/fio.dat"
	run "$work/f.json" "$work/err" fio --name=ranread --filename="$1/fio.dat" \
		--size="$size" "${fio_work[@]}" --ioengine=io_uring \
		--iodepth="$depth" --direct="$2" --invalidate=1 --runtime="$secs" \
		--time_based --output-format=json ||
		{ show_err "$work/err"; die "fio failed"; }
	jq -r '.jobs[0].read.iops + .jobs[0].write.iops' "$work/f.json"
}

# target DIR DIRECT LABEL: the interleaved runs and one line of the table.
target() {
	local c=() f=() i cm fm
	work=$(mktemp -d "$1/clyde-ranbench.XXXXXX")
	works+=("$work")
	for ((i = 1; i <= runs; i++)); do
		printf '\r  %s: run %d/%d' "$3" "$i" "$runs" >&2
		c+=("$(clyde_iops "$work" "$2")")
		f+=("$(fio_iops "$work" "$2")")
	done
	echo >&2
	# Every run's figures, for the spread the medians hide.
	printf '    %s: clyde' "$3" >&2
	printf ' %.0f' "${c[@]}" >&2
	printf '; fio' >&2
	printf ' %.0f' "${f[@]}" >&2
	echo >&2
	read -r cm _ < <(median 0 "${c[@]}")
	read -r fm _ < <(median 0 "${f[@]}")
	printf '  %-28s %10s %12s %11s\n' "$3" "$cm" "$fm" "$(ratio "$cm" "$cm" "$fm" "$fm")"
	rm -rf -- "$work"
}

runs_begin
signal_eol=1
if [[ -n $mix ]]; then
	echo "ran_mix against fio randrw (io_uring), ${mix}% reads, $dist, depth $depth, $bs blocks, $size, ${secs} s, median of $runs"
else
	echo "ran_read against fio randread (io_uring), depth $depth, $bs blocks, $size, ${secs} s, median of $runs"
fi
printf '  %-28s %10s %12s %11s\n' target "clyde IOPS" "fio IOPS" clyde/fio
target "$disk" 1 "$disk ($(stat -f -c %T "$disk")), -D"
[[ $tmpfs == - ]] || target "$tmpfs" 0 "$tmpfs ($(stat -f -c %T "$tmpfs")), buffered"
runs_end
printf '  load average: %s before, %s after\n' "$load1" "$load2"
changed_note
