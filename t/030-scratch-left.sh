#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A scratch directory that cannot be removed is named, with the path and
# the reason, and never called removed; the exit status is 1, after a
# signal too. Made real with the immutable attribute (chattr +i) on an
# ext4 image of its own. Root only.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

need_root "loop device, mount, chattr" losetup mkfs.ext4 mount umount chattr
loop_ext4 128M
# Whatever happens, nothing immutable stays (run before the umount).
at_exit chattr -R -i "$MNT"

# start: a run long enough to be caught during block output (-b waits
# for fsync after every write); S is its scratch directory.
start() {
	start_writing 400 "$MNT" -s 16m -r 0 -f -n 0 -b
	S=$(echo "$MNT"/clyde.*)
	[ -d "$S" ] || { kill -9 $pid; fail "no scratch directory in $MNT"; }
}

# 1. SIGINT, with the scratch directory made immutable: its data file
# cannot be unlinked.
start
chattr +i "$S" || { kill -9 $pid; skip "chattr +i refused on ext4"; }
kill -INT $pid
wait $pid
got=$?
[ "$got" = 1 ] || fail "SIGINT: exit $got, expected 1: $(cat "$WORK/err")"
grep -q "^clyde: interrupted by signal 2; could not remove the scratch directory '$S': unlink data: Operation not permitted$" "$WORK/err" ||
	fail "SIGINT message: $(cat "$WORK/err")"
grep -q 'scratch files removed' "$WORK/err" &&
	fail "SIGINT: claims the files were removed: $(cat "$WORK/err")"
[ -e "$S/data" ] || fail "SIGINT: the data file is gone, so nothing was left"
chattr -i "$S"
rm -rf "$S"

# 2. A run that ends normally, with an immutable file put in its
# directory by someone else: the run's results stand, the exit is 1.
start
: >"$S/stuck"
chattr +i "$S/stuck"
wait $pid
got=$?
[ "$got" = 1 ] || fail "end: exit $got, expected 1: $(cat "$WORK/err")"
grep -q '^1\.98,' "$WORK/out" || fail "end: no CSV line: $(cat "$WORK/out")"
[ "$(grep -c '^clyde: could not remove' "$WORK/err")" = 1 ] || fail "end: $(cat "$WORK/err")"
grep -q "^clyde: could not remove the scratch directory '$S': unlink stuck: Operation not permitted$" "$WORK/err" ||
	fail "end message: $(cat "$WORK/err")"
# Everything else went.
[ "$(ls -A "$S")" = stuck ] || fail "end: left in $S: $(ls -A "$S")"
chattr -i "$S/stuck"
rm -rf "$S"
[ "$(ls -A "$MNT")" = lost+found ] || fail "left on the filesystem: $(ls -A "$MNT")"
exit 0
