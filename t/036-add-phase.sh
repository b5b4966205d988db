#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Adding a phase is one new file, one registry line, one Makefile.am
# line and its man page sections. A copy of the tree (make distdir) gets
# t/template/phase_getpid.c as src/clyde/phase_getpid.c, its figure's
# line in lib/figures.h, its source in src/Makefile.am, its option in
# doc/clyde.1 and its JSON settings in doc/clyde-json.5, and diff -r
# shows nothing else. Its option (--getpid-calls, declared in the phase
# file alone) is in the copy's --help under the figure's heading, a bad
# value is one line and exit 2, and the count given is its JSON
# setting; the copy's check_help finds the option in --help and in
# clyde.1. Built,
# its clyde writes the 50-field CSV line this tree's clyde writes for the
# same run (the same fields empty, the same labels), and shows the new
# figure in --json, in -v's latency table, in clyde-report txt and in
# clyde-report compare; the figure's own settings are in the JSON and
# the settings column, and a run that sizes itself sizes it by its rule;
# every Check suite of the copy passes, and so does the JSON document's
# test (008-json.sh) of the copy, whose keys are the man page's.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

start=$(date +%s)
for tool in autoreconf autoconf automake aclocal; do
	command -v $tool >/dev/null 2>&1 ||
		skip "$tool not installed (apt-get install autoconf automake)"
done
command -v jq >/dev/null 2>&1 || skip "jq not installed (apt-get install jq)"
TOP=${T_TOP_BUILDDIR:-$(cd "$(dirname "$0")/.." && pwd)}
[ -f "$TOP/Makefile" ] || skip "no configured build tree at $TOP"

# The flags of the make running the tests (its jobserver, -s) are not
# this test's: each make below gets its own.
unset MAKEFLAGS MFLAGS MAKELEVEL
MAKE=${MAKE:-make}

ORIG="$WORK/orig" NEW="$WORK/new" B="$WORK/build" D="$WORK/d"
mkdir "$B" "$D"

# A clean copy of the sources, twice. distdir must be relative to the
# build tree: automake puts "../" before it in each subdirectory.
rel=$(realpath --relative-to="$TOP" "$ORIG") || fail "realpath"
$MAKE -C "$TOP" distdir distdir="$rel" >"$WORK/log" 2>&1 ||
	fail "make distdir: $(tail -5 "$WORK/log")"
[ -f "$ORIG/configure.ac" ] || fail "make distdir made no tree at $ORIG"
# A tree that has the figure already is a copy this test made (whose
# own make check runs it): adding the figure again would show nothing.
[ -f "$ORIG/src/clyde/phase_getpid.c" ] &&
	skip "this tree has the recipe's figure already (a copy made by this test)"
cp -pR "$ORIG" "$NEW" || fail "cp"
chmod -R u+w "$NEW"

# The change: the template as the new file, one line in FIGURES (a
# data-file figure goes before the file tests), one line in Makefile.am,
# and its keys in the JSON man page.
fig='	X(getpid, "getpid calls", SEEK, IO, "System calls", "getpid", "getpid", "getpid", FIG_NO_CSV) \'
mk='libclydeprog_a_SOURCES += clyde/phase_getpid.c'
cp "$ORIG/t/template/phase_getpid.c" "$NEW/src/clyde/phase_getpid.c" ||
	fail "the template is not in the distribution"
sed -i "/^	X(seq_create, /i\\
$(printf '%s' "$fig" | sed 's/\\/\\\\/g')" "$NEW/lib/figures.h"
sed -i "/^clyde_clyde_CPPFLAGS = /i $mk" "$NEW/src/Makefile.am"
# (A key is a .B line after a .TP in the KEYS section, in any order:
# these go at its end.)
doc_json='.TP
.B settings.getpid
The getpid test\(aqs settings: an object.
.TP
.B settings.getpid.calls
The most getpid calls.
.TP
.B settings.getpid.time
Under a run that sized itself, the seconds the calls ran for; else null.
.TP
.B settings.auto.getpid \" conditional: only when something was sized
True when getpid ran for its time alone (no
.BR \-s ).'
printf '%s\n' "$doc_json" >"$WORK/doc_json"
awk -v f="$WORK/doc_json" 'keys && /^\.SH / {
		while ((getline l < f) > 0) print l
		keys = 0
	}
	/^\.SH KEYS/ { keys = 1 }
	{ print }' "$NEW/doc/clyde-json.5" >"$WORK/doc.5" &&
	cat "$WORK/doc.5" >"$NEW/doc/clyde-json.5" || fail "doc/clyde-json.5"
