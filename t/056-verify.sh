#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --verify: every block clyde writes carries its offset, the run's seed,
# a generation and a CRC-32; every block read is checked. A clean run
# passes (every test, -c 2 and -D too) and its CSV line is a run's
# without --verify; what cannot go with it is refused in one line;
# --keep and --verify-only. What the fault rig shows (a flipped byte, a
# misplaced and a lost write found) is 160-verify-faults.sh's.
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
