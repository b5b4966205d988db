#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-sweep when what it made cannot be removed, and when it is stopped
# with a filesystem of its own mounted (root, loop devices of our own).
# An immutable parent (chattr +i) keeps its private directory, or its
# mount point, or the private directory inside the filesystem it made:
# exit 1 and a line naming the path and the reason, never a bare
# "cannot remove". INT, TERM, HUP in a row while mounted: 130 (the
# first), unmounted, mount point gone. A closed standard output while
# it ran on its own filesystem: 141, silent, nothing left.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
PATH=$PATH:/sbin:/usr/sbin

need_root "loop devices, mkfs, mount, chattr" \
	losetup mkfs.ext4 mount umount truncate chattr nsenter

# A: the device clyde-sweep makes its filesystems on. B: an ext4 of our
# own for the directory runs and TMPDIR (the mount points), where
# chattr works and no flag can be left on the system's disks.
truncate -s 256M "$WORK/a.img" "$WORK/b.img"
loop_attach A "$WORK/a.img"
loop_attach B "$WORK/b.img"
mkfs.ext4 -q -F "$B" || fail "mkfs.ext4 $B"
mkdir "$WORK/b"
mount "$B" "$WORK/b" || fail "mount $B"
at_exit umount_wait "$WORK/b"
mkdir "$WORK/b/t" "$WORK/b/tmp"
# Undone before the unmount above on every way out.
at_exit chattr -i "$WORK/b/t" "$WORK/b/tmp"
TMPDIR=$WORK/b/tmp
export TMPDIR

nothing_mounted() {
	grep -q "clyde-sweep\." /proc/self/mountinfo &&
		fail "a clyde-sweep mount is left: $(grep clyde-sweep /proc/self/mountinfo)"
	dev=$(cat "/sys/class/block/${A#/dev/}/dev")
	awk -v d="$dev" '$3 == d { found = 1 } END { exit !found }' /proc/self/mountinfo &&
		fail "$A is still mounted"
	# Free again: an exclusive user (mkfs) can have it.
	mkfs.ext4 -q -F "$A" || fail "$A is still held"
}

# wait_for CMD...: until CMD succeeds (10 s at most) or the sweep ended.
wait_for() {
	for _ in $(seq 1 200); do
		"$@" && return 0
		kill -0 $pid 2>/dev/null || fail "the sweep ended early: $(cat "$WORK/err")"
		sleep 0.05
	done
	fail "timed out waiting for: $*: $(cat "$WORK/err")"
}
have() {
	[ -n "$(find "$1" -mindepth 1 -maxdepth 1 -name "$2" 2>/dev/null)" ]
}
# In the sweep's own mount namespace (it unshares one).
in_ns() {
	nsenter -t $pid -m -- "$@"
}
progress() {
	grep -q "$1" "$WORK/err" 2>/dev/null
}
finish_run() {
	wait $pid
	st=$?
	[ $st = "$1" ] || fail "$2: exit $st, expected $1: $(cat "$WORK/err")"
	grep -q "cannot remove *$" "$WORK/err" && fail "$2: a bare 'cannot remove': $(cat "$WORK/err")"
	:
}

# 1. A directory run whose private directory cannot go: its parent
# turns immutable while it runs.
# (No stale progress from the run before.)
rm -f "$WORK/err"
"$SWEEP" -s 64m -B 4k,64k "$WORK/b/t" >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_for have "$WORK/b/t" 'clyde.*'
kill -STOP $pid
chattr +i "$WORK/b/t"
kill -CONT $pid
finish_run 1 "immutable parent"
left=$(find "$WORK/b/t" -mindepth 1 -maxdepth 1 -name 'clyde.*')
grep -q "^clyde-sweep: cannot remove $left: rmdir: Operation not permitted$" "$WORK/err" ||
	fail "immutable parent: $left not named with its reason: $(cat "$WORK/err")"
