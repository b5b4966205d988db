#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --verify: every block clyde writes carries its offset, the run's seed,
# a generation and a CRC-32; every block read is checked. A clean run
# passes (every test, -c 2 and -D too) and its CSV line is a run's
# without --verify; what cannot go with it is refused in one line. As
# root, through the fault rig: a byte flipped at a random offset of the
# data file on read is found every time (20 runs, each naming the block
# of that offset, in block input, and once each in the seeks and the
# random reads); a read given another offset's block is a misplaced
# write; a rewrite the storage dropped is a lost write. Each: exit 1,
# one line, no CSV line, the error in the JSON, nothing left behind.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
D="$WORK/d"
mkdir "$D"

# A clean run of every test, and under -c 2 and -D (a seek count given,
# so that the two runs' labels can be the same).
expect_status 0 "$CLYDE" -d "$D" -s 16m::8192 -r 0 -n 1 -q -z 3 --verify --iodepth=4 \
	--json="$WORK/v.json"
jq -e '.settings.verify == true and (.runs[0].error == null or .runs[0].error == "")' \
	"$WORK/v.json" >/dev/null || fail "clean run: $(jq -c '[.settings.verify, .runs[0].error]' "$WORK/v.json")"
v_line=$(grep '^1\.98,' "$WORK/out" | cut -d, -f1-9)
expect_status 0 "$CLYDE" -d "$D" -s 16m::8192 -r 0 -n 1 -q -z 3 --iodepth=4
[ "$(grep '^1\.98,' "$WORK/out" | cut -d, -f1-9)" = "$v_line" ] ||
	fail "--verify changed the CSV labels: $v_line"
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -q -c 2 --verify
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -q -D --verify
assert_empty "$D"

# What cannot go with it.
expect_refused "^clyde: --verify with --data 'dedupe:30': a block that repeats another cannot carry its own offset" \
	"$CLYDE" -d "$D" --verify --data=dedupe:30
expect_refused "^clyde: --verify with the chunk size '512': verified blocks are 4 KiB" \
	"$CLYDE" -d "$D" --verify -s 16m:512
expect_refused "^clyde: --verify with --ran-bs '512': verified blocks are 4 KiB" \
	"$CLYDE" -d "$D" --verify --ran-bs=512

# --keep leaves the data file of a run that ended well, named by its
# seed; --verify-only checks it (never writing it): sound; a flipped
# byte; an older generation's block (a lost write); another offset's
# (misplaced). A file of that name already there is not overwritten.
K="$WORK/k"
mkdir "$K"
expect_status 0 "$CLYDE" -d "$K" -s 16m -r 0 -n 0 -q -z 42 --verify --only=put_block --keep
mv "$K/clyde-kept.42" "$WORK/gen1"
expect_status 0 "$CLYDE" -d "$K" -s 16m -r 0 -n 0 -q -z 42 --verify --keep
grep -qx "clyde: --keep: the data file is '$K/clyde-kept.42' (check it with clyde --verify-only='$K/clyde-kept.42')" "$WORK/err" ||
	fail "--keep: $(cat "$WORK/err")"
[ "$(ls -A "$K")" = clyde-kept.42 ] || fail "--keep left $(ls -A "$K")"
KF="$K/clyde-kept.42"
sum=$(md5sum <"$KF") mt=$(stat -c %Y.%Z "$KF")
expect_status 0 "$CLYDE" --verify-only="$KF"
grep -qx "$KF: 4096 blocks of 4 KiB checked, all sound (seed 42, generation 2)" "$WORK/out" ||
	fail "--verify-only: $(cat "$WORK/out" "$WORK/err")"
[ "$(md5sum <"$KF")" = "$sum" ] && [ "$(stat -c %Y.%Z "$KF")" = "$mt" ] ||
	fail "--verify-only changed the file"
