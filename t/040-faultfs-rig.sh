#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fault rig itself (t/faultfs): a passthrough that returns what the
# backing files hold; on command it flips the bytes it is told to in
# what a read returns, fails a read or write at an offset (and nowhere
# else) with the errno it is told to, fails other operations by name
# and path, delays operations by a fixed or random time (or one that
# grows with the time since the rule was set), and counts what fired; with --cache, data stays cached until evicted.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

ff_setup

head -c 1048576 /dev/urandom >"$B/f" || fail "making data"

# A passthrough both ways; the control file is not listed.
cmp "$B/f" "$M/f" || fail "a read through the rig differs from the backing file"
head -c 65536 /dev/urandom >"$WORK/src"
cp "$WORK/src" "$M/w" || fail "cp through the rig"
cmp "$WORK/src" "$B/w" || fail "a write through the rig differs in the backing file"
[ "$(ls -A "$M" | tr '\n' ' ')" = "f w " ] ||
	fail "listing through the rig: $(ls -A "$M")"
dd if="$M/f" of=/dev/null bs=4096 count=4 iflag=direct 2>"$WORK/err" ||
	fail "O_DIRECT read through the rig: $(cat "$WORK/err")"

# One byte flipped: cmp finds exactly that byte, XORed with 1, whether
# read buffered or O_DIRECT; another file is untouched.
ff_cmd 'flip off=100000 xor=0x01 path=/f'
for flag in fullblock direct; do
	dd if="$M/f" bs=65536 iflag=$flag 2>/dev/null | cmp -l "$B/f" - >"$WORK/cmp"
	[ "$(wc -l <"$WORK/cmp")" = 1 ] || fail "flip ($flag): cmp -l: $(head -5 "$WORK/cmp")"
	# shellcheck disable=SC2046
	set -- $(cat "$WORK/cmp")
	[ "$1" = 100001 ] || fail "flip ($flag) changed byte $1, not 100001"
	[ $((0$2 ^ 0$3)) = 1 ] || fail "flip ($flag): byte $2 became $3 (octal), not XOR 1"
done
cmp "$WORK/src" "$M/w" || fail "a flip on /f changed /w"
[ "$(ff_fired 1)" = 2 ] || fail "flip fired $(ff_fired 1) times, expected 2: $(cat "$FF_CTL")"
# Three bytes, the default XOR 0xff.
ff_cmd clear 'flip off=0 len=3 path=/w'
cmp -l "$WORK/src" "$M/w" >"$WORK/cmp"
[ "$(awk '{ print $1 }' "$WORK/cmp" | tr '\n' ' ')" = "1 2 3 " ] ||
	fail "len=3 flip changed: $(cat "$WORK/cmp")"
while read -r pos a b; do
	[ $((0$a ^ 0$b)) = 255 ] || fail "byte $pos: $a -> $b (octal), not XOR 0xff"
done <"$WORK/cmp"

# EIO on a read at one offset: the 4 KiB blocks on either side read,
# the one holding it does not, and a whole read stops exactly there.
ff_cmd clear 'fail read EIO off=524288 len=4096 path=/f'
for blk in 127 129; do
	dd if="$M/f" of=/dev/null bs=4096 skip=$blk count=1 2>"$WORK/err" ||
		fail "block $blk failed: $(cat "$WORK/err")"
done
dd if="$M/f" of=/dev/null bs=4096 skip=128 count=1 2>"$WORK/err" &&
	fail "the faulted block 128 read"
grep -q 'Input/output error' "$WORK/err" || fail "block 128: $(cat "$WORK/err")"
dd if="$M/f" of="$WORK/part" bs=4096 2>"$WORK/err" && fail "a whole read passed the fault"
[ "$(wc -c <"$WORK/part")" = 524288 ] ||
	fail "a whole read gave $(wc -c <"$WORK/part") bytes, expected the 524288 before the fault"
cmp "$WORK/part" "$B/f" 2>&1 | grep -q EOF || fail "the bytes before the fault differ"
[ "$(ff_fired 1)" = 2 ] || fail "read fault fired $(ff_fired 1) times, expected 2"