# Its option in clyde.1, among the options, before -h.
doc_opt='.BI \-\-getpid\-calls= N
The getpid test\(aqs calls, 1 to 1073741824 (default 1048576).
.TP'
printf '%s\n' "$doc_opt" >"$WORK/doc_opt"
awk -v f="$WORK/doc_opt" '/^\.BR \\-h ", " \\-\\-help$/ {
		while ((getline l < f) > 0) print l
	}
	{ print }' "$NEW/doc/clyde.1" >"$WORK/doc.1" &&
	cmp -s "$WORK/doc.1" "$NEW/doc/clyde.1" && fail "no -h entry in doc/clyde.1"
cat "$WORK/doc.1" >"$NEW/doc/clyde.1" || fail "doc/clyde.1"
(cd "$WORK" && LC_ALL=C diff -r orig new) | sed 's/^[0-9]*a[0-9,]*$/NaN/' >"$WORK/diff"
{
	printf '%s\n' "diff -r orig/doc/clyde-json.5 new/doc/clyde-json.5" NaN
	sed 's/^/> /' "$WORK/doc_json"
	printf '%s\n' "diff -r orig/doc/clyde.1 new/doc/clyde.1" NaN
	sed 's/^/> /' "$WORK/doc_opt"
	printf '%s\n' "diff -r orig/lib/figures.h new/lib/figures.h" NaN "> $fig" \
		"diff -r orig/src/Makefile.am new/src/Makefile.am" NaN "> $mk" \
		"Only in new/src/clyde: phase_getpid.c"
} >"$WORK/diff.want"
cmp -s "$WORK/diff" "$WORK/diff.want" ||
	fail "the copy differs by more than its file, lines and man page: $(diff "$WORK/diff.want" "$WORK/diff")"

# Built as a developer would: bootstrap, configure, make (the two
# programs only).
(cd "$NEW" && ./bootstrap) >"$WORK/log" 2>&1 || fail "bootstrap: $(tail -5 "$WORK/log")"
(cd "$B" && "$NEW/configure" --quiet) >"$WORK/log" 2>&1 ||
	fail "configure: $(tail -5 "$WORK/log")"
{ $MAKE -s -C "$B/lib" -j2 libclyde.a &&
	$MAKE -s -C "$B/src" -j2 clyde/clyde clyde-report; } >"$WORK/log" 2>&1 ||
	fail "make: $(grep -m 5 -e error -e Error "$WORK/log")"
NC="$B/src/clyde/clyde" NR="$B/src/clyde-report"
echo "copied, changed and built in $(($(date +%s) - start)) s" >&2

# The same short run with both: this tree's clyde, the new one with -v
# and JSON, the new one again for a second document.
# (bonnie++'s 8192 seeks given: the two lines' labels are compared.)
# (Per-char over 1 MiB and 100 synchronous writes: every figure is
# there, in a third of the time.)
run="-d $D -s 8m::8192 -r 0 -n 1 -z 12 -f 1m --sync-ops=100"
expect_status 0 "$CLYDE" $run -q
old=$(grep '^1\.98,' "$WORK/out")
expect_status 0 "$NC" $run -v --json="$WORK/a.json"
cp "$WORK/out" "$WORK/v.out"
expect_status 0 "$NC" $run -q --json="$WORK/b.json"
new=$(grep '^1\.98,' "$WORK/out")
assert_empty "$D"

# The CSV line: 50 fields, the labels as they were, and the same
# figure fields empty (the figures themselves are times).
[ "$(fields "$old")" = 50 ] || fail "old CSV line: $(fields "$old") fields: $old"
[ "$(fields "$new")" = 50 ] || fail "new CSV line: $(fields "$new") fields: $new"
layout() {
	printf '%s\n' "$1" | awk -F, '{
		for (i = 1; i <= NF; i++) {
			f = $i
			if ((i >= 10 && i <= 21) || i >= 27)
				f = f == "" ? "-" : "x"
			printf "%s%s", f, i < NF ? "," : "\n"
		}
	}'
}
[ "$(layout "$new")" = "$(layout "$old")" ] ||
	fail "CSV layout: $(layout "$new"), was $(layout "$old")"
[ "$(layout "$new" | tr -cd x | wc -c)" = 36 ] ||
	fail "not every figure field filled: $new"

# The new figure: in the JSON with a rate, in -v, in txt and compare.
jq -e '.runs[0].tests.getpid | .status != "skipped" and .rate > 0 and .work > 0' \
	"$WORK/a.json" >/dev/null || fail "JSON: $(jq -c .runs[0].tests.getpid "$WORK/a.json")"
grep -Eq '^getpid +[0-9]+[nmu]?s .* [0-9]+$' "$WORK/v.out" ||
	fail "-v: no getpid latency row: $(cat "$WORK/v.out")"
