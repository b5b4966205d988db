#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# When the private directory cannot be removed at the end (its rmdir
# fails with EIO), clyde and clyde-sweep exit 1 with one line that names
# the directory left behind and the real error, so the user can find and
# remove it.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
ff_setup

for prog in clyde clyde-sweep; do
	ff_cmd clear 'fail rmdir EIO path=/clyde.* times=1'
	case $prog in
	clyde) "$CLYDE" -d "$M" -r 0 -q -s 8m -n 0 -f >"$WORK/out" 2>"$WORK/err" ;;
	*) "$SWEEP" -s 8m -B 1m "$M" >"$WORK/out" 2>"$WORK/err" ;;
	esac
	st=$?
	[ "$(ff_fired 1)" = 1 ] || fail "$prog: the fault did not fire: $(cat "$FF_CTL")"
	left=$(ls -A "$B")
	case $left in
	clyde.??????) ;;
	*) fail "$prog: expected the one directory left behind, found: $left" ;;
	esac
	rmdir "$B/$left" || fail "$prog: what was left is not an empty directory"
	[ $st = 1 ] || fail "$prog: exit $st, expected 1: $(cat "$WORK/err")"
	grep "^$prog: " "$WORK/err" | grep -v ' MB/s, \|^clyde: data \|^clyde: sized ' >"$WORK/msgs"
	[ "$(wc -l <"$WORK/msgs")" = 1 ] || fail "$prog: not one error line: $(cat "$WORK/err")"
	grep -q "$M/$left.*: Input/output error\$" "$WORK/msgs" ||
		fail "$prog: the message does not name $M/$left and the error: $(cat "$WORK/msgs")"
	ff_alive
done
exit 0
