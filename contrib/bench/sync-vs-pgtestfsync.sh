#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde's sync_write figure next to PostgreSQL's pg_test_fsync, which
# measures the same thing for choosing wal_sync_method: for each method,
# pg_test_fsync's "one 8kB write" ops/sec and clyde's sync_write ops/s
# (8 KiB, the same number of seconds), on the same filesystem, median of
# -r interleaved runs each, and their ratio. pg_test_fsync opens its
# open_datasync and open_sync files O_DIRECT, so clyde's dsync and sync
# run with -D; fdatasync and fsync are buffered in both.
#
#   pg_test_fsync   clyde
#   open_datasync   --sync-method=dsync -D
#   fdatasync       --sync-method=fdatasync
#   fsync           --sync-method=fsync
#   open_sync       --sync-method=sync -D
#
# With -L (root) it measures a loop-mounted ext4 too: an image of 1 GiB
# in -d, losetup, mkfs.ext4, a mount in the work directory, all undone
# on every way out.
#
# A benchmark, not a test: it prints figures and never fails on them.
#
# The calls are the same: strace of both shows the file made with a
# 16 MiB write and fsync, then opened O_RDWR (fdatasync, fsync),
# O_RDWR|O_DSYNC|O_DIRECT or O_RDWR|O_SYNC|O_DIRECT, and 8192-byte
# pwrite()s at offset 0, each followed by the method's sync call.
#
# Measured on the 2-core VM (virtio disk, ext4 mounted with discard on
# /dev/vda, kernel 6.18, PostgreSQL 15.20), the machine quiet (load 0.9
# before, 1.5 after), with
# bash contrib/bench/sync-vs-pgtestfsync.sh -L -r 5 -s 1
# (ops/s, medians of 5 interleaved runs):
#
#   target          method      pg_test_fsync    clyde   clyde/pg
#   /var/tmp        dsync                7074     6700       0.95
#   /var/tmp        fdatasync            7077     7127       1.01
#   /var/tmp        fsync                7308     7067       0.97
#   /var/tmp        sync                 7294     7174       0.98
#   loop ext4       dsync                3879     3796       0.98
#   loop ext4       fdatasync            3886     3610       0.93
#   loop ext4       fsync                3541     3713       1.05
#   loop ext4       sync                 3595     3589       1.00
#
# Every method is within 10% on both. Single runs on the disk spread
# from about 5000 to 8500 ops/s for both programs alike; the loop ext4's
# within about 15%. Before clyde dropped its file's clean pages after
# making it (a 16 MiB write leaves them in large folios, and an 8 KiB
# write into one dirtied it whole), its fdatasync and fsync read 9% to
# 13% under pg_test_fsync's on the disk; pg_test_fsync's O_DIRECT test
# drops those pages before its fdatasync test. With other benchmarks on
# the same disk (load 5 to 8) single runs spread from a few hundred to
# 6000 ops/s: measure on a quiet machine. The per-run figures go to
# stderr.
#
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat >&2 <<EOF
usage: $prog [-d DIR] [-r RUNS] [-s SECONDS] [-L] [-C CLYDE] [-P PG_TEST_FSYNC]

  -d DIR    the filesystem to measure (default /var/tmp)
  -r RUNS   interleaved runs of each, the median shown (default 5)
  -s SECS   seconds per method and run, both programs (default 1)
  -L        also a loop-mounted ext4 made in DIR (root)
  -C CLYDE  the clyde binary (default: this tree's src/clyde/clyde)
  -P PATH   pg_test_fsync (default: PATH, then PostgreSQL 15's)
EOF
}

dir=/var/tmp runs=5 secs=1 loop= clyde= pg=
while getopts d:r:s:LC:P:h opt; do
	case $opt in
	d) dir=$OPTARG ;;
	r) runs=$OPTARG ;;
	s) secs=$OPTARG ;;
	L) loop=1 ;;
	C) clyde=$OPTARG ;;
	P) pg=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"
writable_dir "$dir"
whole_in -r "$runs" 1 99
whole_in -s "$secs" 1 60
find_clyde
if [[ -z $pg ]]; then
	pg=$(command -v pg_test_fsync || true)
	[[ -n $pg ]] || pg=/usr/lib/postgresql/15/bin/pg_test_fsync
