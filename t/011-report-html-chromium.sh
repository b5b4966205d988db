#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report html in a real browser: headless Chromium renders the
# page of every fixture to a PNG (chromium-lib.sh), and the picture must
# show something: many colours, and with --colours=bonnie the pure green
# and pure red of the best and worst cells; with the default palette the
# two ends of its blue scale instead, and no pure green or red.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/chromium-lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
DATA=${T_SRCDIR:-$(dirname "$0")}/data

for pal in bonnie safe; do
	"$R" html --colours=$pal --title='clyde-report in Chromium' "$DATA/r198.csv" \
		"$DATA/r197.csv" "$DATA/r103.csv" "$DATA/run.json" >"$WORK/$pal.html" ||
		fail "clyde-report html --colours=$pal failed"
	shot "$WORK/$pal.html" "$WORK/$pal.png" 1400 900
	hist "$WORK/$pal.png" 1400 900
	colours=$(wc -l <"$WORK/hist")
	[ "$colours" -ge 100 ] || fail "$pal: a blank page: $colours colours"
	white=$(px 255 255 255)
	[ "$white" -lt $((1400 * 900 * 9 / 10)) ] || fail "$pal: the page is nearly all white"
	green=$(px 0 255 0)
	red=$(px 255 0 0)
	# The ends of the blue scale: #4292C6 the best, #EFF3FF the worst.
	best=$(px 66 146 198)
	worst=$(px 239 243 255)
	if [ $pal = bonnie ]; then
		# The best cells (#00FF00) and the worst (#FF0000) cover some area.
		[ "$green" -ge 2000 ] || fail "bonnie: hardly any green: $green pixels"
		[ "$red" -ge 2000 ] || fail "bonnie: hardly any red: $red pixels"
		[ "$best" -lt 200 ] || fail "bonnie: the blue scale's best: $best pixels"
	else
		[ "$best" -ge 2000 ] || fail "safe: hardly any best blue: $best pixels"
		[ "$worst" -ge 2000 ] || fail "safe: hardly any worst blue: $worst pixels"
		[ "$green" = 0 ] && [ "$red" = 0 ] || fail "safe: $green green, $red red pixels"
	fi
	echo "$pal: $colours colours, $green green, $red red, $best best blue, $worst palest blue, $white white pixels"
done
exit 0
