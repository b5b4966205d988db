#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-zcav --json and clyde-sweep --json (any user): the document names
# its program and schema version and holds the very figures the text
# printed; --json=FILE leaves standard output as it was, --json alone or
# --json=- puts the document alone on standard output and the text on
# standard error; a FILE that cannot be written is refused before the
# first test with exit 2 and nothing left behind.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
command -v jq >/dev/null 2>&1 || skip "jq not installed"

head -c $((20 * 1048576)) /dev/urandom >"$WORK/f20" || fail "making data"

# zcav_lines DOC: the block and summary lines zcav prints, rebuilt from
# the document's numbers.
zcav_lines() {
	jq -r '.targets[0] | (.blocks[] | [.offset, .mib_s, .mean_seconds] | @tsv),
		(.summary[] | "S\t\(.bytes)\t\(.seconds)")' "$1" |
	awk -F'\t' '
	$1 == "S" { b = $2; s = $3; big = (b >= 1073741824)
		printf "# Read %d %s in %d seconds, %d megabytes per second.\n",
			int(big ? b / 1073741824 : b / 1048576),
			(big ? "gigs" : "megs"), int(s), int(s > 0 ? b / 1048576 / s : 0)
		next }
	{ gib = $1 / 1073741824
	  if ($3 < 0.5) printf "#%.2f ++++ %.3f\n", gib, $3
	  else printf "%.2f %.2f %.3f\n", gib, $2, $3 }'
}

# --json=FILE: the lines on stdout as ever, the document in FILE.
expect_status 0 "$ZCAV" -b 4 --json="$WORK/z.json" "$WORK/f20"
[ "$(jq -r .program "$WORK/z.json")" = clyde-zcav ] || fail "program"
[ "$(jq -r '.schema_version | type' "$WORK/z.json")" = number ] &&
	[ "$(jq .schema_version "$WORK/z.json")" = 1 ] || fail "schema_version"
[ "$(jq '.targets[0].blocks | length' "$WORK/z.json")" = 5 ] ||
	fail "blocks: $(cat "$WORK/z.json")"
[ "$(jq -r '.targets[0].kind' "$WORK/z.json")" = file ] || fail "kind"
grep -v '^#loops\|^#block' "$WORK/out" >"$WORK/lines"
zcav_lines "$WORK/z.json" >"$WORK/rebuilt"
cmp -s "$WORK/lines" "$WORK/rebuilt" ||
	fail "figures differ: printed $(cat "$WORK/lines"); document $(cat "$WORK/rebuilt")"

# Two passes: each block's seconds per pass, the line its trimmed mean.
expect_status 0 "$ZCAV" -b 4 -c 2 --json="$WORK/z2.json" "$WORK/f20"
[ "$(jq '[.targets[0].blocks[].seconds | length] | unique' -c "$WORK/z2.json")" = "[2]" ] ||
	fail "-c 2: $(cat "$WORK/z2.json")"
[ "$(jq '.targets[0].summary | length' "$WORK/z2.json")" = 2 ] || fail "-c 2 summary"

# --json and --json=-: the document alone on stdout, the lines on stderr.
for opt in --json --json=-; do
	expect_status 0 "$ZCAV" -b 4 $opt "$WORK/f20"
	jq -e '.program == "clyde-zcav"' "$WORK/out" >/dev/null ||
		fail "$opt: stdout is not the document: $(cat "$WORK/out")"
	grep -q '^# Read 20 megs in' "$WORK/err" || fail "$opt: no lines on stderr"
done
# With -l the lines go to the log and stdout holds only the document.
expect_status 0 "$ZCAV" -b 4 --json -l "$WORK/log" "$WORK/f20"
jq -e . "$WORK/out" >/dev/null || fail "-l with --json: $(cat "$WORK/out")"
grep -q '^# Read 20 megs' "$WORK/log" || fail "-l with --json: no log"

# A FILE that cannot be made: refused before the first read.
mkdir "$WORK/o" "$WORK/o/dir"
for bad in "$WORK/o/dir" "$WORK/o/none/z.json"; do
	expect_status 2 "$ZCAV" -b 4 --json="$bad" "$WORK/f20"
	[ ! -s "$WORK/out" ] || fail "--json=$bad: read before refusing"
	grep -q "^clyde-zcav: --json .*$bad" "$WORK/err" ||
		fail "--json=$bad: $(cat "$WORK/err")"
done
[ "$(ls -A "$WORK/o")" = dir ] || fail "left in $WORK/o: $(ls -A "$WORK/o")"
expect_status 2 "$ZCAV" -b 4 -l "$WORK/same" --json="$WORK/same" "$WORK/f20"
grep -q "the same file as -l" "$WORK/err" || fail "same file: $(cat "$WORK/err")"
expect_status 2 "$ZCAV" --json= "$WORK/f20"

# clyde-sweep on a directory.
mkdir "$WORK/d"
expect_status 0 "$SWEEP" -s 4m -B 4k,64k --json="$WORK/s.json" "$WORK/d"
assert_empty "$WORK/d"
[ "$(jq -r .program "$WORK/s.json")" = clyde-sweep ] || fail "sweep program"
[ "$(jq .schema_version "$WORK/s.json")" = 1 ] || fail "sweep schema_version"
grep "^$WORK/d," "$WORK/out" >"$WORK/csv"
jq -r '.stages[] as $s | $s.cells[] |
	[$s.target, $s.fs, .mode, .block_size, .op, .bytes, .seconds, .mb_s,
	 .cpu_percent] | @tsv' "$WORK/s.json" |
	awk -F'\t' '{ printf "%s,%s,%s,%d,%s,%d,%.6f,%.1f,%d\n",
		$1, $2, $3, $4, $5, $6, $7, $8, $9 }' >"$WORK/csv2"
[ "$(wc -l <"$WORK/csv")" = 8 ] || fail "sweep: $(cat "$WORK/out")"
cmp -s "$WORK/csv" "$WORK/csv2" ||
	fail "sweep figures differ: printed $(cat "$WORK/csv"); document $(cat "$WORK/csv2")"
grep -q '^target  *op' "$WORK/out" || fail "sweep --json=FILE: no table on stdout"

for opt in --json --json=-; do
	expect_status 0 "$SWEEP" -s 4m -B 64k $opt "$WORK/d"
	jq -e '.program == "clyde-sweep"' "$WORK/out" >/dev/null ||
		fail "sweep $opt: stdout is not the document: $(cat "$WORK/out")"
	grep -q "^$WORK/d,.*,65536,read," "$WORK/err" ||
		fail "sweep $opt: no CSV on stderr: $(cat "$WORK/err")"
done

for bad in "$WORK/o/dir" "$WORK/o/none/s.json"; do
	expect_status 2 "$SWEEP" -s 4m -B 64k --json="$bad" "$WORK/d"
	[ ! -s "$WORK/out" ] || fail "sweep --json=$bad: ran before refusing"
	grep -q "^clyde-sweep: --json .*$bad" "$WORK/err" ||
		fail "sweep --json=$bad: $(cat "$WORK/err")"
done
[ "$(ls -A "$WORK/o")" = dir ] || fail "left in $WORK/o: $(ls -A "$WORK/o")"
assert_empty "$WORK/d"
exit 0
