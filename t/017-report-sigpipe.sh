#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report under `| head -1`: a reader that goes away is not a crash.
# SIGPIPE is ignored, the failed write ends the program after its
# cleanup, silently, with exit status 141 (not killed by the signal); a
# standard output that fails otherwise is one line and exit 1.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
D="${T_SRCDIR:-$(dirname "$0")}/data"
command -v perl >/dev/null || skip "perl is needed to tell an exit from a death by signal"

# piped ARGS...: clyde-report ARGS | head -1, with SIGPIPE at its default
# whatever the caller had; $WORK/status gets "exit N" or "signal N".
piped() {
	perl -e '$SIG{PIPE} = "DEFAULT"; system { $ARGV[0] } @ARGV;
		open(my $f, ">", $ENV{STATUS}) or die;
		printf $f (($? & 127) ? "signal %d\n" : "exit %d\n",
			($? & 127) ? ($? & 127) : ($? >> 8));' \
		"$R" "$@" 2>"$WORK/err" | head -1 >"$WORK/first"
}
export STATUS="$WORK/status"

# Far more than a pipe holds: thousands of results.
for i in $(seq 1000); do cat "$D/r198.csv"; done >"$WORK/big.csv"
[ "$(wc -l <"$WORK/big.csv")" -ge 1000 ] || fail "big.csv"

piped txt "$WORK/big.csv"
[ "$(cat "$WORK/status")" = "exit 141" ] || fail "txt | head -1: $(cat "$WORK/status")"
[ -s "$WORK/err" ] && fail "txt | head -1: stderr: $(cat "$WORK/err")"
grep -q '^Version' "$WORK/first" || fail "txt | head -1: $(cat "$WORK/first")"

piped html "$WORK/big.csv"
[ "$(cat "$WORK/status")" = "exit 141" ] || fail "html | head -1: $(cat "$WORK/status")"
[ -s "$WORK/err" ] && fail "html | head -1: stderr: $(cat "$WORK/err")"

piped compare --csv "$WORK/big.csv" "$D/san-1.csv" "$D/san-2.csv" "$WORK/big.csv" \
	"$D/san-1.csv" "$D/san-2.csv" "$D/r197.csv" "$D/r103.csv" "$D/run.json" \
	"$D/san-1.csv" "$D/san-2.csv" "$D/r197.csv" "$D/r103.csv" "$D/run.json"
case $(cat "$WORK/status") in
"exit 141" | "exit 0") ;; # all of it may fit in the pipe
*) fail "compare | head -1: $(cat "$WORK/status")" ;;
esac
# Under --csv the per-char notes (r103's stdio against the others'
# syscalls) go to stderr, so the table stays one; nothing else may.
grep -v '^clyde-report: compare: note: ' "$WORK/err" >"$WORK/err2"
[ -s "$WORK/err2" ] && fail "compare | head -1: stderr: $(cat "$WORK/err2")"
grep -q '^clyde-report: compare: note: .* differ in meaning' "$WORK/err" ||
	fail "compare | head -1: no per-char note: $(cat "$WORK/err")"

# --help fits in the pipe: exit 0.
piped --help
[ "$(cat "$WORK/status")" = "exit 0" ] || fail "--help | head -1: $(cat "$WORK/status")"

# A closed standard output is an error of its own: one line, exit 1.
"$R" txt "$D/r198.csv" >&- 2>"$WORK/err"
[ $? = 1 ] || fail "txt >&-: not exit 1"
[ "$(wc -l <"$WORK/err")" = 1 ] &&
	grep -q '^clyde-report: writing standard output: Bad file descriptor$' "$WORK/err" ||
	fail "txt >&-: $(cat "$WORK/err")"
exit 0
