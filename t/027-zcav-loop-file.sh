#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A file behind a loop device is in use like a mounted device (root,
# a loop device of our own): clyde-zcav -w refuses it even with --force,
# under its own name or a hard link, while the loop device is mounted and
# while it is only attached, and leaves it as it was; once detached, the
# file can be written. clyde-sweep takes no file target at all.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
PATH=$PATH:/sbin:/usr/sbin

need_root "loop devices, mount" losetup mkfs.ext4 mount umount truncate e2fsck

IMG="$WORK/fs.img"
truncate -s 64M "$IMG"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -L data "$IMG" ||
	fail "mkfs.ext4 $IMG"
L=$(losetup -f --show "$IMG") || skip "no free loop device"
# Detached at exit only while still ours: the number may be reused.
ATTACHED=$L
at_exit 'if [ -n "$ATTACHED" ]; then losetup -d "$ATTACHED"; fi'
ln "$IMG" "$WORK/hard.img"

# refused PATTERN CMD...: exit 2, one line matching, image unchanged.
refused() {
	refused_unchanged "$IMG" "$@"
}

# Mounted (read-only, so the filesystem cannot change the image itself).
mkdir "$WORK/mnt"
mount -o ro "$L" "$WORK/mnt" || fail "mount $L"
MOUNTED=$WORK/mnt
at_exit 'if [ -n "$MOUNTED" ]; then umount "$MOUNTED"; fi'
refused "$IMG: backs $L, mounted ($L on $WORK/mnt); nothing written" \
	"$ZCAV" -w -b 8 --force --destroy-data="$IMG" "$IMG"
refused "hard.img: backs $L, mounted" \
	"$ZCAV" -w -b 8 --force --destroy-data="$WORK/hard.img" "$WORK/hard.img"
refused "not a directory or block device" \
	"$SWEEP" -s 16m -B 1m --force --destroy-data="$IMG" "$IMG"
umount "$WORK/mnt" || fail "umount"
# Another test's clyde-sweep may have copied that mount into its own
# namespace meanwhile; it lets go when that run ends (see rig/held.c).
"$HELD" "$L" 300 || fail "$L still held 300 s after its umount"
MOUNTED=
e2fsck -fn "$IMG" >"$WORK/fsck" 2>&1 || fail "e2fsck after the refusals: $(cat "$WORK/fsck")"

# Attached, not mounted: still in use.
refused "$IMG: backs $L (losetup -d $L first); nothing written" \
	"$ZCAV" -w -b 8 --force --destroy-data="$IMG" "$IMG"
# Reading it is fine.
expect_status 0 "$ZCAV" -b 8 "$IMG"
grep -q '^# Read 64 megs' "$WORK/out" || fail "reading $IMG: $(cat "$WORK/out")"

# Detached: written with --force.
losetup -d "$L" || fail "losetup -d $L"
ATTACHED=
expect_status 0 "$ZCAV" -w -b 8 --force --destroy-data="$IMG" "$IMG"
grep -q '^# Wrote 64 megs' "$WORK/out" || fail "-w after losetup -d: $(cat "$WORK/out")"
exit 0
