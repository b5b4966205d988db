#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The write-cache cliff against a cache of known size: the fault rig as
# a write-back cache of 96 MiB in front of a 20 MiB/s device (delay write
# rate=20m cache=96m: the first 96 MiB of writes pass at the rig's own
# speed, the rest at 20 MiB/s; nothing refills it).
#   Block output of 192 MiB, and random writes of 64k after the data
#   file's 192 MiB were made (skip=192m: the rule starts after them),
#   each report the cliff: absorbed within 10% of 96 MiB, sustained
#   within 5% of 20 MiB/s, the burst at least twice that; in the table,
#   the JSON, and clyde-report's txt of the JSON.
#   clyde-zcav -w of a file on the rig finds it too, over its blocks.
#   The same rig without its cache (a flat 20 MiB/s) gives no cliff and
#   says why.
#   As root, a loop device under a blkio cap (a flat 1000 writes a
#   second, -D) gives none either. contrib/bench/cliff-truth.sh runs each
#   of these ten times.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
ff_setup
MIB=1048576

# run NAME ARGS...: clyde on the rig, its table in $WORK/NAME.out (-q
# puts it on stderr, with the other lines), its JSON in $WORK/NAME.json;
# nothing left behind.
run() {
	rn=$1
	shift
	"$CLYDE" -d "$M" -r 0 -n 0 -q --json="$WORK/$rn.json" "$@" \
		>"$WORK/$rn.csv" 2>"$WORK/$rn.out" ||
		fail "clyde $*: $(cat "$WORK/$rn.out")"
	assert_empty "$B"
}

# cliff NAME TEST: the cliff TEST of run NAME found where the rig put it.
cliff() {
	c=".runs[0].tests.$2.cliff"
	# On a machine busy enough, the rig's burst itself can stall for
	# longer than a tenth of a second: measured once more, as a figure.
	if [ "$(jq "$c.found" "$WORK/$1.json")" != true ]; then
		echo "$2: no cliff: $(jq -c "$c" "$WORK/$1.json")" >&2
		missed_figure "$2 cliff" none 0 found
		return 0
	fi
	absorbed=$(jq "$c.absorbed_bytes" "$WORK/$1.json")
	sustained=$(jq "$c.sustained_bytes_per_s" "$WORK/$1.json")
	burst=$(jq "$c.burst_bytes_per_s" "$WORK/$1.json")
	near "$2 absorbed" "$absorbed" $((96 * MIB)) 10
	near "$2 sustained" "$sustained" $((20 * MIB)) 5
	awk -v b="$burst" -v s="$sustained" 'BEGIN { exit !(b >= 2 * s) }' ||
		missed_figure "$2 burst" "$burst" 0 ">= 2 x $sustained"
	# The table's row says the same, in MiB.
	grep -q "^Write cache  *test  *burst MiB/s sustained MiB/s  *absorbed  *drop at$" \
		"$WORK/$1.out" || fail "$2: no Write cache heading: $(cat "$WORK/$1.out")"
	row=$(grep "^[^ ].* $2  " "$WORK/$1.out" | grep 'MiB .* s$') ||
		fail "$2: no cliff row: $(cat "$WORK/$1.out")"
	set -- $row
	[ "$(awk -v a="$absorbed" -v m=$MIB 'BEGIN { printf "%.1f", a / m }')" = "$5" ] ||
		fail "$2: the row's absorbed $5 MiB is not the JSON's $absorbed bytes"
}

# Block output: the cache takes the first half of the file. Random
# writes: the data file is made first, then the cache is met.
both() {
	ff_cmd clear 'delay write rate=20m cache=96m'
	run put -s 192m --only=put_block
	cliff put put_block
	ff_cmd clear 'delay write rate=20m cache=96m skip=192m'
	run ran -s 192m --only=ran_write --ran-bs=64k --ran-time=5
	cliff ran ran_write
}
both
while measure_again; do
	both
done
judge_figures

