#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The ground truth for clyde-zcav: a loop device capped by a blkio
# cgroup at a known read rate and write rate. Read with O_DIRECT (the
# default on a device), and written with -w (O_DIRECT, fsync per block),
# every block must count (take over 0.5 s) and be within 3% of the cap;
# a block that misses is measured once more (the whole pass again), and
# the test fails when the same block misses both times (lib.sh:
# judge_figures).
# Root only; the loop device and the cgroup are undone on every exit.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}

need_root "loop device, cgroup" losetup truncate

# Four blocks of 64 MiB, 6.4 s each at the caps. The throttle meters in
# slices of 0.1 s and a stream may run up to a slice ahead, so a block's
# time is exact to about a slice: 1.6% of 6.4 s. (With 2.4 s blocks, 96
# MiB at 40 MiB/s, it was 4%, and under load the first block missed.)
# 1 MiB a transfer: ten a second, each with a slice to be issued in, so
# a busy CPU does not hold the stream below the cap.
RMIBS=10 # MiB/s
WMIBS=10
# The image lives in RAM when it can (/dev/shm), so the device under the
# cap is always far faster than the cap, even with other disk traffic
# on the machine: the cap, not the disk, is then the speed to report.
IMG_DIR=$WORK
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	IMG_DIR=$(mktemp -d /dev/shm/clyde-t.XXXXXX) || IMG_DIR=$WORK
	[ "$IMG_DIR" = "$WORK" ] || at_exit rm -rf "$IMG_DIR"
fi
truncate -s 256M "$IMG_DIR/cap.img"
loop_attach LOOP "$IMG_DIR/cap.img"
DEV=$(cat "/sys/class/block/${LOOP#/dev/}/dev")

# A cgroup of our own: cgroup v1 blkio throttling, else v2 io.max.
if [ -w /sys/fs/cgroup/blkio/cgroup.procs ] &&
	[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
	CG=/sys/fs/cgroup/blkio/clyde-zcav-t.$$
	mkdir "$CG" || skip "cannot make a blkio cgroup"
	at_exit rmdir "$CG"
	echo "$DEV $((RMIBS * 1048576))" >"$CG/blkio.throttle.read_bps_device"
	echo "$DEV $((WMIBS * 1048576))" >"$CG/blkio.throttle.write_bps_device"
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	CG=/sys/fs/cgroup/clyde-zcav-t.$$
	echo +io >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir "$CG" || skip "cannot make a cgroup"
	at_exit rmdir "$CG"
	echo "$DEV rbps=$((RMIBS * 1048576)) wbps=$((WMIBS * 1048576))" >"$CG/io.max"
else
	skip "no blkio (v1) or io (v2) cgroup controller"
fi

# capped ARGS...: clyde-zcav in the cgroup, after a pause that lets the
# throttle's slice from an earlier transfer end: a stream then starts
# with at most one slice ahead. (A transfer just before, as a primer,
# left the slice open, and its time to start became credit: first
# blocks 3 to 4% fast under load.) The device is the test's own image.
capped() {
	sleep 0.3
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		sh "$CG" "$ZCAV" "$@" >"$WORK/out" 2>"$WORK/err" ||
		fail "clyde-zcav $*: $(cat "$WORK/err")"
}

# within WHAT CAP: every block counted (four, none too fast to count)
# and each within 3% of CAP, or noted as missed.
within() {
	awk -v cap="$2" -v off="$WORK/off" '
	/^[0-9]+\.[0-9][0-9] / {
		d = ($2 - cap) / cap * 100
		printf "  %s GiB: %s MiB/s (%+.2f%%)\n", $1, $2, d
		if (d > 3 || d < -3)
			print $1, $2 >off
		n++
		next
	}
	/^#[0-9]/ { fast++ }
	END { if (n != 4 || fast) { print "  " n + 0 " counted, " fast + 0 " too fast to count"; exit 1 } }
	' "$WORK/out" >"$WORK/report" || fail "$1: four counted blocks expected: $(cat "$WORK/report" "$WORK/out")"
	cat "$WORK/report" >&2
	if [ -e "$WORK/off" ]; then
		while read -r at got; do
			missed_figure "$1 at $at GiB, MiB/s" "$got" 3 "$2"
		done <"$WORK/off"
		rm -f "$WORK/off"
	fi
}

pass() { # pass read|write: the device end to end, judged
	case $1 in
	read)
		capped -b 64:1m "$LOOP"
		echo "read, O_DIRECT, capped at $RMIBS MiB/s:" >&2
		within read $RMIBS
		;;
	write)
		capped -b 64:1m -w --destroy-data="$LOOP" "$LOOP"
		echo "write, O_DIRECT + fsync per block, capped at $WMIBS MiB/s:" >&2
		within write $WMIBS
		;;
	esac
}

for dir in read write; do
	pass $dir
	while measure_again; do pass $dir; done
	judge_figures
done
exit 0