# badblock OFF: the copy in $WORK/bad with one byte at OFF changed.
cp "$KF" "$WORK/bad"
printf 'Z' | dd of="$WORK/bad" bs=1 seek=5000000 conv=notrunc status=none
expect_status 1 "$CLYDE" --verify-only="$WORK/bad"
grep -qx "clyde: --verify-only '$WORK/bad': block at offset 4997120: bad magic or CRC (corrupt data)" "$WORK/err" ||
	fail "--verify-only, flipped: $(cat "$WORK/err")"
cp "$KF" "$WORK/bad"
dd if="$WORK/gen1" of="$WORK/bad" bs=4096 skip=100 seek=100 count=1 conv=notrunc status=none
expect_status 1 "$CLYDE" --verify-only="$WORK/bad"
grep -qx "clyde: --verify-only '$WORK/bad': 1 of 4096 blocks are of an older generation than the newest, 2 (lost writes); the first at offset 409600 is generation 1" "$WORK/err" ||
	fail "--verify-only, lost: $(cat "$WORK/err")"
cp "$KF" "$WORK/bad"
dd if="$KF" of="$WORK/bad" bs=4096 skip=5 seek=9 count=1 conv=notrunc status=none
expect_status 1 "$CLYDE" --verify-only="$WORK/bad"
grep -qx "clyde: --verify-only '$WORK/bad': block at offset 36864 holds the block of offset 20480 (misplaced write)" "$WORK/err" ||
	fail "--verify-only, misplaced: $(cat "$WORK/err")"
expect_status 2 "$CLYDE" --verify-only="$WORK/none"
grep -qx "clyde: --verify-only '$WORK/none': No such file or directory" "$WORK/err" ||
	fail "--verify-only, missing: $(cat "$WORK/err")"
# Not opened at all unless a regular file: a FIFO would wait for a writer.
mkfifo "$WORK/fifo"
expect_status 2 timeout 20 "$CLYDE" --verify-only="$WORK/fifo"
grep -qx "clyde: --verify-only '$WORK/fifo': not a regular file" "$WORK/err" ||
	fail "--verify-only, a FIFO: $(cat "$WORK/err")"
# A file of the name there: kept as it was, the run's data file removed.
expect_status 1 "$CLYDE" -d "$K" -s 16m -r 0 -n 0 -q -z 42 --keep --only=put_block
grep -q "^clyde: --keep: could not keep the data file as '$KF': File exists; it is removed$" "$WORK/err" ||
	fail "--keep over a file: $(cat "$WORK/err")"
[ "$(md5sum <"$KF")" = "$sum" ] || fail "--keep wrote over a file"
[ "$(ls -A "$K")" = clyde-kept.42 ] || fail "--keep over a file left $(ls -A "$K")"
# Under -c 2, each worker's.
rm -f "$KF"
expect_status 0 "$CLYDE" -d "$K" -s 16m -r 0 -n 0 -q -z 42 -c 2 --verify --keep --only=put_block
[ "$(ls -A "$K" | tr '\n' ' ')" = "clyde-kept.42.w.1 clyde-kept.42.w.2 " ] || fail "-c 2 --keep: $(ls -A "$K")"
# Each names the run's seed (-z 42) and the worker, and its content's.
for w in 1 2; do
	expect_status 0 "$CLYDE" --verify-only="$K/clyde-kept.42.w.$w"
	grep -qx "$K/clyde-kept.42.w.$w: 4096 blocks of 4 KiB checked, all sound (run seed 42, worker $w's content seed [0-9]*, generation 1)" "$WORK/out" ||
		fail "--verify-only, worker $w: $(cat "$WORK/out" "$WORK/err")"
done
# The same file under another name: its content's seed alone.
cp "$K/clyde-kept.42.w.2" "$WORK/renamed"
expect_status 0 "$CLYDE" --verify-only="$WORK/renamed"
grep -qx "$WORK/renamed: 4096 blocks of 4 KiB checked, all sound (seed [0-9]*, generation 1)" "$WORK/out" ||
	fail "--verify-only, renamed: $(cat "$WORK/out" "$WORK/err")"