# after= lets matches through, times= stops firing.
ff_cmd clear 'fail read EIO off=0 after=1 times=1 path=/f'
dd if="$M/f" of=/dev/null bs=4096 count=1 2>/dev/null || fail "after=1: the first read failed"
dd if="$M/f" of=/dev/null bs=4096 count=1 2>/dev/null && fail "after=1: the second read passed"
dd if="$M/f" of=/dev/null bs=4096 count=1 2>/dev/null || fail "times=1: the third read failed"
ff_read_ctl || fail "reading the control file"
grep -q '^rule 1 fired=1 matched=3 ' "$WORK/ff.status" ||
	fail "after/times counts: $(cat "$WORK/ff.status")"

# ENOSPC on a write at one offset: the writes before it land, a write
# elsewhere passes.
ff_cmd clear 'fail write ENOSPC off=1m len=4096'
dd if=/dev/zero of="$M/n" bs=4096 count=512 2>"$WORK/err" && fail "a write passed the ENOSPC fault"
grep -q 'No space left on device' "$WORK/err" || fail "ENOSPC: $(cat "$WORK/err")"
[ "$(stat -c %s "$B/n")" = 1048576 ] ||
	fail "the backing file has $(stat -c %s "$B/n") bytes, expected the 1048576 before the fault"
dd if=/dev/zero of="$M/n" bs=4096 seek=300 count=1 conv=notrunc 2>"$WORK/err" ||
	fail "a write away from the fault failed: $(cat "$WORK/err")"
dd if=/dev/zero of="$M/n" bs=4096 seek=256 count=1 conv=notrunc oflag=direct 2>"$WORK/err" &&
	fail "an O_DIRECT write at the fault passed"
[ "$(ff_fired 1)" = 2 ] || fail "write fault fired $(ff_fired 1) times, expected 2"

# Other operations by name and path.
ff_cmd clear 'fail create EDQUOT path=/q*' 'fail unlink EPERM path=/w' \
	'fail mkdir EROFS' 'fail fsync EIO path=/n'
(: >"$M/q1") 2>"$WORK/err" && fail "create of /q1 passed"
grep -q 'Disk quota exceeded' "$WORK/err" || fail "create: $(cat "$WORK/err")"
[ -e "$B/q1" ] && fail "a failed create made the backing file"
: >"$M/r1" || fail "create of /r1 (no rule) failed"
rm "$M/w" 2>"$WORK/err" && fail "unlink of /w passed"
grep -q 'Operation not permitted' "$WORK/err" || fail "unlink: $(cat "$WORK/err")"
mkdir "$M/d" 2>"$WORK/err" && fail "mkdir passed"
grep -q 'Read-only file system' "$WORK/err" || fail "mkdir: $(cat "$WORK/err")"
dd if=/dev/zero of="$M/n" bs=4096 count=1 conv=notrunc,fsync 2>"$WORK/err" && fail "fsync passed"
grep -q 'Input/output error' "$WORK/err" || fail "fsync: $(cat "$WORK/err")"
for r in 1 2 3 4; do
	[ "$(ff_fired $r)" = 1 ] || fail "rule $r fired $(ff_fired $r) times: $(cat "$FF_CTL")"
done

# Counters: every operation is counted, and clear zeroes them.
ff_cmd clear
cat "$M/f" >/dev/null
[ "$(ff_ops open)" = 1 ] || fail "op open: $(cat "$FF_CTL")"
[ "$(ff_ops read)" -ge 8 ] || fail "op read: $(cat "$FF_CTL")"
ff_cmd clear
[ "$(ff_ops read)" = 0 ] || fail "clear kept the counts: $(cat "$FF_CTL")"

