#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-pgscan never hands pg_ctl a path the shell would read: pg_ctl
# starts the server through /bin/sh with its paths in double quotes, so
# a -d or --bindir holding ", $, a backquote or \ is refused in one line
# (exit 2) before anything starts, naming the value and the character,
# and the command in it never runs (no marker file). As root (-u).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

need_root "-u nobody"
PGSCAN=${CLYDE_PGSCAN:-$(dirname "$CLYDE")/clyde-pgscan}
cd "$WORK" || fail "cd $WORK"

for d in 'pgC$(touch M1)' 'pgC`touch M2`' 'pgC"q' 'pgC\b'; do
	mkdir "$WORK/$d" || fail "mkdir $d"
	c=$(printf '%s' "$d" | sed 's/^pgC\(.\).*/\1/')
	expect_refused "^clyde-pgscan: -d '$(printf '%s' "$WORK/$d" | sed 's/[]$*.^[\\]/\\&/g')': holds '$(printf '%s' "$c" | sed 's/[]$*.^[\\]/\\&/g')', which the shell pg_ctl starts the server through would read" \
		"$PGSCAN" -u nobody -d "$WORK/$d" -s 16m
	rmdir "$WORK/$d"
done
expect_refused "^clyde-pgscan: --bindir '/usr/lib/x\`touch M3\`': holds '\`'" \
	"$PGSCAN" -u nobody -d "$WORK" --bindir '/usr/lib/x`touch M3`' -s 16m
m=$(ls -A "$WORK" | grep '^M' | tr '\n' ' ')
[ -z "$m" ] || fail "a path ran as a command: $m"
exit 0