# clyde-zcav -w over a file on the rig: 8 MiB blocks, the cliff after
# the passes, in the lines, the document and clyde-report's txt of it.
ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
truncate -s 160m "$M/z" || fail "truncate"
ff_cmd clear 'delay write rate=20m cache=96m'
"$ZCAV" -w -b 8 --destroy-data="$M/z" --json="$WORK/z.json" "$M/z" >"$WORK/z.out" 2>"$WORK/err" ||
	fail "clyde-zcav -w: $(cat "$WORK/err")"
rm -f "$M/z"
grep -q '^#cliff: burst [0-9.]* MiB/s, sustained [0-9.]* MiB/s, [0-9.]* MiB absorbed, the drop at [0-9.]* s$' \
	"$WORK/z.out" || fail "clyde-zcav: no cliff line: $(tail -3 "$WORK/z.out")"
near "zcav absorbed" "$(jq '.targets[0].cliff.absorbed_bytes' "$WORK/z.json")" $((96 * MIB)) 10
near "zcav sustained" "$(jq '.targets[0].cliff.sustained_bytes_per_s' "$WORK/z.json")" $((20 * MIB)) 5
judge_figures
"$R" txt "$WORK/z.json" 2>"$WORK/err" | grep -x "$(grep '^#cliff' "$WORK/z.out")" >/dev/null ||
	fail "report txt of the zcav document: not the same cliff line"

# clyde-report's txt of the document prints the same section.
"$R" txt "$WORK/ran.json" >"$WORK/ran.txt" 2>"$WORK/err" || fail "report txt: $(cat "$WORK/err")"
grep '^Write cache' -A1 "$WORK/ran.out" >"$WORK/want"
grep '^Write cache' -A1 "$WORK/ran.txt" >"$WORK/got"
cmp -s "$WORK/want" "$WORK/got" || fail "report txt: $(cat "$WORK/got") against $(cat "$WORK/want")"

# Without the cache: no cliff, and the reason on the row.
ff_cmd clear 'delay write rate=20m'
run flat -s 32m --only=put_block,get_block,ran_write --ran-bs=64k --ran-time=1
for t in put_block ran_write; do
	[ "$(jq ".runs[0].tests.$t.cliff.found" "$WORK/flat.json")" = false ] ||
		fail "$t: a cliff on a flat rate: $(jq -c ".runs[0].tests.$t.cliff" "$WORK/flat.json")"
	grep -q "^[^ ].* $t  *no cliff: ." "$WORK/flat.out" ||
		fail "$t: no reason given: $(cat "$WORK/flat.out")"
done
# Not looked for in block input, which does not write.
jq -e '.runs[0].tests.get_block.status | test("ok|too-fast")' "$WORK/flat.json" >/dev/null &&
	[ "$(jq '.runs[0].tests.get_block | has("cliff")' "$WORK/flat.json")" = false ] ||
	fail "block input: $(jq -c '.runs[0].tests.get_block' "$WORK/flat.json")"
ff_umount

# A plainly capped device, as root: no cliff.
[ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/blkio/cgroup.procs ] &&
	[ -e /sys/fs/cgroup/blkio/blkio.throttle.write_iops_device ] &&
	command -v mkfs.ext4 >/dev/null || {
	echo "skipped the capped device: needs root, blkio (v1) and mkfs.ext4" >&2
	exit 0
}
rmdir "$M"
ext4_rig 100
iops_cgroup
caps 0 1000
in_cgroup "$CLYDE" -d "$MNT" -r 0 -n 0 -q -D -s 24m --only=put_block \
	--json="$WORK/cap.json" >/dev/null 2>"$WORK/err" || fail "capped: $(cat "$WORK/err")"
[ "$(jq '.runs[0].tests.put_block.cliff.found' "$WORK/cap.json")" = false ] ||
	fail "a cliff under a flat cap: $(jq -c '.runs[0].tests.put_block.cliff' "$WORK/cap.json")"
echo "capped: $(jq -r '.runs[0].tests.put_block.cliff.why' "$WORK/cap.json")" >&2
exit 0
