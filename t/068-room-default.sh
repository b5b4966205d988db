#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The room check of a run with no -n counts the file tests clyde sizes
# (at most a quarter of the free inodes and a 64th of the free bytes, in
# units of 1024 files, with no floor), never bonnie++'s -n 16 that was
# not given; a target too short of inodes for even 1024 files skips them
# with a note; a read-only and a full file system are named as such
# before any sum. Root only: 64 MiB ext4 images on loop devices (and a
# 640 MiB one for a run with no -s), all undone at exit.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

need_root "loop devices and mounts" losetup mkfs.ext4 mount umount dd
# Short sized tests, and -f where the runs go on: the per-char tests, a
# system call a byte, take half a minute over 16M.
CLYDE_AUTO_SECONDS=0.3
export CLYDE_AUTO_SECONDS

# The images in /dev/shm when it has room (1 GiB), else in $WORK.
IMG_DIR=$WORK
if [ -d /dev/shm ] && [ -w /dev/shm ] &&
	[ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt 1048576 ]; then
	IMG_DIR=$(mktemp -d /dev/shm/clyde-t.XXXXXX) || IMG_DIR=$WORK
	[ "$IMG_DIR" = "$WORK" ] || at_exit rm -rf "$IMG_DIR"
fi

# ext4 NAME SIZE MOUNT-OPTIONS [MKFS-OPTION...]: an ext4 of SIZE on a
# loop device of its own, mounted at $WORK/NAME; undone at exit.
ext4() {
	e_name=$1 e_size=$2 e_mopt=$3
	shift 3
	truncate -s "$e_size" "$IMG_DIR/$e_name.img"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$@" \
		"$IMG_DIR/$e_name.img" || fail "mkfs.ext4 $e_name"
	loop_attach e_loop "$IMG_DIR/$e_name.img"
	mkdir "$WORK/$e_name"
	mount -o "$e_mopt" "$e_loop" "$WORK/$e_name" || fail "mount $e_name"
	at_exit umount_wait "$WORK/$e_name"
}

# field N: CSV field N of the run's last line.
field() {
	tail -n 1 "$WORK/out" | cut -d, -f"$1"
}

# no_n16 WHAT: stderr quotes no -n the user did not give.
no_n16() {
	grep -q -- '-n 16' "$WORK/err" && fail "$1: -n 16 quoted: $(cat "$WORK/err")"
	:
}

# Few inodes (7989 free): the sized file tests are -n 1 and run.
ext4 ino 64M rw -N 8000
INO="$WORK/ino"
expect_status 0 "$CLYDE" -d "$INO" -s 16m -r 0 -q -f
no_n16 "few inodes"
[ "$(field 22)" = 1 ] || fail "few inodes: num_files $(field 22), not 1: $(cat "$WORK/out")"
grep -qx 'clyde: sized for this target: seeks for 0.3 s, -n from 0.3 s of creates, stat passes for 0.3 s' "$WORK/err" ||
	fail "few inodes: sized line: $(cat "$WORK/err")"
[ "$(ls -A "$INO")" = lost+found ] || fail "few inodes: left behind: $(ls -A "$INO")"
# With no -s either, what stops the run is the data size (256M at
# least, t/033) on this 64 MiB file system, and the line says that.
expect_refused '^clyde: no -s given, and the smallest data size clyde chooses, 256M, does not fit: ' \
	"$CLYDE" -d "$INO" -q
grep -q -- '-n\|inode' "$WORK/err" && fail "few inodes, no -s: $(cat "$WORK/err")"
# A data file too large beside the sized file tests: what clyde chose,
# never a -n that was not given.
expect_refused "^clyde: -s 60M, no -n given: the data file, the file tests clyde sized (at most -n 1, 1024 files) and sync_write's file need 60M, [0-9]*K and 16M, only [0-9]*M free in '$INO'$" \
	"$CLYDE" -d "$INO" -s 60m -r 0 -q
# Under 4096 free inodes: not even -n 1 by the quarter rule, so the
# file tests are skipped, with a note, and the rest runs.
mkdir "$INO/fill"
(cd "$INO/fill" && seq 4000 | xargs touch) || fail "few inodes: fill"
expect_status 0 "$CLYDE" -d "$INO" -s 16m -r 0 -q -f
no_n16 "fewer inodes"
grep -Eqx "clyde: note: file tests skipped: a quarter of the [0-9]+ free inodes in '$INO' is under 1024 files; give -n 1 to run them anyway" "$WORK/err" ||
	fail "fewer inodes: no note: $(cat "$WORK/err")"
[ -z "$(field 22)" ] && [ "$(field 6)" = 16M ] || fail "fewer inodes: CSV $(tail -n 1 "$WORK/out")"
# --only naming a file test asks for them: -n 1, which fits.
expect_status 0 "$CLYDE" -d "$INO" -s 0 -r 0 -q --only=seq_create
[ "$(field 22)" = 1 ] || fail "fewer inodes, --only: $(cat "$WORK/out") $(cat "$WORK/err")"
rm -rf "$INO/fill"
[ "$(ls -A "$INO")" = lost+found ] || fail "fewer inodes: left behind: $(ls -A "$INO")"

# Read-only: named first, whatever the options.
ext4 ro 64M ro
expect_refused "^clyde: -d '$WORK/ro': Read-only file system$" "$CLYDE" -d "$WORK/ro" -q
expect_refused "^clyde: -d '$WORK/ro': Read-only file system$" "$CLYDE" -d "$WORK/ro" -s 16m -r 0 -q -n 1

# Full (-m 0: no blocks kept for root): named as full, with no sum.
# Big writes until ENOSPC, then small ones for what ext4 held back for
# delayed allocation, until no block is free.
ext4 full 64M rw -m 0
dd if=/dev/zero of="$WORK/full/filler" bs=1M status=none 2>/dev/null
for i in 1 2 3; do
	dd if=/dev/zero of="$WORK/full/filler$i" bs=1k status=none 2>/dev/null
	sync
	[ "$(stat -f -c %a "$WORK/full")" = 0 ] && break
done
[ "$(stat -f -c %a "$WORK/full")" = 0 ] || fail "full: $(stat -f -c %a "$WORK/full") blocks still free"
expect_refused "^clyde: -d '$WORK/full': the filesystem is full (no space left on device)$" \
	"$CLYDE" -d "$WORK/full" -q
expect_refused "^clyde: -d '$WORK/full': the filesystem is full (no space left on device)$" \
	"$CLYDE" -d "$WORK/full" -s 16m -r 0 -q

# No -s and no -n on a file system with few inodes but room for the
# smallest data size: the whole default run (-f: no per-char tests, for
# time) runs, 256M and -n 1.
ext4 big 640M rw -N 8000
expect_status 0 "$CLYDE" -d "$WORK/big" -q -f
no_n16 "few inodes, 640 MiB"
[ "$(field 6),$(field 22)" = 256M,1 ] ||
	fail "few inodes, 640 MiB: size, num_files $(field 6),$(field 22): $(cat "$WORK/err")"
grep -q '^clyde: sized for this target (.*): data 256M.*, -n from 0.3 s of creates, ' "$WORK/err" ||
	fail "few inodes, 640 MiB: sized line: $(cat "$WORK/err")"
[ "$(ls -A "$WORK/big")" = lost+found ] || fail "640 MiB: left behind: $(ls -A "$WORK/big")"
exit 0
