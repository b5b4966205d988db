#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report's input: a malformed line is one message naming the file
# and line, and exit 2, or with --skip-bad a warning and the rest
# rendered; files, stdin, CRLF, a byte order mark, JSON documents and a
# mix of every bonnie++ format read alike; bad usage is one line, exit 2.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

REPORT=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
[ -x "$REPORT" ] || fail "no clyde-report at $REPORT"

L198='1.98,2.00a,vm,1,1795989744,2G,,8192,5,604,96,449755,71,821393,62,571,96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,4453us,51836us,2357us,4282us,105us,2501us'
L197='1.97,2.00a,vm,1,1795989744,2G,,604,96,449755,71,821393,62,571,96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,4453us,51836us,2357us,4282us,105us,2501us'
L103='convm004,16G,51346,98,134822,56,69414,17,58651,97,251779,23,758.8,1,512,20048,91,259694,99,5846,18,18707,84,338671,99,2935,9'
# L198 with a negative per-char output rate (field 10).
BAD=$(printf '%s\n' "$L198" | sed 's/,5,604,/,5,-5,/')

# one_line FILE: FILE holds exactly one line.
one_line() {
	[ "$(wc -l <"$1")" = 1 ] || fail "not one line: $(cat "$1")"
}

# no_stdout: the last command wrote nothing to stdout.
no_stdout() {
	[ -s "$WORK/out" ] && fail "wrote to stdout: $(head -5 "$WORK/out")"
	return 0
}

GOOD="$WORK/good.csv"
printf '%s\n' "$L198" "$L103" "$L197" >"$GOOD"
expect_status 0 "$REPORT" txt "$GOOD"
[ -s "$WORK/err" ] && fail "good file: stderr: $(cat "$WORK/err")"
cp "$WORK/out" "$WORK/good.txt"
[ "$(grep -c '^vm  ' "$WORK/good.txt")" = 4 ] ||
	fail "good file: not two vm rows in each table: $(cat "$WORK/good.txt")"
[ "$(grep -c '^convm004 ' "$WORK/good.txt")" = 2 ] ||
	fail "good file: not one convm004 row in each table: $(cat "$WORK/good.txt")"

# A bad line at line 3: one line naming file, line, field and value.
F="$WORK/bad.csv"
printf '%s\n' "$L198" "$L103" "$BAD" "$L197" >"$F"
expect_status 2 "$REPORT" txt "$F"
one_line "$WORK/err"
grep -q "^clyde-report: $F:3: field 10 (putc) '-5' is not a rate" "$WORK/err" ||
	fail "bad line: $(cat "$WORK/err")"
no_stdout

# --skip-bad, before or after the subcommand: a warning, the rest shown.
for args in "--skip-bad txt" "txt --skip-bad"; do
	# shellcheck disable=SC2086 # the words are meant to split
	expect_status 0 "$REPORT" $args "$F"
	one_line "$WORK/err"
	grep -q "^clyde-report: warning: $F:3: field 10 (putc) '-5'" "$WORK/err" ||
		fail "$args: $(cat "$WORK/err")"
	cmp -s "$WORK/out" "$WORK/good.txt" ||
		fail "$args: not the good lines' tables: $(cat "$WORK/out")"
done

# Standard input: "-" and no file at all; its name in messages is "-".
expect_status 0 "$REPORT" txt - <"$GOOD"
cmp -s "$WORK/out" "$WORK/good.txt" || fail "txt -: differs: $(cat "$WORK/out")"
expect_status 0 "$REPORT" txt <"$GOOD"
cmp -s "$WORK/out" "$WORK/good.txt" || fail "txt <: differs: $(cat "$WORK/out")"
expect_status 2 "$REPORT" txt <"$F"
one_line "$WORK/err"
grep -q "^clyde-report: -:3: " "$WORK/err" || fail "stdin bad line: $(cat "$WORK/err")"
no_stdout

