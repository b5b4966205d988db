# Shared by the shell tests: a private work directory removed on every
# exit path, and small assertions that say what they expected.
set -u

CLYDE=${CLYDE:-$(cd "$(dirname "$0")/.." && pwd)/src/clyde}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/clyde-t.XXXXXX") || exit 99
CLEANUPS=""

# Run "$@" at exit, newest first (mounts before the directories under them).
at_exit() {
	CLEANUPS="$*; $CLEANUPS"
}

finish() {
	status=$?
	eval "$CLEANUPS" >/dev/null 2>&1
	rm -rf "$WORK"
	exit $status
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# assert_empty DIR: a run left nothing in DIR.
assert_empty() {
	left=$(find "$1" -mindepth 1 | head -5)
	[ -z "$left" ] || fail "left behind in $1: $left"
}

# fields LINE: the number of comma-separated fields.
fields() {
	printf '%s\n' "$1" | awk -F, '{ print NF }'
}

# expect_status WANT CMD...: run CMD, capture out/err in $WORK.
expect_status() {
	want=$1
	shift
	"$@" >"$WORK/out" 2>"$WORK/err"
	got=$?
	[ "$got" = "$want" ] ||
		fail "'$*' exited $got, expected $want; stderr: $(cat "$WORK/err")"
}

# For figures measured on a rig shared with the rest of the machine (the
# tests with a blkio cap): a figure that misses is measured once more,
# and the test fails only when the same figure misses both times. Other
# load may put the rig off once; a program that reports a wrong figure
# is off every time.
#   missed_figure WHAT GOT PCT WANT   note that WHAT was GOT, not
#                                     within PCT% of WANT
#   measure_again                     true when a figure of the run just
#                                     checked missed: run, check again
#   judge_figures                     fail for a figure that missed
#                                     both times; start afresh
missed_figure() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$WORK/missed"
}

measure_again() {
	[ -s "$WORK/missed" ] || return 1
	mv "$WORK/missed" "$WORK/missed.1"
	echo "missed: $(cut -f1 "$WORK/missed.1" | paste -sd,); once more" >&2
}

judge_figures() {
	twice=""
	if [ -e "$WORK/missed.1" ] && [ -e "$WORK/missed" ]; then
		twice=$(awk -F '\t' 'NR == FNR { first[$1] = $2; next }
			$1 in first { printf "%s%s: %s, then %s, not within %s%% of %s", sep, $1, first[$1], $2, $3, $4; sep = "; " }' \
			"$WORK/missed.1" "$WORK/missed")
	fi
	rm -f "$WORK/missed" "$WORK/missed.1"
	[ -z "$twice" ] || fail "$twice"
}
