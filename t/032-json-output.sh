#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --json=FILE is checked, and its temporary file made, before the first
# test, as the user the tests run as: a bad path is exit 2 naming it,
# with no test run. The document is written beside its name and renamed
# whole: a failed write leaves what was there, and a signal leaves no
# temporary file.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"

# refused WORD JSONPATH [ARGS...]: exit 2 at once, one line, no test run.
refused() {
	word=$1 path=$2
	shift 2
	expect_refused "^clyde: --json: .*$word" \
		"$CLYDE" -d "$D" -s 16m -r 0 -n 0 -f --json="$path" "$@"
	grep -q 'Writing' "$WORK/err" && fail "--json=$path: a test ran first"
	[ -s "$WORK/out" ] && fail "--json=$path: wrote to stdout: $(cat "$WORK/out")"
	assert_empty "$D"
}

refused "'/nonexistent/x': cannot make a file there: No such file or directory" /nonexistent/x
refused "'$WORK' is a directory" "$WORK"
refused "names a directory" "$WORK/sub/"
mkfifo "$WORK/fifo"
refused "'$WORK/fifo' is a FIFO" "$WORK/fifo"
rm "$WORK/fifo"

# As root: a directory the -u user cannot write, checked as that user.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chmod 0755 "$WORK"
	chmod 0777 "$D"
	mkdir "$WORK/rootonly"
	refused "cannot make a file there: Permission denied" "$WORK/rootonly/r.json" -u nobody
	[ -z "$(ls -A "$WORK/rootonly")" ] || fail "-u nobody: left $(ls -A "$WORK/rootonly")"
	# ... and one it can: the document belongs to that user.
	chmod 0777 "$WORK/rootonly"
	expect_status 0 "$CLYDE" -d "$D" -s 0 -n 0 -q --json="$WORK/rootonly/r.json" -u nobody
	[ "$(stat -c %U "$WORK/rootonly/r.json")" = nobody ] || fail "-u nobody: owner $(stat -c %U "$WORK/rootonly/r.json")"
fi

# A write that fails (here the file-size limit: the document is larger
# than 1 KiB) is exit 1, and what the name held is untouched.
echo old >"$WORK/j.json"
( ulimit -f 1 && exec "$CLYDE" -d "$D" -s 0 -r 0 -n 0 -q --json="$WORK/j.json" ) \
	>"$WORK/out" 2>"$WORK/err"
got=$?
[ "$got" = 1 ] || fail "failed write: exit $got: $(cat "$WORK/err")"
grep -q "^clyde: --json: cannot write '$WORK/j.json': File too large$" "$WORK/err" ||
	fail "failed write message: $(cat "$WORK/err")"
[ "$(cat "$WORK/j.json")" = old ] || fail "failed write: j.json now holds $(head -c 100 "$WORK/j.json")"
left=$(find "$WORK" -maxdepth 1 -name '.j.json.*')
[ -z "$left" ] || fail "failed write: left $left"
assert_empty "$D"

# A signal during the run: no document, no temporary file.
start_writing 200 "$D" -s 1g -r 0 -f -n 0 -b --json="$WORK/s.json"
[ -n "$(find "$WORK" -maxdepth 1 -name '.s.json.*')" ] || { kill -9 $pid; fail "no temporary document while running"; }
kill -TERM $pid
wait $pid
got=$?
[ "$got" = 143 ] || fail "SIGTERM: exit $got: $(cat "$WORK/err")"
[ -e "$WORK/s.json" ] && fail "SIGTERM: a document was written"
left=$(find "$WORK" -maxdepth 1 -name '.s.json.*')
[ -z "$left" ] || fail "SIGTERM: left $left"
assert_empty "$D"
exit 0
