#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --steady on a device of plainly known speed, as root: a loop device
# with ext4 on it under a blkio cap of 1000 writes a second, clyde in a
# cgroup of its own, -D. Such a device is steady from the start: ran_write
# at 4k in rounds of 1 s is steady after the first window (5 rounds),
# and its figure is within 3% of the cap.
# A figure that misses is measured once more (lib.sh's measure_again).
# Everything set up is undone on every exit path.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
need_root "loop device, mount, cgroup" losetup mkfs.ext4 mount umount truncate
need_blkio_iops
ext4_rig 100
iops_cgroup

steady() {
	in_cgroup \
		"$CLYDE" -d "$MNT" -r 0 -q -n 0 -f -D -s 32m --only=ran_write \
		--steady --round=1 --steady-max=20 \
		--json="$WORK/c.json" >/dev/null 2>"$WORK/err" ||
		fail "clyde: $(cat "$WORK/err")"
	[ "$(ls -A "$MNT")" = lost+found ] || fail "left behind: $(ls -A "$MNT")"
	s=.runs[0].tests.ran_write
	rounds=$(jq "$s.steady | if .steady then .rounds | length else 0 end" "$WORK/c.json")
	echo "steady after $rounds rounds" >&2
	[ "$rounds" = 5 ] ||
		missed_figure "rounds to steady" "$rounds (0: never)" 0 5
	near "steady ran_write" "$(jq "$s.rate" "$WORK/c.json")" 1000 3
}
caps 0 1000
steady
while measure_again; do
	steady
done
judge_figures
exit 0
