#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# txt, html and json read a document's intervals apart from its tree
# (lib/json_thin.c; json writes each array again from its text, element
# by element); a document the scan does not take, here with a key of
# the intervals' path escaped ("interv\u0061ls"), is read whole. Thin or
# whole, each refuses a bad interval with the same line, and a document
# as clyde writes it, compact or indented, shows the same and is
# written again the same by json, its intervals as they were.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:?}
D="$T_SRCDIR/data"

# nth N KEY VALUE: the document with the Nth "KEY": of the intervals
# given VALUE.
nth() {
	awk -v n="$1" -v k="\"$2\":" -v v="$3" '
		/"intervals": \[/ { in_log = 1 }
		in_log && index($0, k) && ++seen == n { sub(/: .*/, ": " v ",") }
		{ print }' "$D/intervals.json"
}

# whole FILE: FILE with its intervals' key escaped, read whole.
whole() {
	sed 's/"intervals":/"interv\\u0061ls":/' "$1"
}

same_refusal() { # same_refusal WHAT FILE
	expect_status 2 "$R" txt "$2"
	cp "$WORK/err" "$WORK/err.txt"
	expect_status 2 "$R" json "$2"
	cmp -s "$WORK/err" "$WORK/err.txt" ||
		fail "$1: txt: $(cat "$WORK/err.txt"); json: $(cat "$WORK/err")"
	whole "$2" >"$WORK/whole.json"
	expect_status 2 "$R" txt "$WORK/whole.json"
	sed "s|$WORK/whole.json|$2|" "$WORK/err" >"$WORK/err.whole"
	cmp -s "$WORK/err.whole" "$WORK/err.txt" ||
		fail "$1: thin: $(cat "$WORK/err.txt"); whole: $(cat "$WORK/err")"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "$1: $(cat "$WORK/err")"
	grep -q 'intervals\[' "$WORK/err" || fail "$1: $(cat "$WORK/err")"
}

nth 2 ops -1 >"$WORK/ops.json"
same_refusal "an interval's ops -1" "$WORK/ops.json"
nth 2 end 0.1 >"$WORK/order.json"
same_refusal "an end before the one above" "$WORK/order.json"
nth 3 seconds 0.1 >"$WORK/start.json"
same_refusal "a start off the end above" "$WORK/start.json"
nth 2 seconds '"x"' >"$WORK/kind.json"
same_refusal "seconds a string" "$WORK/kind.json"

# Compact and indented, the same tables.
expect_status 0 "$R" txt --latency "$D/intervals.json"
cp "$WORK/out" "$WORK/indented"
tr -d '\n' <"$D/intervals.json" | sed 's/  */ /g' >"$WORK/compact.json"
expect_status 0 "$R" txt --latency "$WORK/compact.json"
cmp -s "$WORK/out" "$WORK/indented" || fail "compact: $(diff "$WORK/out" "$WORK/indented" | head)"

# json writes the document again the same from each, and from the whole
# read, its intervals as the input's.
expect_status 0 "$R" json "$D/intervals.json"
cp "$WORK/out" "$WORK/j.indented"
expect_status 0 "$R" json "$WORK/compact.json"
cmp -s "$WORK/out" "$WORK/j.indented" || fail "json, compact: $(diff "$WORK/out" "$WORK/j.indented" | head)"
whole "$D/intervals.json" >"$WORK/whole.json"
expect_status 0 "$R" json "$WORK/whole.json"
cmp -s "$WORK/out" "$WORK/j.indented" || fail "json, whole: $(diff "$WORK/out" "$WORK/j.indented" | head)"
if command -v jq >/dev/null; then
	[ "$(jq -c '[.runs[].tests[].intervals]' "$WORK/j.indented")" = \
		"$(jq -c '[.runs[].tests[].intervals]' "$D/intervals.json")" ] ||
		fail "json: the intervals changed"
	[ "$(jq '[.runs[].tests[].intervals // [] | length] | add' "$WORK/j.indented")" -gt 0 ] ||
		fail "json: no intervals in the document"
fi
exit 0