# CRLF line ends give the same tables, and the same line numbers.
sed 's/$/\r/' "$GOOD" >"$WORK/crlf.csv"
expect_status 0 "$REPORT" txt "$WORK/crlf.csv"
cmp -s "$WORK/out" "$WORK/good.txt" || fail "CRLF: differs: $(cat "$WORK/out")"
sed 's/$/\r/' "$F" >"$WORK/crlf-bad.csv"
expect_status 2 "$REPORT" txt "$WORK/crlf-bad.csv"
grep -q "^clyde-report: $WORK/crlf-bad.csv:3: field 10 (putc) '-5'" "$WORK/err" ||
	fail "CRLF bad line: $(cat "$WORK/err")"
# No newline after the last line, and a spreadsheet's byte order mark.
printf '\357\273\277%s\n%s\n%s' "$L198" "$L103" "$L197" >"$WORK/bom.csv"
expect_status 0 "$REPORT" txt "$WORK/bom.csv"
cmp -s "$WORK/out" "$WORK/good.txt" || fail "BOM, no last newline: differs: $(cat "$WORK/out")"

# Inputs that are not there or not files: one line each.
expect_status 2 "$REPORT" txt "$WORK/nope.csv"
one_line "$WORK/err"
grep -q "^clyde-report: $WORK/nope.csv: No such file or directory$" "$WORK/err" ||
	fail "missing file: $(cat "$WORK/err")"
no_stdout
mkdir "$WORK/dir"
expect_status 2 "$REPORT" txt "$WORK/dir"
one_line "$WORK/err"
grep -q "^clyde-report: $WORK/dir: Is a directory$" "$WORK/err" ||
	fail "directory: $(cat "$WORK/err")"
no_stdout
# The second input missing: nothing rendered from the first either.
expect_status 2 "$REPORT" txt "$GOOD" "$WORK/nope.csv"
one_line "$WORK/err"
no_stdout

# Nothing to show: an empty file, only comments; every line bad.
: >"$WORK/empty.csv"
printf '# nothing here\n\n' >"$WORK/comments.csv"
for f in "$WORK/empty.csv" "$WORK/comments.csv"; do
	expect_status 2 "$REPORT" txt "$f"
	one_line "$WORK/err"
	grep -q "^clyde-report: no result lines in the input$" "$WORK/err" ||
		fail "$f: $(cat "$WORK/err")"
	no_stdout
done
printf '%s\n' "$BAD" "$BAD" >"$WORK/allbad.csv"
expect_status 2 "$REPORT" --skip-bad txt "$WORK/allbad.csv"
[ "$(grep -c "^clyde-report: warning: $WORK/allbad.csv:[12]: " "$WORK/err")" = 2 ] ||
	fail "all bad: $(cat "$WORK/err")"
[ "$(wc -l <"$WORK/err")" = 3 ] && tail -n 1 "$WORK/err" | grep -q 'no result lines' ||
	fail "all bad: $(cat "$WORK/err")"

# A NUL byte and a binary file: named, never a crash.
printf '%s\n1.98,x\000y\n' "$L103" >"$WORK/nul.csv"
expect_status 2 "$REPORT" txt "$WORK/nul.csv"
one_line "$WORK/err"
grep -q "^clyde-report: $WORK/nul.csv:2: a NUL byte at column 7$" "$WORK/err" ||
	fail "NUL: $(cat "$WORK/err")"
expect_status 2 "$REPORT" txt "$REPORT"
one_line "$WORK/err"
grep -q "^clyde-report: $REPORT:1: " "$WORK/err" || fail "binary: $(cat "$WORK/err")"
expect_status 2 "$REPORT" --skip-bad txt "$REPORT"
tail -n 1 "$WORK/err" | grep -q 'no result lines' || fail "binary, --skip-bad: $(tail -n 3 "$WORK/err")"

# More result lines than clyde-report keeps (200000, 4 KiB each):
# refused at the first one too many, --skip-bad or not.
awk 'BEGIN { for (i = 0; i < 200001; i++) print "h,16G,1,1,,,,,,,,,,,,,,,,,,,,,,," }' >"$WORK/many.csv"
expect_status 2 "$REPORT" --skip-bad txt "$WORK/many.csv"
one_line "$WORK/err"
grep -q "^clyde-report: $WORK/many.csv:200001: more than 200000 result lines in all$" "$WORK/err" ||
	fail "many lines: $(cat "$WORK/err")"
