#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Text that is not UTF-8 never drops a key from the JSON document: a -m
# name that is not UTF-8 text is refused (it goes into the CSV line
# too); a -d path, which may hold any bytes, is written with each bad
# byte as \xNN, and its exact bytes in hex under directory_bytes; the
# error of a failed run under such a path is kept, escaped.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
REPORT=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
D="$WORK/d"
mkdir "$D"
cd "$WORK" || fail "cd $WORK"

# -m: refused before anything is made, one line, the byte shown escaped.
expect_status 2 "$CLYDE" -d "$D" -s 0 -n 0 -m "$(printf 'box\377')" --json="$WORK/j.json"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "-m: not one line: $(cat "$WORK/err")"
grep -q "^clyde: -m 'box\\\\xff': name must be UTF-8 text$" "$WORK/err" ||
	fail "-m message: $(cat "$WORK/err")"
[ -e "$WORK/j.json" ] && fail "-m: a document was written"
assert_empty "$D"
# A control character is refused too (a tab would make the table lie).
expect_status 2 "$CLYDE" -d "$D" -s 0 -n 0 -m "$(printf 'a\tb')"
grep -q "^clyde: -m 'a\\\\tb': name must not contain control characters$" "$WORK/err" ||
	fail "-m tab: $(cat "$WORK/err")"
# UTF-8 text is fine, and reaches the document and the report.
expect_status 0 "$CLYDE" -d "$D" -s 0 -n 0 -q -m "$(printf 'caf\303\251')" --json="$WORK/j.json"
[ "$(jq -r .settings.name "$WORK/j.json")" = "$(printf 'caf\303\251')" ] || fail "UTF-8 name"
"$REPORT" txt "$WORK/j.json" >/dev/null || fail "clyde-report on a UTF-8 name"

# -d that is not UTF-8: every key there, the path escaped and exact.
B="$(printf 'd\376x')"
mkdir "$B"
expect_status 0 "$CLYDE" -d "$B" -s 0 -n 0 -q --json="$WORK/k.json"
real=$(printf "%s" "$(cd "$B" && pwd -P)" | od -An -tx1 | tr -d ' \n')
jq -e --arg hex "$real" '.target.directory_bytes == $hex' "$WORK/k.json" >/dev/null ||
	fail "directory_bytes: $(jq -c .target "$WORK/k.json")"
jq -e '.target.directory | endswith("/d\\xfex")' "$WORK/k.json" >/dev/null ||
	fail "directory: $(jq -c .target "$WORK/k.json")"
jq -e '(.runs | length) == 1 and (.runs[0].csv | startswith("1.98,")) and .settings.name != null' \
	"$WORK/k.json" >/dev/null || fail "keys missing: $(head -c 400 "$WORK/k.json")"
"$REPORT" txt "$WORK/k.json" >/dev/null || fail "clyde-report on a non-UTF-8 -d"
# A UTF-8 path has no _bytes key.
jq -e '.target | has("directory_bytes") | not' "$WORK/j.json" >/dev/null ||
	fail "directory_bytes on a UTF-8 path"

# A failed run there: its error (holding the path) is in the document.
( ulimit -f 1024 && exec "$CLYDE" -d "$WORK/$B" -s 4m -r 0 -n 0 -f -q --json="$WORK/f.json" ) \
	>"$WORK/out" 2>"$WORK/err"
[ $? = 1 ] || fail "failed run: exit status: $(cat "$WORK/err")"
jq -e '(.runs[0].error | test("block output: write .*/d\\\\xfex/clyde\\..*/data: File too large"))
	and (.runs[0].tests.put_block.error == .runs[0].error)' "$WORK/f.json" >/dev/null ||
	fail "failed run: $(jq -c '.runs[0] | {error, e: .tests.put_block.error}' "$WORK/f.json")"
# The message on stderr is the same escaped line.
grep -q '^clyde: block output: write .*/d\\xfex/clyde\..*/data: File too large$' "$WORK/err" ||
	fail "failed run message: $(cat "$WORK/err")"
assert_empty "$B"
exit 0
