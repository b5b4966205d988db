#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What clyde sizes itself when the user leaves it (no -s, no seek count,
# no -n): chosen, said in one stderr line, written in the size label, the
# CSV fields and the JSON settings (settings.auto) as bonnie++ writes its
# own; explicit values kept exactly; a chosen size within the room of a
# small filesystem. CLYDE_AUTO_SECONDS (src/clyde/autosize.h) keeps the
# targets short here; formats and behaviour are checked, not speed.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq not installed"
CLYDE_AUTO_SECONDS=0.3
export CLYDE_AUTO_SECONDS
D="$WORK/d"
mkdir "$D"

# field N LINE: CSV field N of LINE.
field() {
	echo "$2" | cut -d, -f"$1"
}

# No -s, seek count or -n: the probe, then every count chosen.
expect_status 0 "$CLYDE" -d "$D" -r 0 -f -m box --json="$WORK/a.json"
assert_empty "$D"
# A figure that sizes itself adds its own ", NAME for N s" after these.
line=$(grep '^clyde: sized ' "$WORK/err")
[ "$(grep -c '^clyde: sized ' "$WORK/err")" = 1 ] || fail "not one sized line: $(cat "$WORK/err")"
echo "$line" | grep -Eq '^clyde: sized for this target \(block writes +[0-9.]+[kmg]?/s, reads +[0-9.]+[kmg]?/s in a [0-9.]+ s probe\): data [0-9]+[MG]( \([^)]*\))?, seeks for 0\.3 s, -n from 0\.3 s of creates, stat passes for 0\.3 s, random reads and writes for 1 s, sync_write for 1 s(, [a-z][a-z0-9_]* for [0-9.]+ s)*$' ||
	fail "sized line: $line"
csv=$(tail -n 1 "$WORK/out")
size=$(field 6 "$csv") seeks=$(field 8 "$csv") num=$(field 22 "$csv")
echo "$line" | grep -q "data $size[ ,]" || fail "size $size is not the one said: $line"
case "$size" in *M) mib=${size%M} ;; *G) mib=$((${size%G} * 1024)) ;; *) fail "size field: $csv" ;; esac
[ "$mib" -ge 256 ] && [ $((mib % 256)) = 0 ] || fail "size $size: not whole 256M"
grep -q "^clyde: data $size (no -s given), " "$WORK/err" || fail "data line: $(cat "$WORK/err")"
echo "$seeks" | grep -Eq '^[1-9][0-9]*$' || fail "seeks field: $csv"
echo "$num" | grep -Eq '^[1-9][0-9]*$' || fail "files field: $csv"
grep -Eq "^box +$size:::$seeks " "$WORK/out" || fail "size label: $(cat "$WORK/out")"
grep -Eq "^ +$num( |$)" "$WORK/out" || fail "files label: $(cat "$WORK/out")"
# JSON: what was chosen and from what; the counts are the runs' work.
jq -e --argjson s "$seeks" --argjson n "$num" --argjson b "$((mib * 1048576))" '
	.settings as $g | $g.auto as $a | .runs[0].tests as $t |
	$a.target_seconds == 0.3 and $a.file_size and $a.seeks and $a.files and
	$a.random_io and $g.random_io.time == 1 and $g.random_io.ops == 1099511627776 and
	$t.ran_read.elapsed >= 0.9 and $t.ran_write.elapsed >= 0.9 and
	$a.sync_write and $g.sync_write.ops == 100000000 and $t.sync_write.elapsed >= 0.9 and
	($a.probe.write_rate > 0) and ($a.probe.read_rate > 0) and
	($a.probe.seconds > 0) and ($a.probe.limit | type == "string") and
	$a.probe.putc_rate == null and $g.size_chosen and
	$g.file_size == $b and $g.seeks == $s and $g.files.num == $n and
	$g.files.count == $n * 1024 and $t.seeks.work == $s and
	$t.seq_create.work == $n * 1024 and $t.ran_create.work == $n * 1024 and
	$t.seq_del.work == $n * 1024 and
	($t.seq_stat.work % ($n * 1024)) == 0 and $t.seq_stat.work >= $n * 1024 and
	($t.ran_stat.work % ($n * 1024)) == 0' "$WORK/a.json" >/dev/null ||
	fail "JSON settings: $(jq -c '.settings.auto, .settings.seeks, .settings.files' "$WORK/a.json")"
# clyde-report reads the document back into the same line.
"$CLYDE_REPORT" json "$WORK/a.json" | jq -e --arg c "$csv" '.runs[0].csv == $c' >/dev/null ||
	fail "clyde-report json changed the line"