no_stdout
rm "$WORK/many.csv"

# Every format, header lines of each kind, comments and blank lines in
# one file: every result is shown, in input order.
MIX="$WORK/mix.csv"
{
	echo "# bonnie++ 2.00a, 1.97 and 1.03 results"
	printf 'format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,seeks,seek_proc_count,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency\n'
	printf '%s\n' "$L198"
	echo
	echo 'name,file_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu'
	printf '%s\n' "$L103"
	echo "   # an indented comment, with, commas"
	printf '%s\n' "$L197"
} >"$MIX"
expect_status 0 "$REPORT" txt "$MIX"
[ -s "$WORK/err" ] && fail "mix: stderr: $(cat "$WORK/err")"
cmp -s "$WORK/out" "$WORK/good.txt" || fail "mix: not the three results: $(cat "$WORK/out")"
# The rows as FORMATS.md's rules render these real lines.
grep -qx 'vm       2G::8192:5  604k  96  439m  71  802m  62  571k  96  2.4g  98  9124  55' "$WORK/out" ||
	fail "mix: 1.98 row: $(cat "$WORK/out")"
grep -qx 'convm004        16G 50.1m  98  132m  56 67.8m  17 57.3m  97  246m  23 758.8   1' "$WORK/out" ||
	fail "mix: 1.03 row: $(cat "$WORK/out")"
grep -qx 'vm               2G  604k  96  439m  71  802m  62  571k  96  2.4g  98  9124  55' "$WORK/out" ||
	fail "mix: 1.97 row: $(cat "$WORK/out")"
grep -qx 'convm004        512 20048  91 259694  99  5846  18 18707  84 338671  99  2935   9' "$WORK/out" ||
	fail "mix: 1.03 file row: $(cat "$WORK/out")"

# A JSON document clyde wrote renders as its CSV lines do; a document
# whose run is damaged is named with the run.
D="$WORK/d"
mkdir "$D"
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -n 0 -z 1 -x 2 -m jh -q -f 1m --json="$WORK/r.json"
cp "$WORK/out" "$WORK/r.csv"
[ "$(grep -c '^1\.98,clyde-[^,]*,jh,' "$WORK/r.csv")" = 2 ] ||
	fail "clyde -x 2: not two CSV lines: $(cat "$WORK/r.csv")"
expect_status 0 "$REPORT" txt "$WORK/r.csv"
cp "$WORK/out" "$WORK/r-csv.txt"
# The document has the figures no line holds (ran_read, ran_write,
# sync_write and any a later phase adds) in a section after the table:
# without it, the tables are the lines'. A row of that section names
# its test by key where a table row has Size etc.
bonnie_part() {
	awk '/^More figures/ { more = 1; next }
		more && $2 ~ /^[a-z][a-z0-9_]*$/ { next } { more = 0; print }' "$WORK/out"
}
expect_status 0 "$REPORT" txt "$WORK/r.json"
[ -s "$WORK/err" ] && fail "JSON: stderr: $(cat "$WORK/err")"
grep -q '^jh  *ran_read  *[0-9+]' "$WORK/out" || fail "JSON: no ran_read: $(cat "$WORK/out")"
# Each with the settings it ran with, in text and html alike.
grep -q '^jh  *ran_read  .*  4k qd1 psync$' "$WORK/out" &&
	grep -q '^jh  *sync_write  .*  8k fdatasync$' "$WORK/out" ||
	fail "JSON: no settings: $(cat "$WORK/out")"
expect_status 0 "$REPORT" html "$WORK/r.json"
grep -q '<h2>More figures</h2>' "$WORK/out" &&
	grep -q '<td class="label">random writes</td>.*<td class="label">4k qd1 psync</td></tr>' "$WORK/out" &&
	grep -q '<td class="label">synchronous write</td>.*<td class="label">8k fdatasync</td></tr>' "$WORK/out" ||
	fail "html: no more figures: $(cat "$WORK/out")"