rm -f "$WORK/renamed"
# A symbolic link to a kept file: refused as one, not followed.
ln -s "$K/clyde-kept.42.w.1" "$WORK/link"
expect_status 2 "$CLYDE" --verify-only="$WORK/link"
grep -qx "clyde: --verify-only '$WORK/link': a symbolic link, not followed: name the file itself" "$WORK/err" ||
	fail "--verify-only, a link: $(cat "$WORK/err")"
rm -f "$WORK/link" "$K"/clyde-kept.*

[ "$(id -u)" = 0 ] || skip "the fault rig needs root"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"
ff_setup
SIZE=$((16 * 1024 * 1024))

# caught RULE WHAT PATTERN CLYDE-ARGS...: with only RULE armed, a
# --verify run on the rig exits 1 with one line matching PATTERN, no
# CSV line, the error in the JSON, and leaves nothing behind.
caught() {
	rule=$1 what=$2 pat=$3
	shift 3
	ff_cmd clear "$rule"
	"$CLYDE" -d "$M" -s 16m::8192 -r 0 -n 0 -q -z 9 --verify --json="$WORK/f.json" "$@" \
		>"$WORK/out" 2>"$WORK/err"
	st=$?
	[ "$st" = 1 ] || fail "$what: exit $st: $(cat "$WORK/err")"
	# (The line on the data size comes first, under -q too.)
	grep -v '^clyde: data 16M, ' "$WORK/err" >"$WORK/err1"
	[ "$(wc -l <"$WORK/err1")" = 1 ] || fail "$what: not one line: $(cat "$WORK/err")"
	grep -q "$pat" "$WORK/err1" || fail "$what: $(cat "$WORK/err")"
	grep -q '^1\.98,' "$WORK/out" && fail "$what: a CSV line: $(cat "$WORK/out")"
	jq -e --arg e "$(sed 's/^clyde: //' "$WORK/err1")" '.runs[0].error == $e' "$WORK/f.json" >/dev/null ||
		fail "$what: JSON error $(jq -c .runs[0].error "$WORK/f.json")"
	[ -z "$(ls -A "$B")" ] || fail "$what: left $(ls -A "$B")"
	ff_alive
}

# A byte flipped at a random offset, 20 times: each found, in its block.
i=0
while [ $i -lt 20 ]; do
	off=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	off=$((off % SIZE))
	blk=$((off / 4096 * 4096))
	caught "flip read off=$off len=1 xor=16 path=*/data" "flip at $off" \
		"^clyde: block input: verify .*/data: block at offset $blk: bad \(CRC\|magic\) (corrupt data): expected 0x[0-9a-f]*, found 0x[0-9a-f]*$" \
		--only=get_block
	i=$((i + 1))
done
echo "20 flips at random offsets: 20 found, each in its block" >&2
off=$((5 * 1048576 + 77))
caught "flip read off=$off len=1 xor=1 path=*/data" "flip, seeks" \
	"^clyde: random seeks: verify .*/data: block at offset 5242880: bad CRC (corrupt data)" --only=seeks
caught "flip read off=$off len=1 xor=1 path=*/data" "flip, ran_read" \
	"^clyde: random reads: verify .*/data: block at offset 5242880: bad CRC (corrupt data)" \
	--only=ran_read --iodepth=8

# Another offset's block: a misplaced write.
caught "remap read off=1048576 len=4096 from=8388608 path=*/data" "remap" \
	"^clyde: block input: verify .*/data: block at offset 1048576 holds the block of offset 8388608 (misplaced write)$" \
	--only=get_block
# The rewrite of one block lost (the first write, block output's, passes):
# block input finds the older generation.
caught "drop write off=2097152 len=4096 after=1 path=*/data" "drop" \
	"^clyde: block input: verify .*/data: block at offset 2097152 is generation 1, expected 2 (lost write)$" \
	--only=rewrite,get_block
[ "$(ff_fired 1)" = 1 ] || fail "drop fired $(ff_fired 1) times"
exit 0
