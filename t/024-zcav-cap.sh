#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The ground truth for clyde-zcav: a loop device capped by a blkio
# cgroup at a known read rate and write rate. Read with O_DIRECT (the
# default on a device), and written with -w (O_DIRECT, fsync per block),
# every block must count (take over 0.5 s) and be within 3% of the cap.
# Root only; the loop device and the cgroup are undone on every exit.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}

[ "$(id -u)" = 0 ] || skip "needs root (loop device, cgroup)"
for tool in losetup truncate; do
	command -v $tool >/dev/null 2>&1 || skip "$tool not installed"
done

RMIBS=40 # MiB/s
WMIBS=30
# The image lives in RAM when it can (/dev/shm), so the device under the
# cap is always far faster than the cap, even with other disk traffic
# on the machine: the cap, not the disk, is then the speed to report.
IMG_DIR=$WORK
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	IMG_DIR=$(mktemp -d /dev/shm/clyde-t.XXXXXX) || IMG_DIR=$WORK
	[ "$IMG_DIR" = "$WORK" ] || at_exit rm -rf "$IMG_DIR"
fi
truncate -s 384M "$IMG_DIR/cap.img"
LOOP=$(losetup -f --show "$IMG_DIR/cap.img") || skip "no free loop device"
at_exit losetup -d "$LOOP"
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

# capped read|write ARGS...: clyde-zcav in the cgroup. The throttle lets
# a burst (about a tenth of a second's worth) through at the start of a
# stream; a short transfer the same way in the same cgroup first spends
# it, so the figures show the cap clyde-zcav must report, not the rig's
# start-up. (The device is ours: the write is to the test's own image.)
capped() {
	case $1 in
	read) prime="if=$LOOP of=/dev/null iflag=direct" ;;
	write) prime="if=/dev/zero of=$LOOP oflag=direct" ;;
	esac
	shift
	# shellcheck disable=SC2086
	sh -c 'echo $$ >"$1/cgroup.procs" && shift &&
		dd $1 bs=1M count=16 2>/dev/null && shift && exec "$@"' \
		sh "$CG" "$prime" "$ZCAV" "$@" >"$WORK/out" 2>"$WORK/err" ||
		fail "clyde-zcav $*: $(cat "$WORK/err")"
}

# within CAP: every counted block within 3%; at most one not counted.
within() {
	awk -v cap="$1" '
	/^[0-9]+\.[0-9][0-9] / {
		d = ($2 - cap) / cap * 100
		printf "  %s GiB: %s MiB/s (%+.2f%%)\n", $1, $2, d
		if (d > 3 || d < -3) bad++
		n++
		next
	}
	/^#[0-9]/ { fast++ }
	END { if (bad || n != 4 || fast) { print "  " bad " out of 3%, " n " counted"; exit 1 } }
	' "$WORK/out" >"$WORK/report" || fail "not within 3% of $1 MiB/s: $(cat "$WORK/report" "$WORK/out")"
	cat "$WORK/report" >&2
}

capped read -b 96:256k "$LOOP"
echo "read, O_DIRECT, capped at $RMIBS MiB/s:" >&2
within $RMIBS
capped write -b 96:256k -w --destroy-data="$LOOP" "$LOOP"
echo "write, O_DIRECT + fsync per block, capped at $WMIBS MiB/s:" >&2
within $WMIBS
exit 0