# Explicit values keep bonnie++'s meaning exactly: no line, no probe.
expect_status 0 "$CLYDE" -d "$D" -s 16m:8k:1000 -n 1 -r 0 -f --json="$WORK/e.json"
grep -q '^clyde: sized' "$WORK/err" && fail "explicit: sized line: $(cat "$WORK/err")"
csv=$(tail -n 1 "$WORK/out")
[ "$(field 6 "$csv"),$(field 8 "$csv"),$(field 22 "$csv")" = "16M,1000,1" ] ||
	fail "explicit fields: $csv"
jq -e '.settings.auto == null and .settings.seeks == 1000 and
	.settings.random_io.ops == 65536 and .settings.sync_write.ops == 10000 and
	.settings.files.num == 1 and .runs[0].tests.seeks.work == 1000 and
	.runs[0].tests.seq_stat.work == 1024 and
	.runs[0].tests.ran_stat.work == 1024' "$WORK/e.json" >/dev/null ||
	fail "explicit JSON: $(jq -c '.settings' "$WORK/e.json")"

# -s without a seek count, -n given: only the seeks are timed, and the
# count the first run made is the later runs' (-x: the same work).
expect_status 0 "$CLYDE" -d "$D" -s 16m -n 1 -r 0 -f -x 2 -q --json="$WORK/s.json"
grep -qx 'clyde: sized for this target: seeks for 0.3 s' "$WORK/err" ||
	fail "seeks line: $(cat "$WORK/err")"
grep '^1\.98,' "$WORK/out" >"$WORK/lines"
[ "$(wc -l <"$WORK/lines")" = 2 ] || fail "-x 2: $(cat "$WORK/out")"
[ "$(cut -d, -f6,22 "$WORK/lines" | sort -u)" = "16M,1" ] || fail "-s, -n kept: $(cat "$WORK/out")"
s1=$(sed -n 1p "$WORK/lines" | cut -d, -f8) s2=$(sed -n 2p "$WORK/lines" | cut -d, -f8)
[ "$s1" = "$s2" ] && [ "$s1" != 8192 ] || fail "-x 2 seek counts $s1, $s2"
jq -e --argjson s "$s1" '.settings.auto.seeks and (.settings.auto.file_size | not) and
	(.settings.auto.files | not) and .settings.auto.probe == null and
	.settings.seeks == $s and ([.runs[].tests.seeks.work] == [$s, $s])' \
	"$WORK/s.json" >/dev/null || fail "seeks JSON: $(jq -c '.settings.auto' "$WORK/s.json")"
assert_empty "$D"

# -c 2: the seek count is per copy, as bonnie++'s: half the seeks made.
expect_status 0 "$CLYDE" -d "$D" -s 16m -n 0 -r 0 -c 2 --only=seeks -q --json="$WORK/c.json"
seeks=$(field 8 "$(cat "$WORK/out")")
jq -e --argjson s "$seeks" '.runs[0].tests.seeks.work as $w |
	($w - 2 * $s) * ($w - 2 * $s) <= 1 and .settings.seeks == $s and
	([.runs[0].tests.seeks.workers[].work] | add) == $w' "$WORK/c.json" >/dev/null ||
	fail "-c 2 seeks $seeks: $(jq -c '.runs[0].tests.seeks.work' "$WORK/c.json")"
assert_empty "$D"

[ "$(id -u)" = 0 ] || { echo "note: not root; the small filesystem not tried" >&2; exit 0; }

# A small tmpfs: the size chosen keeps to its room (half of what the
# file tests and sync_write's file leave, in 256M steps: 256M), the file
# count to a quarter of its inodes. On a loaded machine the probe's
# rates can be low enough that the time budget gives 256M first, which
# keeps to the room as well.
SMALL="$WORK/small"
mkdir "$SMALL"
mount -t tmpfs -o size=700m,nr_inodes=100000 clyde-t-auto "$SMALL" || fail "mount tmpfs"
at_exit umount_wait "$SMALL"
expect_status 0 "$CLYDE" -d "$SMALL" -r 0 -f -q --json="$WORK/m.json"
assert_empty "$SMALL"
csv=$(cat "$WORK/out")
[ "$(field 6 "$csv")" = 256M ] || fail "small tmpfs: size $(field 6 "$csv"): $(cat "$WORK/err")"
grep -Eq '^clyde: sized .*: data 256M( \((bounded by the room in -d|the least clyde chooses|bounded so the data tests take about a minute)\))?, ' "$WORK/err" ||
	fail "small tmpfs: $(cat "$WORK/err")"
[ "$(field 22 "$csv")" -le 24 ] || fail "small tmpfs: -n $(field 22 "$csv") over a quarter of 100000 inodes"
jq -e '.settings.auto.probe.room == 268435456 and .settings.auto.probe.in_memory and
	(.settings.auto.probe.limit | IN("room", "rate", "min", "budget"))' "$WORK/m.json" >/dev/null ||
	fail "small tmpfs JSON: $(jq -c '.settings.auto' "$WORK/m.json")"
umount "$SMALL"
exit 0