# Bad commands are refused with a message and add no rule.
for bad in 'fail read EBOGUS' 'fail frob EIO' 'flip len=3' 'delay read' \
	'fail read EIO len=0' 'fail open EIO off=5' 'delay read fixed=5' \
	'delay read uniform=9ms,1ms' 'flip off=1 xor=0' 'delay write rate=0' \
	'delay open rate=1m' 'delay write fixed=1ms cache=0' 'fail write EIO cache=1m' \
	'delay write fixed=1ms grow=-1ms' 'delay write fixed=1ms grow=abc' \
	'delay write fixed=1ms grow=0ms' 'delay write rate=1m grow=1ms' \
	'fail write EIO grow=1ms' 'frobnicate'; do
	printf '%s\n' "$bad" 2>/dev/null >"$FF_CTL" && fail "the rig accepted '$bad'"
done
grep -q "^faultfs: 'frobnicate': 'frobnicate': unknown command" "$FF_LOG" ||
	fail "no message for a bad command: $(cat "$FF_LOG")"
[ "$(grep -c '^faultfs: ' "$FF_LOG")" = 19 ] ||
	fail "not one message per bad command: $(cat "$FF_LOG")"
: >"$FF_LOG"
ff_read_ctl || fail "reading the control file"
grep -q '^rule' "$WORK/ff.status" && fail "a refused command added a rule: $(cat "$WORK/ff.status")"

# Delays: 20 reads delayed 20 ms take at least 0.4 s; uniform and
# exponential delays sum within their range and repeat with the seed.
ff_cmd clear 'delay read fixed=20ms path=/f'
t0=$(now_ms)
dd if="$M/f" of=/dev/null bs=4096 count=20 2>/dev/null || fail "delayed reads failed"
t1=$(now_ms)
[ $((t1 - t0)) -ge 400 ] || fail "20 reads delayed 20 ms took $((t1 - t0)) ms"
[ "$(ff_fired 1)" = 20 ] && [ "$(ff_slept_us 1)" = 400000 ] ||
	fail "fixed delay counts: $(cat "$FF_CTL")"
for dist in 'read uniform=5ms,15ms path=/f' 'write exp=2ms path=/e'; do
	sums=""
	for _ in 1 2; do
		ff_cmd clear 'seed 7' "delay $dist"
		t0=$(now_ms)
		case $dist in
		read*) dd if="$M/f" of=/dev/null bs=4096 count=20 2>/dev/null ;;
		*) dd if=/dev/zero of="$M/e" bs=4096 count=100 2>/dev/null ;;
		esac || fail "delay $dist: the I/O failed"
		t1=$(now_ms)
		us=$(ff_slept_us 1)
		[ $((t1 - t0)) -ge $((us / 1000)) ] ||
			fail "delay $dist: slept $us us in $((t1 - t0)) ms"
		# 20 x [5, 15] ms; 100 x exp(2 ms): mean 200 ms, sd 20 ms.
		[ "$us" -gt 100000 ] && [ "$us" -lt 300000 ] ||
			fail "delay $dist: $us us in all"
		sums="$sums $us"
	done
	set -- $sums
	[ "$1" = "$2" ] || fail "delay $dist: seed 7 gave $1 then $2 us"
done

# A device that keeps slowing: fixed=1ms grow=4ms delays a write 1 ms
# and 4 ms more for every second since the rule was set, about 5 ms a
# second after it and 9 ms two seconds after it. Each delay lies within
# what the times taken around the rule and the write allow (date is to
# the ms; a little slack for that and for the clocks).
ff_cmd clear
ts0=$(now_ms)
ff_cmd 'delay write fixed=1ms grow=4ms path=/g'
ts1=$(now_ms)
ff_read_ctl || fail "reading the control file"
grep -q '^rule 1 fired=0 matched=0 slept_us=0: delay write fixed=1ms grow=4ms path=/g$' \
	"$WORK/ff.status" || fail "grow: status: $(cat "$WORK/ff.status")"
