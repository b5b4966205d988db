#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A directory that cannot be read (readdir fails with EIO) during the
# sequential stat or delete test is a failed run: exit 1, one line naming
# the test, the directory and the real error, nothing left behind. A
# readdir error must not read as the end of the directory (a stat test
# of no files, or a delete that ends in "Directory not empty").
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

ff_setup

# The test directory is read once by the eviction before the stat test
# (which ignores errors), then by the stat test, then by the delete test.
for c in 'sequential stat:1' 'sequential delete:2'; do
	title=${c%:*}
	rule="fail readdir EIO path=*/files after=${c#*:} times=1"
	ff_cmd clear "$rule"
	"$CLYDE" -d "$M" -r 0 -q -s 0 -n 1:4k:4k --only=seq_stat >"$WORK/out" 2>"$WORK/err"
	st=$?
	[ "$(ff_fired 1)" = 1 ] || fail "$title: the fault did not fire: $(cat "$FF_CTL")"
	[ $st = 1 ] || fail "$title: readdir EIO: exit $st, expected 1: $(cat "$WORK/err")"
	[ "$(grep -c '^clyde: ' "$WORK/err")" = 1 ] ||
		fail "$title: not one error line: $(cat "$WORK/err")"
	grep -q "^clyde: $title: [a-z]* $M/clyde\.[A-Za-z0-9]*/files: Input/output error\$" \
		"$WORK/err" || fail "$title: message: $(grep '^clyde: ' "$WORK/err")"
	assert_empty "$B"
	ff_alive
done
exit 0
