#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Messages that say what actually happened: the failing call and file
# (no file for a pipe), the step that failed (preparing the data file,
# not "block output"), the size clyde chose when the user gave none, and
# every value echoed on one line. An I/O error at the -D probe is a run
# failure (exit 1), not a usage error.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"

# --only without block output: the data file is written first, and a
# failure there says so.
( ulimit -f 8192 && exec "$CLYDE" -d "$D" -s 16m -r 0 -n 0 --only=get_block ) \
	>"$WORK/out" 2>"$WORK/err"
got=$?
[ "$got" = 1 ] || fail "prepare: exit $got: $(cat "$WORK/err")"
grep -q "^clyde: preparing the data file for block input: write $D/clyde\.[A-Za-z0-9]*/data: File too large$" "$WORK/err" ||
	fail "prepare message: $(cat "$WORK/err")"
grep -q 'block output' "$WORK/err" && fail "prepare: blamed block output: $(cat "$WORK/err")"
assert_empty "$D"

# Out of descriptors at the seekers' pipe: the call, and no file (the
# data file has nothing to do with it). Descriptors this shell holds
# above 2 are closed so the limit bites at the pipe: 3 is the scratch
# directory, 4 the data file or the pipe's first end.
( ulimit -n 5 && exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &&
	exec "$CLYDE" -d "$D" -s 16m::8192 -r 0 -n 0 --only=seeks ) >"$WORK/out" 2>"$WORK/err"
got=$?
[ "$got" = 1 ] || fail "ulimit -n: exit $got: $(cat "$WORK/err")"
grep -q '^clyde: random seeks: pipe: Too many open files$' "$WORK/err" ||
	fail "ulimit -n message: $(cat "$WORK/err")"
assert_empty "$D"

# A value holding a line break is echoed on one line.
expect_status 2 "$CLYDE" -d "$D" -s 0 -n 0 -m "$(printf 'a\nb')"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "-m newline: not one line: $(cat "$WORK/err")"
grep -q "^clyde: -m 'a\\\\nb': " "$WORK/err" || fail "-m newline: $(cat "$WORK/err")"
NL="$WORK/$(printf 'x\ny')"
mkdir "$NL"
expect_status 2 "$CLYDE" -d "$NL" -s 16t -r 0 -n 0
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "-d newline: not one line: $(cat "$WORK/err")"
grep -q "^clyde: -s 16384G: the data file and sync_write's file need 16384G and 16M, only .* free in '$WORK/x\\\\ny'$" "$WORK/err" ||
	fail "-d newline: $(cat "$WORK/err")"
expect_status 2 "$CLYDE" -d "$(printf '%s/no\nsuch' "$WORK")" -s 0 -n 0
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "missing -d newline: not one line: $(cat "$WORK/err")"
# ... and so is a run's error under such a directory.
( ulimit -f 1024 && exec "$CLYDE" -d "$NL" -s 4m -r 0 -n 0 -f -q ) >"$WORK/out" 2>"$WORK/err"
[ $? = 1 ] || fail "run error: exit status: $(cat "$WORK/err")"
grep -v '^clyde: ' "$WORK/err" && fail "run error: a line broken in two"
grep -q "^clyde: block output: write $WORK/x\\\\ny/clyde\..*/data: File too large$" "$WORK/err" ||
	fail "run error message: $(cat "$WORK/err")"
assert_empty "$NL"

[ "$(id -u)" = 0 ] || { echo "note: not root; the small-filesystem and -D probe cases not run" >&2; exit 0; }

# No -s on a filesystem with less than 256 MiB free: the message says
# that clyde chose the size, why it does not fit and what to give.
SMALL="$WORK/small"
mkdir "$SMALL"
mount -t tmpfs -o size=100m clyde-t-small "$SMALL" || fail "mount tmpfs"
at_exit umount_wait "$SMALL"
expect_status 2 "$CLYDE" -d "$SMALL" -r 0 -n 0
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "no -s: not one line: $(cat "$WORK/err")"
grep -q "^clyde: no -s given, and the smallest data size clyde chooses, 256M, does not fit: only 84M free in '$SMALL' besides sync_write's file; give a smaller size, e.g. -s 42M$" "$WORK/err" ||
	fail "no -s: $(cat "$WORK/err")"
# With the default file tests, their room is counted too.
expect_status 2 "$CLYDE" -d "$SMALL" -r 0
grep -q "^clyde: no -s given, .* only 82M free in '$SMALL' besides the file tests and sync_write's file; give a smaller size, e.g. -s 41M$" "$WORK/err" ||
	fail "no -s with -n: $(cat "$WORK/err")"
# -r without -s asks for twice that RAM: named as such.
expect_status 2 "$CLYDE" -d "$SMALL" -r 1g -n 0
grep -q "^clyde: -r 1g: the data size for that RAM (twice it, as bonnie++), 2G, is more than the 100M free in '$SMALL' with sync_write's file; give -s, e.g. -s 42M$" "$WORK/err" ||
	fail "-r: $(cat "$WORK/err")"
# The suggestion works.
expect_status 0 "$CLYDE" -d "$SMALL" -s 50m -r 0 -n 0 -f -q
assert_empty "$SMALL"
umount "$SMALL"

# An I/O error at the -D probe: exit 1, the call, file and error named.
# The data goes through a loop device whose image lies on a second ext4
# that is shut down (xfs_io shutdown) after the first is mounted: every
# write that reaches the device fails with EIO.
command -v xfs_io >/dev/null 2>&1 || { echo "note: no xfs_io; the -D probe EIO case not run" >&2; exit 0; }
for tool in losetup mkfs.ext4; do
	command -v $tool >/dev/null 2>&1 || skip "$tool not installed"
done
OUTER="$WORK/outer"
MNT="$WORK/mnt"
mkdir "$OUTER" "$MNT"
truncate -s 160M "$WORK/outer.img"
mkfs.ext4 -q -F "$WORK/outer.img" || fail "mkfs.ext4 outer"
loop_attach LA "$WORK/outer.img"
mount "$LA" "$OUTER" || fail "mount $LA"
at_exit umount_wait "$OUTER"
truncate -s 64M "$OUTER/inner.img"
# No journal (whose first failed write would make the filesystem
# read-only before clyde makes its directory) and no lazy init (a
# background writer to the dead device).
mkfs.ext4 -q -F -O ^has_journal -E lazy_itable_init=0 "$OUTER/inner.img" ||
	fail "mkfs.ext4 inner"
loop_attach LB "$OUTER/inner.img" "no second free loop device"
# errors=continue: a failed metadata write does not make it read-only.
mount -o errors=continue "$LB" "$MNT" || fail "mount $LB"
at_exit umount_wait "$MNT"
# Bitmaps and directory blocks into the cache, so only data I/O fails.
mkdir "$MNT/warm" && echo x >"$MNT/warm/f" && sync && rm -rf "$MNT/warm"
xfs_io -x -c shutdown "$OUTER" || skip "xfs_io shutdown refused on ext4"
expect_status 1 "$CLYDE" -d "$MNT" -s 16m -r 0 -n 0 -D
# Mostly the write fails; when something else on the machine dropped
# the page cache in between (a job beside it, drop_caches), the bitmaps
# are gone and the create is the call that reads the dead device.
grep -Eq "^clyde: -D probe: (write \(O_DIRECT\)|create) $MNT/clyde\.[A-Za-z0-9]*/direct-probe: Input/output error$" "$WORK/err" ||
	fail "-D EIO: $(cat "$WORK/err")"
grep -q 'Writing' "$WORK/err" && fail "-D EIO: a test ran"
exit 0
