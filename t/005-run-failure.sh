#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A run that fails part-way (here: the file-size limit, EFBIG, the same
# path as a full disk) names the test, the file and the error, exits 1
# and leaves nothing behind.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"

# 8 MiB limit (ulimit counts 1 KiB blocks), 16 MiB data file.
( ulimit -f 8192 && exec "$CLYDE" -d "$D" -s 16m -r 0 -f -n 0 ) >"$WORK/out" 2>"$WORK/err"
got=$?
[ "$got" = 1 ] || fail "exit $got, expected 1: $(cat "$WORK/err")"
grep -q "^clyde: block output: write $D/clyde\.[A-Za-z0-9]*/data: File too large$" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
grep -q '^1\.98,' "$WORK/out" && fail "a failed run printed a CSV line"
assert_empty "$D"

( ulimit -f 8192 && exec "$CLYDE" -d "$D" -s 16m -r 0 -n 0 ) >"$WORK/out" 2>"$WORK/err"
got=$?
[ "$got" = 1 ] || fail "per-char: exit $got, expected 1: $(cat "$WORK/err")"
grep -q "^clyde: per-char output: write .*/data: File too large$" "$WORK/err" ||
	fail "per-char message: $(cat "$WORK/err")"
assert_empty "$D"
exit 0
