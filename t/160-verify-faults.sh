#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --verify against the fault rig, as root: a byte flipped at a random
# offset of the data file on read is found every time (20 runs, each
# naming the block of that offset, in block input, and once each in the
# seeks and the random reads); a read given another offset's block is a
# misplaced write; a rewrite the storage dropped is a lost write. Each:
# exit 1, one line, no CSV line, the error in the JSON, nothing left
# behind. (A clean run, the refusals, --keep and --verify-only are
# 056-verify.sh's, which needs no rig.)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
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
