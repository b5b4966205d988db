#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fault rig's volatile write cache and power cut (t/faultfs): with
# wcache on, written data stays in the rig's memory, and reads and sizes
# through the mount see it; honest, an fsync, an fdatasync or an O_SYNC
# write writes it to the backing file; lying, they return at once and
# the blocks are only acknowledged. A cut loses what the cache holds,
# counted by whether it was acknowledged, and fails everything after it
# but the control file; wcache off writes back; bad lines are refused.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

ff_setup

# Blocks of 4096 random bytes, and one of zeros (0).
for c in a b c d e; do
	head -c 4096 /dev/urandom >"$WORK/$c" || fail "making block $c"
done
head -c 4096 /dev/zero >"$WORK/0"

# put FILE N BLOCK [dd flags]: BLOCK over block N of $M/FILE, one write.
put() {
	p_file=$1 p_n=$2 p_c=$3
	shift 3
	dd if="$WORK/$p_c" of="$M/$p_file" bs=4096 seek="$p_n" count=1 \
		conv=notrunc "$@" 2>"$WORK/err" ||
		fail "writing $p_c at block $p_n of $p_file ($*): $(cat "$WORK/err")"
}

# expect_blocks FILE WHAT X Y ...: FILE is blocks X, Y, ... and no more.
expect_blocks() {
	eb_file=$1 eb_what=$2
	shift 2
	: >"$WORK/want"
	for eb_c in "$@"; do
		cat "$WORK/$eb_c" >>"$WORK/want"
	done
	cmp -s "$eb_file" "$WORK/want" ||
		fail "$eb_what: $eb_file is not blocks $* ($(stat -c %s "$eb_file") bytes)"
}

# expect_status WHAT LINE...: the control file has each LINE, whole.
expect_status() {
	es_what=$1
	shift
	ff_read_ctl || fail "$es_what: reading the control file"
	for es_line in "$@"; do
		grep -qx "$es_line" "$WORK/ff.status" ||
			fail "$es_what: no '$es_line' in: $(cat "$WORK/ff.status")"
	done
}

# remount: a fresh rig over the same backing directory.
remount() {
	ff_umount
	ff_mount "$B" "$M"
}

# Honest, for /h* only: an fsync (dd conv=fsync) and an fdatasync
# (sync -d) write what is held and leave nothing; what comes after the
# last one is held, and lost at the cut; another file is not cached.
ff_cmd 'wcache honest path=/h*'
put h 0 a
expect_status "honest, a write" 'wcache honest held=1 acked=0'
[ "$(stat -c %s "$B/h")" = 0 ] || fail "honest: an unsynced write reached the backing file"
put h 1 b conv=fsync
expect_blocks "$B/h" "honest, after an fsync" a b
expect_status "honest, after an fsync" 'wcache honest held=0 acked=0'
put h 2 c
sync -d "$M/h" || fail "honest: fdatasync failed"
expect_blocks "$B/h" "honest, after an fdatasync" a b c
put h 3 d
put h 1 e
put x 0 d
expect_blocks "$B/x" "a file the path does not match" d
expect_blocks "$M/h" "honest, read through the mount" a e c d
expect_blocks "$B/h" "honest, unsynced writes" a b c
expect_status "honest, unsynced writes" 'wcache honest held=2 acked=0'
ff_cmd cut
expect_status "honest, the cut" 'cut dropped_acked=0 dropped_unacked=2'
grep -q '^dropped_acked ' "$WORK/ff.status" &&
	fail "honest: the cut lists acknowledged blocks: $(cat "$WORK/ff.status")"

# After the cut: reads, writes and stat fail, the control file answers.
cat "$M/h" >/dev/null 2>"$WORK/err" && fail "a read after the cut passed"
grep -q "$EIO" "$WORK/err" || fail "a read after the cut: $(cat "$WORK/err")"
dd if="$WORK/a" of="$M/h" bs=4096 conv=notrunc 2>"$WORK/err" && fail "a write after the cut passed"
grep -q "$EIO" "$WORK/err" || fail "a write after the cut: $(cat "$WORK/err")"
stat "$M/h" >/dev/null 2>"$WORK/err" && fail "stat after the cut passed"
grep -q "$EIO" "$WORK/err" || fail "stat after the cut: $(cat "$WORK/err")"
ff_cmd 'seed 1'
expect_status "the control file after the cut" 'cut dropped_acked=0 dropped_unacked=2'
remount
expect_blocks "$B/h" "honest, after the cut" a b c