sed 's/"how": "4k qd1 psync"/"how": 4/' "$WORK/r.json" >"$WORK/badhow.json"
expect_status 2 "$REPORT" txt "$WORK/badhow.json"
grep -q 'runs\[0\]\.tests\.ran_read\.how 4 is not the settings' "$WORK/err" ||
	fail "a bad how: $(cat "$WORK/err")"
expect_status 0 "$REPORT" txt "$WORK/r.json"
[ "$(bonnie_part | grep -c '^jh ')" = 2 ] || fail "JSON: not two rows: $(cat "$WORK/out")"
bonnie_part | cmp -s - "$WORK/r-csv.txt" || fail "JSON and CSV tables differ: $(cat "$WORK/out")"
# JSON from stdin, and after a CSV file.
expect_status 0 "$REPORT" txt - <"$WORK/r.json"
bonnie_part | cmp -s - "$WORK/r-csv.txt" || fail "JSON on stdin differs"
expect_status 0 "$REPORT" txt "$GOOD" "$WORK/r.json"
[ "$(bonnie_part | grep -c '^jh ')" = 2 ] && [ "$(grep -c '^vm ' "$WORK/out")" = 4 ] ||
	fail "CSV then JSON: $(cat "$WORK/out")"
printf '{\n "schema_version": 1,\n "runs": [\n  {"csv": "%s"},\n  {"csv": "%s"}\n ]\n}\n' "$L103" "$BAD" >"$WORK/bad.json"
expect_status 2 "$REPORT" txt "$WORK/bad.json"
one_line "$WORK/err"
grep -q "^clyde-report: $WORK/bad.json:1: runs\[1\]\.csv: field 10 (putc) '-5'" "$WORK/err" ||
	fail "bad JSON run: $(cat "$WORK/err")"
no_stdout
# --skip-bad: the bad run is skipped as a bad line is, the good one shown.
{
	printf '%s\n' "$L103"
	cat "$GOOD"
} >"$WORK/good-run.csv"
expect_status 0 "$REPORT" txt "$WORK/good-run.csv"
cp "$WORK/out" "$WORK/good-run.txt"
expect_status 0 "$REPORT" --skip-bad txt "$WORK/bad.json" "$GOOD"
one_line "$WORK/err"
grep -q "^clyde-report: warning: $WORK/bad.json:1: runs\[1\]" "$WORK/err" ||
	fail "bad JSON, --skip-bad: $(cat "$WORK/err")"
cmp -s "$WORK/out" "$WORK/good-run.txt" || fail "bad JSON, --skip-bad: $(cat "$WORK/out")"
printf '{\n "schema_version": 1,\n "runs": [\n  {"csv": "%s"},\n' "$L103" >"$WORK/cut.json"
expect_status 2 "$REPORT" txt "$WORK/cut.json"
one_line "$WORK/err"
grep -q "^clyde-report: $WORK/cut.json:[45]: not a JSON document" "$WORK/err" ||
	fail "cut JSON: $(cat "$WORK/err")"

# Bad usage: one line each, exit 2, nothing read or written.
usage() {
	word=$1
	shift
	expect_status 2 "$REPORT" "$@"
	one_line "$WORK/err"
	grep -q -- "$word" "$WORK/err" || fail "'$*': message lacks '$word': $(cat "$WORK/err")"
	no_stdout
}
usage "frob: unknown subcommand" frob "$GOOD"
usage "no subcommand" --skip-bad
usage "--bogus: unknown option" txt --bogus "$GOOD"
usage "^clyde-report: --csv does not apply to txt" txt --csv "$GOOD"
usage "^clyde-report: --title does not apply to txt" txt --title=T -o "$WORK/x.html" "$GOOD"
usage "--format=9" txt --format=9 "$GOOD"
usage "--alpha=2" compare --alpha=2 "$GOOD"
usage "--alpha=x" compare --alpha=x "$GOOD"
usage "name the baseline" compare
[ -e "$WORK/x.html" ] && fail "a refused html run left $WORK/x.html"
exit 0