slept=0
for s in 1 2; do
	sleep 1
	t0=$(now_ms)
	dd if=/dev/zero of="$M/g" bs=4096 count=1 oflag=dsync 2>"$WORK/err" ||
		fail "grow: write $s: $(cat "$WORK/err")"
	t1=$(now_ms)
	us=$(($(ff_slept_us 1) - slept))
	slept=$((slept + us))
	lo=$((1000 + 4 * (t0 - ts1 - 1) - 50))
	hi=$((1000 + 4 * (t1 - ts0 + 1) + 50))
	[ "$us" -ge $lo ] && [ "$us" -le $hi ] ||
		fail "grow: write $s delayed $us us, expected $lo..$hi"
	[ $((t1 - t0)) -ge $((us / 1000)) ] ||
		fail "grow: write $s delayed $us us took $((t1 - t0)) ms"
	# About 5 ms when the first write came within 1.9 s of the rule (a
	# busy machine may put it off further; the bounds above still hold).
	[ $s = 1 ] && [ $((t1 - ts0)) -le 1900 ] &&
		{ [ "$us" -ge 3000 ] && [ "$us" -le 9000 ] ||
			fail "grow: the write 1 s after the rule was delayed $us us, not 3..9 ms"; }
	[ $s = 2 ] && [ "$us" -le "$prev" ] &&
		fail "grow: the later write was delayed $us us, not more than $prev"
	prev=$us
done
[ "$(ff_fired 1)" = 2 ] || fail "grow: fired $(ff_fired 1) times: $(cat "$FF_CTL")"
rm -f "$M/g"

# A write-back cache in front of a slow device: the first 1 MiB of
# writes pass undelayed, the next 2 MiB at 40 MiB/s (50 ms, less what
# each request spends between two sleeps, which the device works
# through; at least 30 ms), and a sync or a truncate does not refill
# the cache.
ff_cmd clear 'delay write rate=40m cache=1m path=/w'
dd if=/dev/zero of="$M/w" bs=65536 count=16 2>/dev/null || fail "cache: write"
ff_read_ctl || fail "reading the control file"
grep -q '^rule 1 fired=16 matched=16 slept_us=0 cached=1048576: ' "$WORK/ff.status" ||
	fail "cache: the first MiB was delayed: $(cat "$WORK/ff.status")"
sync "$M/w" 2>/dev/null
: >"$M/w"
t0=$(now_ms)
dd if=/dev/zero of="$M/w" bs=65536 count=32 2>/dev/null || fail "cache: write past it"
t1=$(now_ms)
[ $((t1 - t0)) -ge 30 ] || fail "cache: 2 MiB past a full cache at 40 MiB/s took $((t1 - t0)) ms"
us=$(ff_slept_us 1)
[ "$us" -ge 15000 ] && [ "$us" -le 50000 ] || fail "cache: slept $us us for 2 MiB at 40 MiB/s"
rm -f "$M/w"

# --cache: written data stays cached (a read fault does not fire) until
# evicted (POSIX_FADV_DONTNEED through dd's nocache), then it fires.
# Other tests beside this one can push the machine's page cache out in
# between (files of gigabytes under make check -j): a read that reached
# the rig is tried again on data written afresh, three times at most.
ff_umount
ff_mount "$B" "$M" --cache
for try in 1 2 3; do
	ff_cmd clear
	dd if=/dev/urandom of="$M/c" bs=65536 count=16 2>/dev/null || fail "--cache: write"
	ff_cmd 'fail read EIO path=/c'
	cat "$M/c" >/dev/null 2>"$WORK/err" && [ "$(ff_fired 1)" = 0 ] && break
	echo "--cache: try $try: a read reached the rig ($(cat "$WORK/err"))" >&2
	[ $try = 3 ] && fail "--cache: a cached read reached the rig three times: $(cat "$WORK/err")"
done
dd if="$M/c" iflag=nocache count=0 2>/dev/null
cat "$M/c" >/dev/null 2>"$WORK/err" && fail "--cache: after eviction the read did not reach the rig"
[ "$(ff_fired 1)" -ge 1 ] || fail "--cache: the fault did not fire after eviction"

ff_alive
ff_cmd clear
rm -f "$M"/* || fail "rm through the rig"
assert_empty "$B"
exit 0