# Lying, every file: an fsync, an O_DSYNC or an O_SYNC write returns at
# once and writes nothing; reads see the writes, a write past the end
# makes the file longer (a partial block reads zeros around its bytes),
# and the cut loses the acknowledged blocks, listed by offset.
ff_cmd 'wcache lying'
put l 0 a
put l 1 b
put l 2 c conv=fsync
printf 'hello' | dd of="$M/l" bs=1 seek=12290 conv=notrunc 2>"$WORK/err" ||
	fail "lying: a partial write: $(cat "$WORK/err")"
{ head -c 2 /dev/zero && printf 'hello' && head -c 4089 /dev/zero; } >"$WORK/p"
[ "$(stat -c %s "$M/l")" = 12295 ] || fail "lying: the grown file has $(stat -c %s "$M/l") bytes"
cat "$M/l" >"$WORK/got" || fail "lying: reading through the mount"
cat "$WORK/a" "$WORK/b" "$WORK/c" "$WORK/p" | head -c 12295 | cmp -s - "$WORK/got" ||
	fail "lying: reads do not see the writes"
put m 0 d oflag=dsync
put m 1 e
put s 0 e oflag=sync
expect_status "lying" 'wcache lying held=7 acked=5'
for f in l m s; do
	[ "$(stat -c %s "$B/$f")" = 0 ] || fail "lying: a write reached $B/$f"
done
ff_cmd cut
expect_status "lying, the cut" 'cut dropped_acked=5 dropped_unacked=2'
grep '^dropped_acked ' "$WORK/ff.status" | sort >"$WORK/lost"
printf 'dropped_acked %s\n' '/l 0' '/l 4096' '/l 8192' '/m 0' '/s 0' |
	cmp -s - "$WORK/lost" || fail "lying: the lost blocks: $(cat "$WORK/lost")"
remount
for f in l m s; do
	[ "$(stat -c %s "$B/$f")" = 0 ] || fail "lying: after the cut $B/$f is not empty"
done

# wcache off writes back what is held, honest or lying (acknowledged or
# not), and the cache is off: nothing to lose at a cut.
ff_cmd 'wcache honest'
put o 0 a
put o 1 b
[ "$(stat -c %s "$B/o")" = 0 ] || fail "honest: an unsynced write reached $B/o"
ff_cmd 'wcache off'
expect_blocks "$B/o" "wcache off after honest" a b
ff_cmd 'wcache lying'
put o 2 c conv=fsync
put o 3 d
expect_status "lying over o" 'wcache lying held=2 acked=1'
ff_cmd 'wcache off'
expect_blocks "$B/o" "wcache off after lying" a b c d
ff_read_ctl || fail "reading the control file"
grep -q '^wcache' "$WORK/ff.status" && fail "wcache off: the cache is still on: $(cat "$WORK/ff.status")"
put o 0 e
expect_blocks "$B/o" "a write with the cache off" e b c d
ff_cmd cut
expect_status "a cut with the cache off" 'cut dropped_acked=0 dropped_unacked=0'

# clear ends the cut, and drops what the cache holds, unwritten.
ff_cmd clear
expect_blocks "$M/o" "after clear" e b c d
ff_cmd 'wcache lying'
put p 0 a conv=fsync
ff_cmd clear
[ "$(stat -c %s "$B/p")" = 0 ] && [ "$(stat -c %s "$M/p")" = 0 ] ||
	fail "clear wrote back what the cache held"
ff_read_ctl || fail "reading the control file"
grep -q -e '^wcache' -e '^cut' "$WORK/ff.status" && fail "clear left the cache: $(cat "$WORK/ff.status")"

# Bad commands are refused, each with one message naming the bad word.
for bad in 'wcache' 'wcache maybe' 'wcache honest path=' 'cut now' \
	'wcache off path=/x' 'wcache lying path=/x more'; do
	printf '%s\n' "$bad" 2>/dev/null >"$FF_CTL" && fail "the rig accepted '$bad'"
done
for word in "wcache: expected" "'maybe'" "'path='" "'now'" "'path=/x'" "'more'"; do
	grep -q "^faultfs: .*: $word" "$FF_LOG" || fail "no message naming $word: $(cat "$FF_LOG")"
done
[ "$(grep -c '^faultfs: ' "$FF_LOG")" = 6 ] ||
	fail "not one message per bad command: $(cat "$FF_LOG")"
: >"$FF_LOG"
ff_read_ctl || fail "reading the control file"
grep -q '^wcache' "$WORK/ff.status" && fail "a refused command set the cache: $(cat "$WORK/ff.status")"

ff_alive
rm -f "$M"/* || fail "rm through the rig"
assert_empty "$B"
exit 0
