#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fault rig's data faults for clyde's verification: a drop rule
# loses the bytes of a write it covers (the write still succeeds, the
# backing file keeps what it held), a remap rule makes a read return the
# bytes of another offset for exactly the bytes it covers, direct_io and
# --cache alike; both count what fired, clear ends them, and bad lines
# are refused with a reason.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

ff_setup

# Blocks of 4096 random bytes: A B C the old file, a b c its new data.
for c in A B C a b c; do
	head -c 4096 /dev/urandom >"$WORK/$c" || fail "making block $c"
done
cat "$WORK/A" "$WORK/B" "$WORK/C" >"$WORK/old"
cat "$WORK/a" "$WORK/b" "$WORK/c" >"$WORK/new"

# block FILE N: the 4096 bytes of block N of FILE on stdout.
block() {
	dd if="$1" bs=4096 skip="$2" count=1 2>/dev/null
}

# expect_blocks FILE WHAT X Y Z: blocks 0, 1, 2 of FILE are X, Y, Z.
expect_blocks() {
	eb_file=$1 eb_what=$2
	shift 2
	eb_n=0
	for eb_c in "$@"; do
		block "$eb_file" $eb_n | cmp -s - "$WORK/$eb_c" ||
			fail "$eb_what: block $eb_n of $eb_file is not $eb_c"
		eb_n=$((eb_n + 1))
	done
	[ "$(stat -c %s "$eb_file")" = $((4096 * $#)) ] ||
		fail "$eb_what: $eb_file has $(stat -c %s "$eb_file") bytes"
}

# put SRC SEEK COUNT: dd SRC over $M/d at block SEEK (4 KiB), COUNT
# blocks in one write; it must succeed and say it wrote them all.
put() {
	dd if="$1" of="$M/d" bs=$((4096 * $3)) count=1 \
		oflag=seek_bytes seek=$((4096 * $2)) conv=notrunc \
		2>"$WORK/err" || fail "a write of $1 failed: $(cat "$WORK/err")"
	grep -q "^$(($3 * 4096)) bytes" "$WORK/err" ||
		fail "a write of $1 was short: $(cat "$WORK/err")"
}

# Drop: the first write of block 1 lands (after=1), the rewrites of it
# are lost while the blocks around it are written, and a write that
# misses it is not counted.
ff_cmd 'drop write off=4096 len=4096 after=1 path=/d'
cp "$WORK/old" "$M/d" || fail "cp through the rig"
expect_blocks "$B/d" "the first write" A B C
put "$WORK/new" 0 3
expect_blocks "$B/d" "a dropped rewrite of 3 blocks" a B c
expect_blocks "$M/d" "a dropped rewrite, through the mount" a B c
put "$WORK/b" 1 1
put "$WORK/C" 2 1
expect_blocks "$B/d" "a dropped rewrite of block 1" a B C
ff_read_ctl || fail "reading the control file"
grep -q '^rule 1 fired=2 matched=3 ' "$WORK/ff.status" ||
	fail "drop counts: $(cat "$WORK/ff.status")"

# Without off= a whole write is lost, and times= ends the rule.
ff_cmd clear 'drop write path=/e times=1'
dd if="$WORK/a" of="$M/e" bs=4096 2>"$WORK/err" ||
	fail "a dropped write failed: $(cat "$WORK/err")"
[ "$(stat -c %s "$B/e")" = 0 ] || fail "a dropped whole write reached $B/e"
dd if="$WORK/a" of="$M/e" bs=4096 2>/dev/null || fail "a second write of /e failed"
cmp -s "$WORK/a" "$B/e" || fail "times=1: the second write was lost too"
[ "$(ff_fired 1)" = 1 ] || fail "drop times=1 fired $(ff_fired 1) times"

# Remap: block 0 reads as block 2, alone or in a longer read, and the
# bytes it covers are exactly those of block 0 (a read across its end
# gets block 2's tail, then block 1 as it is); clear ends it.
cp "$WORK/old" "$B/d" || fail "resetting $B/d"
ff_cmd clear 'remap read off=0 len=4096 from=8192 path=/d'
expect_blocks "$M/d" "remap, 4 KiB reads" C B C
dd if="$M/d" bs=12288 count=1 2>/dev/null >"$WORK/got"
expect_blocks "$WORK/got" "remap, one 12 KiB read" C B C
dd if="$M/d" bs=4096 count=1 iflag=skip_bytes skip=2048 2>/dev/null >"$WORK/got"
{ tail -c 2048 "$WORK/C" && head -c 2048 "$WORK/B"; } | cmp -s - "$WORK/got" ||
	fail "remap: a read of bytes 2048..6143 is not C's tail and B's head"
[ "$(ff_fired 1)" = 3 ] || fail "remap fired $(ff_fired 1) times, expected 3"
cmp -s "$WORK/old" "$B/d" || fail "a remapped read changed the backing file"
ff_cmd clear
expect_blocks "$M/d" "after clear" A B C

# Bad lines are refused, each with its reason, and add no rule.
: >"$FF_LOG"
for bad in 'remap read off=0 len=4096' 'remap off=0 from=8192' \
	'remap len=4096 from=0' 'remap read off=0 len=0 from=8192' \
	'remap write off=0 len=1 from=2' 'drop read off=0' 'drop fsync' \
	'drop write off=0 len=0' 'drop write len=8' 'drop write off=0 from=8' \
	'remap off=8 len=8 from=0xffffffffffffffff'; do
	printf '%s\n' "$bad" 2>/dev/null >"$FF_CTL" && fail "the rig accepted '$bad'"
done
[ "$(grep -c '^faultfs: ' "$FF_LOG")" = 11 ] ||
	fail "not one message per bad line: $(cat "$FF_LOG")"
for why in "'remap read off=0 len=4096': remap: off=, len= and from= are needed" \
	"'drop read off=0': 'read': drop applies to write only" \
	"'remap write off=0 len=1 from=2': 'write': remap applies to read only" \
	"'drop write off=0 len=0': 'len=0': must be above 0" \
	"'drop write off=0 from=8': 'from=8': from= applies only to a remap rule" \
	"'remap off=8 len=8 from=0xffffffffffffffff': from+len overflows"; do
	grep -qF "faultfs: $why" "$FF_LOG" || fail "no message '$why': $(cat "$FF_LOG")"
done
: >"$FF_LOG"
ff_read_ctl || fail "reading the control file"
grep -q '^rule' "$WORK/ff.status" && fail "a refused line added a rule: $(cat "$WORK/ff.status")"

# --cache: the kernel reads whole pages or more, yet a remap changes
# only the bytes it covers (100..109 from 8200..8209), and after clear
# and an eviction the file reads as it is; a dropped write stays out of
# the backing file.
ff_umount
ff_mount "$B" "$M" --cache
dd if="$M/d" iflag=nocache count=0 2>/dev/null
ff_cmd 'remap off=100 len=10 from=8200 path=/d'
cat "$M/d" >"$WORK/got" || fail "--cache: reading /d"
{ head -c 100 "$WORK/old" && tail -c +8201 "$WORK/old" | head -c 10 &&
	tail -c +111 "$WORK/old"; } | cmp - "$WORK/got" ||
	fail "--cache: the remap did not change exactly bytes 100..109"
[ "$(ff_fired 1)" -ge 1 ] || fail "--cache: the remap did not fire"
ff_cmd clear
dd if="$M/d" iflag=nocache count=0 2>/dev/null
cmp -s "$WORK/old" "$M/d" || fail "--cache: after clear and eviction /d still differs"
ff_cmd 'drop write off=4096 len=4096 path=/d'
put "$WORK/new" 0 3
expect_blocks "$B/d" "--cache: a dropped rewrite" a B c
[ "$(ff_fired 1)" = 1 ] || fail "--cache: drop fired $(ff_fired 1) times, expected 1"

ff_alive
ff_cmd clear
rm -f "$M"/* || fail "rm through the rig"
assert_empty "$B"
exit 0