# The rest was removed; the cells that ran are still printed.
[ -z "$(ls -A "$left")" ] || fail "left in $left: $(ls -A "$left")"
grep -q ',write,67108864,' "$WORK/out" || fail "immutable parent: no CSV: $(cat "$WORK/out")"
chattr -i "$WORK/b/t"
rmdir "$left"

# 2. The private directory inside the filesystem it made: the root of
# that filesystem turns immutable. Unmounted all the same.
rm -f "$WORK/err"
"$SWEEP" -s 64m -B 4k,64k --filesystems=ext4 --force --destroy-data="$A" "$A" \
	>"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_for progress "ext4: buffered 4k write"
kill -STOP $pid
mnt=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'clyde-sweep.*')
[ -n "$mnt" ] || fail "no mount point in $TMPDIR"
in_ns chattr +i "$mnt" || fail "chattr +i on the sweep's $mnt"
kill -CONT $pid
finish_run 1 "immutable filesystem root"
grep -q "^clyde-sweep: cannot remove $mnt/clyde\.[^ ]*: [a-z]* *[^ ]*: Operation not permitted$" "$WORK/err" ||
	fail "immutable filesystem root: not named with its reason: $(cat "$WORK/err")"
assert_empty "$TMPDIR"
nothing_mounted

# 3. Its mount point cannot go: TMPDIR turns immutable. Unmounted, the
# mount point named.
rm -f "$WORK/err"
"$SWEEP" -s 64m -B 4k,64k --filesystems=ext4 --force --destroy-data="$A" "$A" \
	>"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_for have "$TMPDIR" 'clyde-sweep.*'
kill -STOP $pid
chattr +i "$TMPDIR"
kill -CONT $pid
finish_run 1 "immutable TMPDIR"
mnt=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'clyde-sweep.*')
grep -q "^clyde-sweep: cannot remove the mount point $mnt: Operation not permitted$" "$WORK/err" ||
	fail "immutable TMPDIR: $mnt not named with its reason: $(cat "$WORK/err")"
chattr -i "$TMPDIR"
rmdir "$mnt" || fail "$mnt is not an empty directory (still mounted?)"
nothing_mounted

# 4. INT, TERM, HUP in a row while its ext4 is mounted: the first
# decides the status, and everything is undone. A process of ours sits
# in the mounted filesystem for 3 s, so the unmount is retried (busy)
# while TERM and HUP come: they arrive before the exit, deterministically.
rm -f "$WORK/err"
"$SWEEP" -s 128m -B 4k --filesystems=ext4 --force --destroy-data="$A" "$A" \
	>"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_for progress "ext4: buffered 4k write"
mnt=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'clyde-sweep.*')
nsenter -t $pid -m -- sh -c 'cd "$1" && exec sleep 3' sh "$mnt" &
holder=$!
wait_for sh -c '[ "$(readlink /proc/$1/cwd)" = "$2" ]' sh $holder "$mnt"
kill -INT $pid
sleep 0.3
kill -TERM $pid 2>/dev/null
sleep 0.3
kill -HUP $pid 2>/dev/null
kill -0 $pid 2>/dev/null || fail "INT, TERM, HUP: the sweep ended before HUP"
finish_run 130 "INT, TERM, HUP"
wait $holder
assert_empty "$TMPDIR"
nothing_mounted

# 5. `clyde-sweep | head -1` with head gone before the results: 141,
# nothing said about it, unmounted, nothing left.
{
	echo first
	"$SWEEP" -s 16m -B 64k --filesystems=raw,ext4 --force \
		--destroy-data="$A" "$A" 2>"$WORK/err"
	echo $? >"$WORK/st"
} | head -1 >/dev/null
[ "$(cat "$WORK/st")" = 141 ] || fail "| head -1: exit $(cat "$WORK/st"), expected 141: $(cat "$WORK/err")"
grep -v ' MB/s, \|: making ext4 on ' "$WORK/err" | grep -q . &&
	fail "| head -1: said more than progress: $(cat "$WORK/err")"
assert_empty "$TMPDIR"
nothing_mounted
exit 0
