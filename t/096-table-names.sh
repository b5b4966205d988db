#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The table keeps every -m name whole: a size label that carries a seek
# count (chosen for the target, or given) or a chunk widens the columns
# left of the cells, on every line of both blocks alike, instead of
# cutting the name as bonnie++ does; a label bonnie++'s 19 columns hold
# leaves the table as it was. Such a label is explained once, in a line
# under the blocks. The CSV line is bonnie++'s whatever the table does,
# and bon_csv2txt (when installed) takes it.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"
LEGEND='Size label: size:chunk:concurrency:seeks:seek procs (empty: the default)'

# csv_is PREFIX: the run's CSV line starts with PREFIX (seed as [0-9]*).
csv_is() {
	grep -q "^$1" "$WORK/out" || fail "CSV line: $(grep '^1\.' "$WORK/out")"
	[ "$(fields "$(grep '^1\.98,' "$WORK/out")")" = 50 ] || fail "not 50 fields"
	if command -v bon_csv2txt >/dev/null 2>&1; then
		grep '^1\.98,' "$WORK/out" | bon_csv2txt >"$WORK/bon" 2>"$WORK/bon.err" ||
			fail "bon_csv2txt refused: $(cat "$WORK/bon.err")"
		[ -s "$WORK/bon.err" ] && fail "bon_csv2txt complained: $(cat "$WORK/bon.err")"
	fi
	return 0
}

# line_len PATTERN: the length of the first line of stdout matching it.
line_len() {
	grep -m1 -- "$1" "$WORK/out" | awk '{ print length($0) }'
}

# aligned: the I/O block's lines as long as its row, Latency 2 shorter
# (bonnie++'s own layout), so the cells stand under their headings.
aligned() {
	row=$(line_len "^$1 ")
	for p in '^Version ' '-Per Chr-' '^Name:Size etc'; do
		[ "$(line_len "$p")" = "$row" ] ||
			fail "'$p' line is $(line_len "$p") long, the row $row: $(cat "$WORK/out")"
	done
	[ "$(line_len '^Latency ')" = $((row - 2)) ] ||
		fail "Latency line $(line_len '^Latency '), row $row: $(cat "$WORK/out")"
}

# The seek count chosen for the target (seeks for 3 s): the name whole.
expect_status 0 "$CLYDE" -d "$D" -m buffered -s 16m -n 0 -r 0 --only=put_block,seeks
grep -q '^buffered 16M:::[0-9][0-9]* ' "$WORK/out" ||
	fail "chosen seeks: name cut: $(cat "$WORK/out")"
aligned buffered
[ "$(grep -cxF "$LEGEND" "$WORK/out")" = 1 ] || fail "no legend: $(cat "$WORK/out")"
csv_is '1\.98,clyde-[^,]*,buffered,1,[0-9]*,16M,,[0-9]*,5,'

# A long name, a chunk and a seek count given, with a file block.
expect_status 0 "$CLYDE" -d "$D" -m buffered-array-07 -s 16m:4k:2000 -n 1 -r 0 \
	--only=put_block,seeks,seq_create
grep -q '^buffered-array-07 16M:4k::2000 ' "$WORK/out" ||
	fail "long name: $(cat "$WORK/out")"
aligned buffered-array-07
# The file block: as wide, the name whole above it.
grep -q '^Version .*------Sequential Create' "$WORK/out" || fail "no file block"
[ "$(grep '^Version .*Create' "$WORK/out" | awk '{ print length($0) }')" = "$(line_len '^buffered-array-07 16M')" ] ||
	fail "file block heading not as wide: $(cat "$WORK/out")"
grep -q '^buffered-array-07  *-Create--' "$WORK/out" || fail "file block name: $(cat "$WORK/out")"
grep -q '^  *1  *[0-9+]' "$WORK/out" || fail "file row: $(cat "$WORK/out")"
# The legend once, under both blocks, before the sections after them.
[ "$(grep -cxF "$LEGEND" "$WORK/out")" = 1 ] || fail "legend: $(cat "$WORK/out")"
awk -v l="$LEGEND" '$0 == l { seen = 1 } /Create/ && seen { bad = 1 }
	END { exit bad || !seen }' "$WORK/out" || fail "legend not under the blocks: $(cat "$WORK/out")"
csv_is '1\.98,clyde-[^,]*,buffered-array-07,1,[0-9]*,16M,4k,2000,5,'
# The 1.03 layout: its size:chunk label, the name whole too.
expect_status 0 "$CLYDE" -d "$D" -m buffered-array-07 -s 16m:4k:2000 -n 0 -r 0 \
	--only=put_block,seeks --format=1.03
grep -q '^buffered-array-07 16M:4k ' "$WORK/out" || fail "1.03: $(cat "$WORK/out")"
grep -qxF 'Size label: size:chunk (empty: the default)' "$WORK/out" || fail "1.03 legend: $(cat "$WORK/out")"

# A name and label that fit: bonnie++'s 19 columns, no legend.
expect_status 0 "$CLYDE" -d "$D" -m cb -s 16m::8192 -n 0 -r 0 --only=put_block
grep -q '^cb \{14\}16M ' "$WORK/out" || fail "short: $(cat "$WORK/out")"
aligned cb
grep -q '^Size label' "$WORK/out" && fail "legend for a bare size: $(cat "$WORK/out")"
[ "$(line_len '^Name:Size etc')" = 79 ] || fail "table widened: $(cat "$WORK/out")"

# -x 2: the tables on stderr, the legend once.
expect_status 0 "$CLYDE" -d "$D" -m buffered-array-07 -s 16m::500 -n 0 -r 0 \
	--only=put_block,seeks -x 2
[ "$(grep -c '^buffered-array-07 16M:::500 ' "$WORK/err")" = 2 ] || fail "-x 2 rows: $(cat "$WORK/err")"
[ "$(grep -cxF "$LEGEND" "$WORK/err")" = 1 ] || fail "-x 2 legend: $(cat "$WORK/err")"
assert_empty "$D"
exit 0