fi
[[ -x $pg ]] || die_usage "-P '$pg': pg_test_fsync not found (apt-get install postgresql)"
command -v jq >/dev/null || die_usage "needs jq (apt-get install jq)"
if [[ -n $loop ]]; then
	((EUID == 0)) || die_usage "-L needs root (losetup, mount)"
	for t in losetup mkfs.ext4 mount umount; do
		command -v "$t" >/dev/null || die_usage "-L needs $t"
	done
fi

methods=(dsync fdatasync fsync sync)
declare -A pgname=([dsync]=open_datasync [fdatasync]=fdatasync
	[fsync]=fsync [sync]=open_sync)
declare -A direct=([dsync]=-D [fdatasync]= [fsync]= [sync]=-D)

work=$(mktemp -d "$dir/clyde-syncbench.XXXXXX")
loopdev= mnt=
cleanup() {
	stop_child
	if [[ -n $mnt ]]; then
		umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true
		mnt=
	fi
	if [[ -n $loopdev ]]; then
		losetup -d "$loopdev" 2>/dev/null || true
		loopdev=
	fi
	remove_work
}
trap_cleanup

# settle: before every measurement, what the one before left to the
# filesystem done first: its file's blocks freed and, on a filesystem
# mounted with discard, discarded (clyde removes its 16 MiB file after
# each method, pg_test_fsync its own after all of them).
settle() {
	sync
	sleep 1
}

# pg_run DIR: one pg_test_fsync run; its "one 8kB write" figures into
# pgops[method].
pg_run() {
	settle
	run_or_die "pg_test_fsync failed" "$pg" -f "$1/pg_test_fsync.out" -s "$secs"
	local m v
	for m in "${methods[@]}"; do
		v=$(awk -v name="${pgname[$m]}" '
			/one 8kB write/ { in1 = 1; next }
			in1 && /^$/ { exit }
			in1 && $1 == name && $3 == "ops/sec" { print $2; exit }' "$work/out")
		[[ -n $v ]] || die "pg_test_fsync printed no $m figure: $(head -c 400 "$work/out")"
		pgops[$m]=$v
	done
}

# clyde_run DIR METHOD: clyde's sync_write ops/s.
clyde_run() {
	settle
	# shellcheck disable=SC2086
	run_or_die "clyde failed" "$clyde" -d "$1" -s 1m -r 0 -q \
		--only=sync_write --sync-method="$2" ${direct[$2]} \
		--sync-ops=100000000 --sync-time="$secs" --json="$work/c.json"
	jq -r '.runs[0].tests.sync_write.rate' "$work/c.json"
}

med() {
	printf '%s\n' "$@" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%d\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure LABEL DIR: the table's rows for one filesystem.
measure() {
	local label=$1 d=$2 i m
	declare -A pgv=() clv=()
	declare -gA pgops=()
	for ((i = 1; i <= runs; i++)); do
		printf '  %s: run %d/%d\r' "$label" "$i" "$runs" >&2
		signal_eol=1
		pg_run "$d"
		for m in "${methods[@]}"; do
			pgv[$m]+=" ${pgops[$m]}"
			clv[$m]+=" $(clyde_run "$d" "$m")"
		done
	done
	echo >&2
	for m in "${methods[@]}"; do
		# Every run's figures, for the spread the medians hide.
		printf '    %s %s: pg_test_fsync%s; clyde' "$label" "$m" "${pgv[$m]}" >&2
		printf ' %.0f' ${clv[$m]} >&2
		echo >&2
	done
	signal_eol=
	for m in "${methods[@]}"; do
		# shellcheck disable=SC2086
		a=$(med ${pgv[$m]}) b=$(med ${clv[$m]})
		printf '%-14s  %-10s %14s %8s %10s\n' "$label" "$m" "$a" "$b" \
			"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')"
	done
}

runs_begin
echo "sync_write (clyde) vs pg_test_fsync's one 8kB write, ${secs}s each, median of $runs (ops/s)"
printf '%-14s  %-10s %14s %8s %10s\n' target method pg_test_fsync clyde clyde/pg
measure "$dir" "$work"
if [[ -n $loop ]]; then
	truncate -s 1g "$work/ext4.img"
	loopdev=$(losetup -f --show "$work/ext4.img")
	mkfs.ext4 -q -F "$loopdev" >/dev/null
	mkdir "$work/mnt"
	mount "$loopdev" "$work/mnt"
	mnt=$work/mnt
	measure "loop ext4" "$mnt"
fi
runs_end
echo "load $load1 before, $load2 after; $(uname -r); pg: $("$pg" -V)"
changed_note
