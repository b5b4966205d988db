#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A real run with tiny sizes: the table, a 50-field CSV line, the other
# formats and modes, and an empty scratch tree afterwards.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"

# The defaults run every test: the seek count and -n, not given, are
# what clyde sized (the count of seeks done in the size label, as
# bonnie++ writes a seek count of its own).
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -m box
assert_empty "$D"
grep -q '^Version clyde-' "$WORK/out" || fail "no table header"
grep -Eq '^box +16M:::[0-9]+ ' "$WORK/out" || fail "no result row: $(cat "$WORK/out")"
grep -q '^Latency  ' "$WORK/out" || fail "no Latency line"
csv=$(tail -n 1 "$WORK/out")
[ "$(fields "$csv")" = 50 ] || fail "CSV has $(fields "$csv") fields: $csv"
case "$csv" in 1.98,clyde-*,box,1,*,16M,,[1-9]*,5,*) ;; *) fail "CSV head: $csv" ;; esac
# Every figure filled; num_files a count, the other file settings default.
echo "$csv" | awk -F, '{
	for (i = 10; i <= 21; i++) if ($i == "") exit 1
	if ($8 !~ /^[1-9][0-9]*$/ || $22 !~ /^[1-9][0-9]*$/) exit 1
	for (i = 23; i <= 26; i++) if ($i != "") exit 1
	for (i = 27; i <= 38; i++) if ($i == "") exit 1
	for (i = 39; i <= 50; i++) if ($i !~ /^[0-9]+(us|ms|s)$/) exit 1
}' || fail "CSV fields: $csv"
grep -q 'Sequential Create' "$WORK/out" || fail "no file-test block by default"

grep -q 'Writing intelligently...done' "$WORK/err" || fail "no progress lines"
grep -q "^Using uid:$(id -u), gid:$(id -g)\.$" "$WORK/err" || fail "no uid line"
grep -q 'less than twice the RAM' "$WORK/err" && fail "-r 0 did not silence the size warning"

# -n 0: no file tests, their fields empty and their block not printed.
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -m box -n 0 -f -q
awk -F, '{ for (i = 22; i <= 38; i++) if ($i != "") exit 1
	   for (i = 45; i <= 50; i++) if ($i != "") exit 1 }' "$WORK/out" ||
	fail "-n 0 CSV: $(cat "$WORK/out")"
grep -q 'Sequential Create' "$WORK/err" && fail "-n 0 printed the file-test block"

# -n: the file tests fill the second block; every cell has a figure.
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -m box -n 1:4k:1k:2 -f 1m
assert_empty "$D"
grep -q '^Version clyde-.*Sequential Create' "$WORK/out" || fail "no file-test block"
grep -q '^files:max:min        /sec %CP' "$WORK/out" || fail "file-test header"
grep -Eq '^          1:4k:1k/2( +([0-9]+|\+\+\+\+\+) +([0-9]+|\+\+\+)){6}$' "$WORK/out" ||
	fail "file-test row: $(cat "$WORK/out")"
[ "$(grep -c '^Latency' "$WORK/out")" = 2 ] || fail "two Latency lines"
csv=$(tail -n 1 "$WORK/out")
[ "$(fields "$csv")" = 50 ] || fail "-n CSV has $(fields "$csv") fields"
echo "$csv" | awk -F, '{
	if ($22 != "1" || $23 != "4k" || $24 != "1k" || $25 != "2" || $26 != "") exit 1
	for (i = 27; i <= 50; i++) if ($i == "") exit 1
}' || fail "-n CSV fields: $csv"
for p in "Create files in sequential order" "Stat files in random order" \
	"Delete files in random order" "Seeking randomly"; do
	grep -q "$p...done" "$WORK/err" || fail "no progress line '$p'"
done

# -q: only the CSV line on stdout, the table on stderr, no progress.
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -q -f -n 0
assert_empty "$D"
[ "$(wc -l <"$WORK/out")" = 1 ] || fail "-q stdout: $(cat "$WORK/out")"
grep -q '^Version clyde-' "$WORK/err" || fail "-q: no table on stderr"
grep -q 'Writing' "$WORK/err" && fail "-q printed progress"
csv=$(cat "$WORK/out")
echo "$csv" | awk -F, '$10 != "" || $11 != "" || $16 != "" || $17 != "" { exit 1 }' ||
	fail "-f: per-char fields not empty: $csv"

# Other formats.
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -f -n 0 --csv=1.03 --format=1.03 -m box
[ "$(fields "$(tail -n 1 "$WORK/out")")" = 27 ] || fail "1.03 CSV: $(tail -n 1 "$WORK/out")"
grep -q '^Machine        Size K/sec %CP' "$WORK/out" || fail "1.03 table"
grep -q '^Latency' "$WORK/out" && fail "1.03 table has a Latency line"
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -f -n 0 --csv=1.97 -q
[ "$(fields "$(cat "$WORK/out")")" = 48 ] || fail "1.97 CSV: $(cat "$WORK/out")"

