#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-zcav and clyde-sweep on targets behind the fault rig. clyde-zcav
# on a file: a read error (buffered or --direct) or a write/fsync error
# (-w) at an offset is exit 1 with one line naming the target, the
# offset and the real error, after the blocks before it; with several
# targets the others finish; buffered, its eviction reaches the
# filesystem. clyde-sweep on a directory: an error in a write, fsync or
# read of any cell is exit 1 with one line naming the cell and the
# error, and nothing is left behind.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
ff_setup

# one_line PROG MESSAGE WHAT: stderr holds exactly one line of PROG
# that is not a progress line, and it is MESSAGE.
one_line() {
	grep "^$1: " "$WORK/err" | grep -v ' MB/s, ' >"$WORK/msgs"
	[ "$(wc -l <"$WORK/msgs")" = 1 ] || fail "$3: not one error line: $(cat "$WORK/err")"
	[ "$(cat "$WORK/msgs")" = "$1: $2" ] || fail "$3: message: $(cat "$WORK/msgs"), expected '$1: $2'"
}

head -c $((32 * 1048576)) /dev/urandom >"$B/f" || fail "making data"
cp "$B/f" "$B/g" || fail "making data"

# Reads: 8 MiB blocks; the fault at 20 MiB is in the third.
for mode in '' --direct; do
	ff_cmd clear 'fail read EIO off=20m path=/f'
	expect_status 1 "$ZCAV" -b 8 $mode "$M/f"
	one_line clyde-zcav "read $M/f at 0.02 GiB: $EIO" "zcav $mode"
	[ "$(grep -cE '^#?0\.0[01] ' "$WORK/out")" = 2 ] ||
		fail "zcav $mode: not the two blocks before the fault: $(cat "$WORK/out")"
	grep -q '^# Read ' "$WORK/out" && fail "zcav $mode: a summary after a failure"
	[ "$(ff_fired 1)" = 1 ] || fail "zcav $mode: fired $(ff_fired 1) times"
done

# Two targets, one failing: the other is read to its end.
ff_cmd clear 'fail read EIO off=20m path=/g'
expect_status 1 "$ZCAV" -b 8 -l "$WORK/lf" -f "$M/f" -l "$WORK/lg" -f "$M/g"
one_line clyde-zcav "read $M/g at 0.02 GiB: $EIO" "zcav two targets"
grep -q '^# Read 32 megs' "$WORK/lf" || fail "the target without a fault: $(cat "$WORK/lf")"

# Writes (-w, the file named twice): ENOSPC at 12 MiB, a failed fsync.
ff_cmd clear 'fail write ENOSPC off=12m path=/f'
expect_status 1 "$ZCAV" -b 8 -w --destroy-data="$M/f" "$M/f"
one_line clyde-zcav "write $M/f at 0.01 GiB: No space left on device" "zcav -w"
[ "$(ff_fired 1)" = 1 ] || fail "zcav -w: fired $(ff_fired 1) times"
ff_cmd clear 'fail fsync EIO path=/f'
expect_status 1 "$ZCAV" -b 8 -w --destroy-data="$M/f" "$M/f"
one_line clyde-zcav "fsync $M/f at 0.00 GiB: $EIO" "zcav -w fsync"
rm -f "$B/f" "$B/g"

# clyde-sweep on the mount: each cell's write, fsync and read. The
# cells run buffered 4k, 1m, then direct 4k, 1m; each writes then reads
# the same 8 MiB, so after=N skips the cells before.
sweep_fault() {
	msg=$1 rule=$2
	ff_cmd clear "$rule"
	expect_status 1 "$SWEEP" -s 8m -B 4k,1m "$M"
	one_line clyde-sweep "fuse.faultfs: $msg" "sweep '$rule'"
	[ "$(ff_fired 1)" -ge 1 ] || fail "sweep '$rule': the fault never fired"
	assert_empty "$B"
	ff_alive
}
sweep_fault "buffered 4k write: write: $EIO" 'fail write EIO off=4m'
sweep_fault "buffered 4k write: fsync: $EIO" 'fail fsync EIO'
sweep_fault "buffered 4k read: read: $EIO" 'fail read EIO off=4m'
sweep_fault "direct 4k write: write: No space left on device" 'fail write ENOSPC off=6m after=2'
sweep_fault "direct 1m read: read: $EIO" 'fail read EIO off=6m after=3'
# Its private directory cannot be made: a refusal before any cell.
ff_cmd clear 'fail mkdir EIO'
expect_status 2 "$SWEEP" -s 8m -B 4k "$M"
one_line clyde-sweep "cannot make a private directory in $M: $EIO" "sweep mkdir"
assert_empty "$B"

# --cache: data written through the rig stays cached, so a read fault
# fires only because clyde-zcav evicted the file before its pass.
ff_umount
ff_mount "$B" "$M" --cache
dd if=/dev/urandom of="$M/f" bs=1048576 count=32 2>/dev/null || fail "--cache: write"
ff_cmd 'fail read EIO off=20m path=/f'
expect_status 1 "$ZCAV" -b 8 "$M/f"
one_line clyde-zcav "read $M/f at 0.02 GiB: $EIO" "zcav --cache"
rm -f "$M/f"
assert_empty "$B"
ff_alive
exit 0