expect_status 0 "$NR" txt "$WORK/a.json"
grep -Eq ' getpid +([0-9]+|\+\+\+\+\+) seeks/s ' "$WORK/out" ||
	fail "clyde-report txt: no getpid row: $(cat "$WORK/out")"
expect_status 0 "$NR" compare "$WORK/a.json" "$WORK/b.json"
for row in "getpid " "getpid cpu " "getpid latency "; do
	grep -q "^$row" "$WORK/out" || fail "compare: no '$row' row: $(cat "$WORK/out")"
done

# What it ran with, the phase's own: its JSON settings, its words in
# the settings column (the table section after bonnie++'s).
jq -e '.settings.getpid == {"calls": 1048576, "time": null} and .settings.auto == null' \
	"$WORK/a.json" >/dev/null || fail "JSON settings: $(jq -c .settings.getpid "$WORK/a.json")"
grep -Eq ' getpid +.* 1048576 calls$' "$WORK/v.out" ||
	fail "no getpid settings in the table: $(cat "$WORK/v.out")"
# A run that sizes itself (no -s): its rule, said on the sized line and
# in settings.auto.
expect_status 0 env CLYDE_AUTO_SECONDS=0.3 "$NC" -d "$D" -r 0 --only=getpid -q \
	--json="$WORK/c.json"
assert_empty "$D"
grep -Eq '^clyde: sized for this target .*: .*getpid for 0\.3 s$' "$WORK/err" ||
	fail "sized line: $(cat "$WORK/err")"
jq -e '.settings.auto.getpid == true and .settings.getpid.time == 0.3 and
	.runs[0].tests.getpid.work > 0' "$WORK/c.json" >/dev/null ||
	fail "sized JSON: $(jq -c '.settings.auto, .settings.getpid' "$WORK/c.json")"

# Its option, the phase's own: in --help under its heading with its
# help line, a bad value refused in one line (exit 2), the count given
# in the JSON settings and the work done.
expect_status 0 "$NC" --help
grep -A1 -x 'System calls (getpid):' "$WORK/out" |
	grep -Eq '^  --getpid-calls=N +getpid calls per test \(1 to 1073741824' ||
	fail "--help: no --getpid-calls under its heading: $(cat "$WORK/out")"
expect_status 2 "$NC" -d "$D" --getpid-calls=0
[ "$(cat "$WORK/err")" = "clyde: --getpid-calls '0': must be 1 to 1073741824" ] ||
	fail "--getpid-calls=0: $(cat "$WORK/err")"
expect_status 0 "$NC" -d "$D" -s 8m -r 0 -n 0 --only=getpid -q \
	--getpid-calls=5000 --json="$WORK/d.json"
assert_empty "$D"
jq -e '.settings.getpid.calls == 5000 and .runs[0].tests.getpid.work == 5000' \
	"$WORK/d.json" >/dev/null ||
	fail "--getpid-calls=5000: $(jq -c '.settings.getpid, .runs[0].tests.getpid.work' "$WORK/d.json")"

# The copy's Check suites, every one: the registry's own checks (whose
# part for a figure bonnie++ has no field for runs only when there is
# one), the docs' (which accept a new figure without edits) and the
# help's. Its shell tests are this tree's, run on the copy's programs
# above and by 008-json.sh below; a whole make check of the copy would
# take as long as this tree's.
if [ -x "$TOP/t/check_figures" ]; then
	suites=$(sed -n '/^CHECK_SUITES *=/,/[^\\]$/p' "$NEW/t/Makefile.am" |
		sed 's/^CHECK_SUITES *=//; s/\\//g')
	[ -n "$suites" ] || fail "no CHECK_SUITES in the copy's t/Makefile.am"
	{ $MAKE -s -C "$B/src" -j2 &&
		$MAKE -s -C "$B/t" -j2 check TESTS="$(echo $suites)"; } \
		>"$WORK/log" 2>&1 ||
		fail "the copy's Check suites: $(grep -m 5 -e error -e Error -e FAIL "$WORK/log")"
	grep -q "^# FAIL: *0$" "$B/t/test-suite.log" ||
		fail "the copy's Check suites: $(grep -m 5 -e FAIL "$B/t/test-suite.log")"
else
	echo "check_figures not built here: the copy's suites not run either" >&2
fi

# The JSON document's own test, of the copy: its keys are the man
# page's, the new figure's with them.
CLYDE=$NC CLYDE_REPORT=$NR T_SRCDIR="$NEW/t" sh "$NEW/t/008-json.sh" \
	>"$WORK/log" 2>&1 || fail "008-json.sh of the copy: $(tail -5 "$WORK/log")"
echo "all in $(($(date +%s) - start)) s" >&2
