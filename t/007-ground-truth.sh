#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The ground truth: a loop device on an image file, ext4 on it, and a
# blkio cgroup capping the loop device at known speeds. clyde must report
# those speeds: block output and input within 3% of the byte caps (one
# copy, and under -c 2 two copies at once whose aggregate shares the
# cap), seeks within 5% of a read-IOPS cap, with O_DIRECT and with the
# default buffered mode (cache evicted). Root only; everything it sets
# up is undone on every exit path.
#
# Other load on the machine must not move the figures: the image lives
# in RAM when there is room (the loop device then never waits for the
# machine's disk), every write to the device passes the cap (below),
# and a figure that misses is measured once more, the test failing only
# when it misses both times.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

need_root "loop device, mount, cgroup" losetup mkfs.ext4 mount umount truncate

# Caps: bytes/s for write and read, read operations/s.
WBPS=$((30 * 1048576))
RBPS=$((50 * 1048576))
RIOPS=250

# The rig (lib.sh): an ext4 on a loop device, its image in /dev/shm
# when there is room (about 900 MiB of it is ever written).
ext4_rig 1200

# The caps: cgroup v1 blkio throttling, else v2 io.max on a cgroup of
# our own. Under v1 the groups are flat, each capped by its own rules
# only, and the kernel's flusher and journal threads write from the root
# group: with the caps on a child group, the share of clyde's buffered
# writes that the flusher happened to write (a sync() elsewhere on the
# machine, dirty memory over the background threshold) went around the
# cap and the figure came out up to 5% fast. So under v1 the caps go on
# the root group, for this loop device only, clyde runs there, and every
# write to the device passes them, as with a real device; they are
# cleared on every exit path. (Under v2, writeback is charged to the
# cgroup whose memory controller accounts the dirty pages.)
if [ -w /sys/fs/cgroup/blkio/cgroup.procs ] &&
	[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
	CG=/sys/fs/cgroup/blkio
	at_exit caps 0 0 0
	caps() { # caps WBPS RBPS RIOPS (0 = none)
		echo "$DEV $1" >"$CG/blkio.throttle.write_bps_device"
		echo "$DEV $2" >"$CG/blkio.throttle.read_bps_device"
		echo "$DEV $3" >"$CG/blkio.throttle.read_iops_device"
	}
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	CG=/sys/fs/cgroup/clyde-t.$$
	echo +io >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir "$CG" || skip "cannot make a cgroup"
	at_exit rmdir "$CG"
	caps() {
		v() { [ "$1" = 0 ] && echo max || echo "$1"; }
		echo "$DEV wbps=$(v "$1") rbps=$(v "$2") riops=$(v "$3")" >"$CG/io.max"
	}
else
	skip "no blkio (v1) or io (v2) cgroup controller"
fi

# capped ARGS...: clyde inside the cgroup; the CSV line lands in $WORK/out.
capped() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
		"$CLYDE" -d "$MNT" -r 0 -q -n 0 -f "$@" >"$WORK/out" 2>"$WORK/err" ||
		fail "clyde $*: $(cat "$WORK/err")"
	[ "$(ls -A "$MNT")" = lost+found ] || fail "left behind: $(ls -A "$MNT")"
}

# within FIELD WANT PERCENT WHAT: CSV field (1-based) within PERCENT of
# WANT, or noted as missed (lib.sh: measure_again, judge_figures).
within() {
	got=$(cut -d, -f"$1" "$WORK/out")
	case $got in '' | *[!0-9.]*) fail "$4: no figure ('$got'): $(cat "$WORK/out")" ;; esac
	echo "$4: $got against $2 ($(awk -v g="$got" -v w="$2" 'BEGIN { printf "%+.2f%%", (g - w) / w * 100 }'))" >&2
	awk -v g="$got" -v w="$2" -v p="$3" 'BEGIN { d = (g - w) / w * 100; exit !(d <= p && d >= -p) }' ||
		missed_figure "$4" "$got" "$3" "$2"
}

# block MODE [COPIES]: block output and input under the byte caps; with
# COPIES (-c), that many copies of a file of 1/COPIES the size at once,
# sharing the one device's cap: their aggregate must still be the cap.
block() {
	b_c=${2:-1}
	b_what="${1:-buffered}$([ "$b_c" = 1 ] || echo " -c $b_c")"
	# shellcheck disable=SC2086
	capped -s $((320 / b_c))m:1m -c "$b_c" --only=put_block,get_block $1
	within 12 $((WBPS / 1024)) 3 "block output $b_what, KiB/s"
	within 18 $((RBPS / 1024)) 3 "block input $b_what, KiB/s"
}

seeks() { # seeks MODE: random seeks under the IOPS cap
	# shellcheck disable=SC2086
	capped -s 512m:4k:2500:5 --only=seeks $1
	within 20 "$RIOPS" 5 "seeks ${1:-buffered}, /s"
}

caps $WBPS $RBPS 0
for mode in -D ""; do
	for copies in 1 2; do
		block "$mode" $copies
		while measure_again; do block "$mode" $copies; done
		judge_figures
	done
done

caps 0 0 $RIOPS
for mode in -D ""; do
	seeks "$mode"
	while measure_again; do seeks "$mode"; done
	judge_figures
done
caps 0 0 0
exit 0
