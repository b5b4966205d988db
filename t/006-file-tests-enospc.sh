#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A full filesystem during file creation: one line naming the phase and
# "No space left on device", exit 1, and every file and directory of the
# run removed. A -n that cannot fit is refused before the first test
# (t/034), so the filesystem fills up while the run is under way, as it
# does when another program writes. Root only: a loop-mounted 64 MiB
# ext4 image of its own.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

need_root "loop device and mount" losetup mkfs.ext4 mount umount
loop_ext4 64M

# run_filled ARGS...: start a file-test run, stop it as soon as it
# creates files (the space check before the first test has passed by
# then), fill the filesystem as another writer would, and let it go on.
# -b makes every create wait for fsync, so the run is still creating.
# The last run's err goes first: the shell empties it only once the
# child runs, and its progress line must not be taken for this run's.
run_filled() {
	rm -f "$WORK/err"
	"$CLYDE" -d "$MNT" -s 0 -r 0 -b "$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 400 "$*: creation never started" \
		in_file 'Create files in sequential order' "$WORK/err"
	kill -STOP $pid
	dd if=/dev/zero of="$MNT/filler" bs=1M status=none 2>/dev/null
	kill -CONT $pid
	wait $pid
	got=$?
	rm -f "$MNT/filler"
	# ext4 frees the filler's blocks when its journal commits: wait for
	# the room to show, or the next run is refused by the space check.
	sync
	i=0
	while [ "$(df -Pk "$MNT" | awk 'NR == 2 { print $4 }')" -lt 40000 ]; do
		i=$((i + 1))
		[ $i -lt 200 ] || fail "the filler's space never came back: $(df -Pk "$MNT")"
		sleep 0.05
	done
}

# 1024 files of 32 KiB: room for them at the check, none once filled.
run_filled -n 1:32k:32k
[ "$got" = 1 ] || fail "exit $got, expected 1: $(cat "$WORK/err")"
[ "$(grep -c '^clyde: ' "$WORK/err")" = 1 ] || fail "not one error line: $(cat "$WORK/err")"
grep -Eq "^clyde: sequential create: (write|create) $MNT/clyde\.[A-Za-z0-9]*/files/[0-9a-f]{10}[A-Za-z0-9]*: No space left on device$" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
left=$(ls -A "$MNT")
[ "$left" = lost+found ] || fail "left behind on the filesystem: $left"

# The same with the files spread over subdirectories.
run_filled -n 1:32k:32k:3
[ "$got" = 1 ] || fail "dirs: exit $got, expected 1: $(cat "$WORK/err")"
grep -Eq "^clyde: sequential create: (write|create) .*/files/0000[0-2]/.*: No space left on device$" "$WORK/err" ||
	fail "dirs message: $(cat "$WORK/err")"
[ "$(ls -A "$MNT")" = lost+found ] || fail "dirs: left behind: $(ls -A "$MNT")"
exit 0
