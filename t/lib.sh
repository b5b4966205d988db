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