# -x 3: a header line, then one line per run, each with its own seed.
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -f -n 0 -x 3
[ "$(wc -l <"$WORK/out")" = 4 ] || fail "-x 3 stdout: $(cat "$WORK/out")"
head -n 1 "$WORK/out" | grep -q '^format_version,bonnie_version,name,' || fail "-x header"
[ "$(grep -c '^Version clyde-' "$WORK/err")" = 3 ] || fail "-x 3: tables not on stderr"
[ "$(tail -n 3 "$WORK/out" | cut -d, -f5 | sort -u | wc -l)" = 3 ] || fail "-x 3: seeds repeat"
# The summary: per figure n, mean, sd, min, max, CI; the mean is the
# mean of the CSV lines' figures.
grep -q '^Summary of 3 runs' "$WORK/err" || fail "-x 3: no summary"
want=$(tail -n 3 "$WORK/out" | awk -F, '{ s += $12 } END { printf "%.1f", s / 3 }')
awk -v w="$want" '$1 == "put_block" && $2 == "KiB/s" && $3 == 3 { found = 1
	if ($4 != w || !($5 >= 0) || $6 > $4 || $7 < $4 || $8 > $4 || $9 < $4) exit 1 }
	END { exit !found }' "$WORK/err" ||
	fail "-x 3 summary (mean should be $want): $(grep -A6 '^Summary' "$WORK/err")"
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -f -n 0 -x 2 -z 99 -q
[ "$(tail -n 2 "$WORK/out" | cut -d, -f5 | sort -u)" = 99 ] || fail "-z 99 not used"

# --per-char=syscall, and -b (per-char over 1 MiB: an fsync a write).
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -q --per-char=syscall -b -f 1m
assert_empty "$D"

# -v: the latency percentiles under the table; max is the Latency cell.
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -n 1 -v -m box -f 1m
grep -q '^Latency  *min  *mean  *p50  *p90  *p99  *p99.9  *max  *ops$' "$WORK/out" ||
	fail "-v: no percentile header: $(cat "$WORK/out")"
for t in putc put_block rewrite getc get_block seeks seq_create ran_del; do
	grep -Eq "^$t +([0-9]+(us|ms|s) +){7}[0-9]+$" "$WORK/out" || fail "-v: no row for $t"
done
lat=$(grep '^Latency  ' "$WORK/out" | head -n 1 | awk '{ print $3 }')
max=$(awk '$1 == "put_block" { print $8 }' "$WORK/out")
[ "$lat" = "$max" ] || fail "-v: put_block max $max is not the Latency cell $lat"
[ "$(awk '$1 == "put_block" { print $9 }' "$WORK/out")" = 2048 ] || fail "-v: put_block ops"
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -f --no-latency -q
grep -q '^put_block' "$WORK/err" && fail "--no-latency printed percentiles"
grep -q '^Latency  ' "$WORK/err" || fail "--no-latency lost the Latency line"
# -v asks for the percentiles --no-latency does not record: refused.
expect_status 2 "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -f -v --no-latency -q
assert_empty "$D"

# -s 0 skips the I/O tests: empty fields, no table rows.
expect_status 0 "$CLYDE" -d "$D" -s 0 -r 0 -n 0 -q
awk -F, '{ for (i = 10; i <= 50; i++) if ($i != "") exit 1 }' "$WORK/out" ||
	fail "-s 0 CSV: $(cat "$WORK/out")"

# One line says how the cache is kept out. A file smaller than twice the
# RAM warns only where eviction fails: tmpfs keeps files in RAM.
expect_status 0 "$CLYDE" -d "$D" -s 16m -f -n 0 -q
grep -q '^clyde: data 16M, page cache evicted before each read test$' "$WORK/err" ||
	fail "no cache line: $(cat "$WORK/err")"
if [ "$(stat -f -c %T "$D")" = tmpfs ]; then
	[ "$(grep -c 'stayed in the page cache before rewrite' "$WORK/err")" = 1 ] ||
		fail "tmpfs: no RAM warning: $(cat "$WORK/err")"
else
	grep -q 'stayed in the page cache' "$WORK/err" &&
		fail "eviction did not work on $(stat -f -c %T "$D"): $(cat "$WORK/err")"
fi
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	S=$(mktemp -d /dev/shm/clyde-t.XXXXXX)
	at_exit rm -rf "$S"
	expect_status 0 "$CLYDE" -d "$S" -s 16m -f -n 0 -q
	grep -q '^clyde: warning: 100% of the data file stayed in the page cache before rewrite' "$WORK/err" ||
		fail "tmpfs: no RAM warning: $(cat "$WORK/err")"
	expect_status 0 "$CLYDE" -d "$S" -s 16m -f -n 0 -q -r 0
	grep -q 'stayed in the page cache' "$WORK/err" && fail "-r 0 did not silence the warning"
	assert_empty "$S"
fi

# -D: per-char skipped with one note, the block tests still run.
if "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -D -q >"$WORK/out" 2>"$WORK/err"; then
	grep -q 'per-char tests skipped under -D' "$WORK/err" || fail "-D: no skip note"
	awk -F, '$10 != "" || $12 == "" || $18 == "" { exit 1 }' "$WORK/out" ||
		fail "-D fields: $(cat "$WORK/out")"
else
	grep -q 'does not take O_DIRECT' "$WORK/err" || fail "-D failed: $(cat "$WORK/err")"
fi
assert_empty "$D"
exit 0
