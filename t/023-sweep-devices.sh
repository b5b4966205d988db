#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-sweep on block devices (root, a loop device of our own): the
# raw matrix on a blank device; the matrix on ext4 mounted over it; the
# whole raw,ext4,xfs table from one command, leaving nothing mounted and
# no mount point behind; and a SIGTERM while a filesystem of its own is
# mounted: 143, unmounted, mount point removed, the device free again.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
PATH=$PATH:/sbin:/usr/sbin

need_root "loop devices, mkfs, mount" \
	losetup mkfs.ext4 mkfs.xfs mount umount truncate

# xfs wants at least 300 MiB.
truncate -s 512M "$WORK/dev.img"
loop_attach L "$WORK/dev.img"
mkdir "$WORK/tmp"
TMPDIR=$WORK/tmp
export TMPDIR

# cells FS N: N CSV lines for FS, each of nine fields, 16 MiB moved.
cells() {
	n=$(awk -F, -v fs="$1" '$2 == fs && NF == 9 && $6 == 16777216' "$WORK/out" | wc -l)
	[ "$n" = "$2" ] || fail "$2 $1 cells expected, $n found: $(cat "$WORK/out")"
}
nothing_mounted() {
	grep -q "clyde-sweep\." /proc/self/mountinfo && fail "a clyde-sweep mount is left: $(grep clyde-sweep /proc/self/mountinfo)"
	dev=$(cat "/sys/class/block/${L#/dev/}/dev")
	awk -v d="$dev" '$3 == d { found = 1 } END { exit !found }' /proc/self/mountinfo &&
		fail "$L is still mounted"
	assert_empty "$WORK/tmp"
}

# The raw device, blank: no --filesystems means raw only.
expect_status 0 "$SWEEP" -s 16m -B 4k,1m --destroy-data="$L" "$L"
grep -qE '^raw device +write ' "$WORK/out" || fail "no raw row: $(cat "$WORK/out")"
cells raw 8
nothing_mounted

# ext4 mounted over it: the matrix on a file there, the row named ext4.
mkfs.ext4 -q -F "$L" || fail "mkfs.ext4"
mkdir "$WORK/mnt"
mount "$L" "$WORK/mnt" || fail "mount"
at_exit umount_wait "$WORK/mnt"
expect_status 0 "$SWEEP" -s 16m -B 4k,1m "$WORK/mnt"
grep -qE '^ext4 +write ' "$WORK/out" || fail "no ext4 row: $(cat "$WORK/out")"
grep -q "($L\|(ext4 on $L)" "$WORK/out" || fail "the header does not name $L: $(head -1 "$WORK/out")"
cells ext4 8
[ "$(ls -A "$WORK/mnt")" = lost+found ] || fail "left in the filesystem: $(ls -A "$WORK/mnt")"
umount "$WORK/mnt" || fail "umount"
# Another test's clyde-sweep may have copied that mount into its own
# namespace meanwhile; it lets go when that run ends.
"$HELD" "$L" 300 || fail "$L still held 300 s after its umount"

# The whole table from one command; --force because ext4 is now there.
expect_status 0 "$SWEEP" -s 16m --filesystems=raw,ext4,xfs --force --destroy-data="$L" "$L"
for row in 'raw device' ext4 xfs; do
	grep -qE "^$row +write( +([0-9]+\.[0-9] +[0-9]+|\+\+\+\+\+ \+\+\+)){8}$" "$WORK/out" ||
		fail "no $row write row: $(cat "$WORK/out")"
done
[ "$(grep -cE '^ +read( +([0-9]+\.[0-9] +[0-9]+|\+\+\+\+\+ \+\+\+)){8}$' "$WORK/out")" = 3 ] ||
	fail "three read rows expected: $(cat "$WORK/out")"
cells raw 16
cells ext4 16
cells xfs 16
nothing_mounted

# A stop while its own xfs is mounted and being written. (The last
# run's progress, which names xfs too, must not be taken for this one's.)
rm -f "$WORK/err"
"$SWEEP" -s 384m -B 4k --filesystems=xfs --force --destroy-data="$L" "$L" \
	>"$WORK/out" 2>"$WORK/err" &
pid=$!
for _ in $(seq 1 100); do
	grep -q "xfs: buffered 4k write" "$WORK/err" 2>/dev/null && break
	sleep 0.1
done
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] || fail "SIGTERM: exit $st, expected 143: $(cat "$WORK/err")"
nothing_mounted
# Free again: an exclusive user (mkfs) can have it.
mkfs.ext4 -q -F "$L" || fail "$L is still held after the stop"

# A stage that fails (an mkfs.xfs that refuses): exit 1, the error, and
# the cells that did run still printed, the failed stage's row blank.
mkdir "$WORK/fakebin"
printf '#!/bin/sh\necho "mkfs.xfs: refused by the test" >&2\nexit 1\n' >"$WORK/fakebin/mkfs.xfs"
chmod +x "$WORK/fakebin/mkfs.xfs"
PATH="$WORK/fakebin:$PATH" expect_status 1 "$SWEEP" -s 16m -B 1m \
	--filesystems=raw,ext4,xfs --force --destroy-data="$L" "$L"
grep -q 'mkfs.xfs: refused by the test' "$WORK/err" || fail "failed stage: $(cat "$WORK/err")"
cells raw 4
cells ext4 4
grep -q '^xfs  *write *$' "$WORK/out" || fail "failed stage: no blank xfs row: $(cat "$WORK/out")"
nothing_mounted
exit 0
