#!/bin/sh
# A full filesystem during file creation: one line naming the phase and
# "No space left on device", exit 1, and every file and directory of the
# run removed. Root only: a loop-mounted 64 MiB ext4 image of its own.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (loop device and mount)"
for tool in losetup mkfs.ext4 mount umount; do
	command -v $tool >/dev/null 2>&1 || skip "$tool not installed"
done

IMG="$WORK/fs.img"
MNT="$WORK/mnt"
mkdir "$MNT"
truncate -s 64M "$IMG"
mkfs.ext4 -q -F "$IMG" || fail "mkfs.ext4"
LOOP=$(losetup -f --show "$IMG") || skip "no free loop device"
at_exit losetup -d "$LOOP"
mount "$LOOP" "$MNT" || fail "mount $LOOP"
at_exit umount "$MNT"

# 1024 files of 128 KiB: twice what the filesystem holds.
"$CLYDE" -d "$MNT" -s 0 -r 0 -n 1:128k:128k >"$WORK/out" 2>"$WORK/err"
got=$?
[ "$got" = 1 ] || fail "exit $got, expected 1: $(cat "$WORK/err")"
[ "$(grep -c '^clyde: ' "$WORK/err")" = 1 ] || fail "not one error line: $(cat "$WORK/err")"
grep -q "^clyde: sequential create: write $MNT/clyde\.[A-Za-z0-9]*/files/[0-9a-f]\{10\}[A-Za-z0-9]*: No space left on device$" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
left=$(ls -A "$MNT")
[ "$left" = lost+found ] || fail "left behind on the filesystem: $left"

# The same with the files spread over subdirectories.
"$CLYDE" -d "$MNT" -s 0 -r 0 -n 1:96k:96k:3 >"$WORK/out" 2>"$WORK/err"
got=$?
[ "$got" = 1 ] || fail "dirs: exit $got, expected 1: $(cat "$WORK/err")"
grep -q "^clyde: sequential create: write .*/files/0000[0-2]/.*: No space left on device$" "$WORK/err" ||
	fail "dirs message: $(cat "$WORK/err")"
[ "$(ls -A "$MNT")" = lost+found ] || fail "dirs: left behind: $(ls -A "$MNT")"
exit 0
