#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The per-char meaning: without --per-char, clyde's putc and getc mean
# what bonnie++'s of the format asked for do (1-byte system calls in
# 1.98 and 1.97 lines, stdio with --csv=1.03 or --format=1.03), and the
# JSON document says which. clyde-report compare and html note when
# figures of the two meanings meet (a 1.03 line, a bonnie++ 2.00 line, a
# clyde line, a JSON document) and say nothing when they agree; a bad
# settings.per_char is one line, exit 2. bonnie++'s -Z is refused in one
# line that names -z.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
DATA=${T_SRCDIR:-$(dirname "$0")}/data
D="$WORK/d"
mkdir "$D"

# mode WANT ARGS...: a short per-char run's settings.per_char is WANT.
mode() {
	mode_want=$1
	shift
	expect_status 0 "$CLYDE" -d "$D" -s 1m -r 0 -n 0 -q -z 3 \
		--only=putc,getc --json="$WORK/m.json" "$@"
	grep -q "\"per_char\": \"$mode_want\"" "$WORK/m.json" ||
		fail "$*: settings.per_char not $mode_want: $(grep per_char "$WORK/m.json")"
}
mode syscall
cp "$WORK/m.json" "$WORK/syscall.json"
tail -1 "$WORK/out" >"$WORK/clyde198.csv"
mode syscall --csv=1.97
mode stdio --csv=1.03
mode stdio --format=1.03
mode stdio --per-char=stdio
cp "$WORK/m.json" "$WORK/stdio.json"
mode syscall --per-char=syscall --csv=1.03
"$CLYDE" --help | tr -s ' \n' '  ' |
	grep -qF "stdio with --csv=1.03 or --format=1.03, else syscall" ||
	fail "--help does not say the per-char default"

# bonnie++'s -Z FILE (random numbers from a file): refused, pointing to
# -z, nothing made.
expect_refused "^clyde: -Z '/dev/urandom': random numbers from a file are not supported: use -z SEED to repeat a run's random choices and data\$" \
	"$CLYDE" -d "$D" -s 1m -n 0 -Z /dev/urandom
[ -s "$WORK/out" ] && fail "-Z: wrote to stdout: $(cat "$WORK/out")"
assert_empty "$D"

# note ARGS...: compare prints the note once, under the heading.
note() {
	expect_status 0 "$R" compare "$@"
	[ "$(grep -c '^note: per-char figures (putc, getc) differ in meaning' "$WORK/out")" = 1 ] ||
		fail "compare $*: no note: $(head -3 "$WORK/out")"
}
no_note() {
	expect_status 0 "$R" compare "$@"
	grep -q 'note' "$WORK/out" "$WORK/err" &&
		fail "compare $*: a note on like meanings: $(grep note "$WORK/out" "$WORK/err")"
	return 0
}
# r103.csv's two lines first: vm (2.00a, syscall) against convm004.
note "$DATA/r103.csv" "$DATA/r198.csv"
grep -qF "the baseline's are stdio putc()/getc() (a 1.03 line), this side's 1-byte read()/write() calls (a bonnie++ 2.00a line)" \
	"$WORK/out" || fail "compare 1.03/2.00: $(grep note "$WORK/out")"
no_note "$DATA/r198.csv" "$DATA/r197.csv"
no_note "$DATA/r103.csv" "$DATA/run.json"
note "$DATA/r103.csv" "$WORK/syscall.json"
grep -qF "this side's 1-byte read()/write() calls (its JSON settings)" "$WORK/out" ||
	fail "compare JSON: $(grep note "$WORK/out")"
note "$WORK/stdio.json" "$WORK/syscall.json"
no_note "$DATA/r198.csv" "$WORK/syscall.json"
note "$DATA/r103.csv" "$WORK/clyde198.csv"
grep -qF "(a clyde-$("$CLYDE" --version | cut -d' ' -f2) 1.98 line, clyde's default for it)" \
	"$WORK/out" || fail "compare clyde line: $(grep note "$WORK/out")"
# --csv: stdout stays the table, the note goes to stderr.
expect_status 0 "$R" compare --csv "$DATA/r103.csv" "$DATA/r198.csv"
grep -q note "$WORK/out" && fail "compare --csv: a note in the CSV"
grep -q '^clyde-report: compare: note: vm against convm004: per-char figures' "$WORK/err" ||
	fail "compare --csv: no note on stderr: $(cat "$WORK/err")"

# html: one note naming the rows of each meaning, none for like ones.
expect_status 0 "$R" html "$DATA/r103.csv" "$WORK/syscall.json"
grep -qF 'Per Chr columns hold figures of two meanings, not like with like: stdio putc()/getc() over the whole file (bonnie++ 1.03) in convm004, convm005; 1-byte read()/write() calls (bonnie++ 1.97 and 2.00) in ' \
	"$WORK/out" || fail "html: no per-char note"
expect_status 0 "$R" html "$DATA/r198.csv" "$DATA/r197.csv" "$WORK/syscall.json"
grep -q 'two meanings' "$WORK/out" && fail "html: a note on like meanings"

# A settings.per_char clyde does not know: refused.
sed 's/"per_char": "stdio"/"per_char": "mmap"/' "$DATA/run.json" >"$WORK/bad.json"
expect_refused 'settings.per_char.*expected "stdio", "syscall" or "skipped"' \
	"$R" txt "$WORK/bad.json"
exit 0
