#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report html's steady-state charts (svg_steady.c), of a run of
# ran_read and ran_write in rounds (--steady, a loose rule of 3 rounds):
#   a chart per test, its title the steady words the JSON implies
#   ("steady r3 (3 s)", "NOT steady after 6 s"), a point per round of
#   the JSON's, the measurement window's band, its average (the JSON's,
#   between the window's lowest and highest points), the rule's two
#   range lines and the least-squares line; the same bytes twice.
#   A run without --steady has none of it.
#   Drawn by headless Chromium, when there is one: the rounds' and the
#   window's colours on the page.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}

mkdir "$WORK/d" || fail "mkdir"
"$CLYDE" -d "$WORK/d" -r 0 -n 0 -s 16m -q --only=ran_read,ran_write \
	--steady=3:90:90 --round=1 --steady-max=6 --json="$WORK/steady.json" \
	>/dev/null 2>"$WORK/err" || fail "clyde --steady: $(cat "$WORK/err")"
assert_empty "$WORK/d"
"$R" html -o "$WORK/page.html" "$WORK/steady.json" 2>"$WORK/err" ||
	fail "html: $(cat "$WORK/err")"
[ -s "$WORK/err" ] && fail "html: stderr: $(cat "$WORK/err")"
P=$WORK/page.html

# count FILE STRING: how many times STRING is in FILE.
count() {
	grep -o -F -e "$2" "$1" | wc -l
}

tests=$(jq -r '.runs[0].tests | to_entries[] | select(.value.steady) | .key' "$WORK/steady.json")
[ "$(echo $tests)" = "ran_read ran_write" ] || fail "tests in rounds: $tests"
[ "$(count "$P" '<svg class="steady-chart"')" = 2 ] ||
	fail "not two steady charts: $(count "$P" '<svg class="steady-chart"')"
grep -q '<section class="steady">' "$P" && grep -q '<h2>Steady state</h2>' "$P" ||
	fail "no Steady state section"
for t in $tests; do
	s=".runs[0].tests.$t.steady"
	sed -n "/<svg class=\"steady-chart\" data-fig=\"$t\"/,/<\/svg>/p" "$P" >"$WORK/$t.svg"
	[ -s "$WORK/$t.svg" ] || fail "$t: no chart"
	# The title: the run, the test, the words of the JSON's verdict.
	words=$(jq -r "$s | if .steady then
		\"steady r\(.rounds | length) (\(.seconds | round) s)\" else
		\"NOT steady after \(.seconds | round) s\" end" "$WORK/steady.json")
	title=$(sed -n 's/.*<text class="steady-title"[^>]*>\([^<]*\)<.*/\1/p' "$WORK/$t.svg")
	fig=$(jq -r ".settings.name // .host" "$WORK/steady.json")
	case $title in
	"$fig: "*" (steady.json, line 1): $words") ;;
	*) fail "$t: title '$title', not '$fig: ... (steady.json, line 1): $words'" ;;
	esac
	# A point per round, the rounds' number on the chart too.
	n=$(jq "$s.rounds | length" "$WORK/steady.json")
	[ "$(count "$WORK/$t.svg" 'class="steady-round"')" = "$n" ] ||
		fail "$t: $(count "$WORK/$t.svg" 'class="steady-round"') points, $n rounds"
	grep -q "data-rounds=\"$n\"" "$WORK/$t.svg" || fail "$t: no data-rounds=\"$n\""
	# The window's band, average, two range lines and slope, once each.
	for c in steady-window:1 steady-avg:1 steady-band:2 steady-slope:1 steady-line:1; do
		[ "$(count "$WORK/$t.svg" "class=\"${c%:*}\"")" = "${c#*:}" ] ||
			fail "$t: not ${c#*:} ${c%:*}: $(count "$WORK/$t.svg" "class=\"${c%:*}\"")"
	done
	first=$(jq "$s.window.first" "$WORK/steady.json")
	grep -q "<title>the measurement window: rounds $((first + 1)) to $((first + 3))</title>" "$WORK/$t.svg" ||
		fail "$t: the window is not rounds $((first + 1)) to $((first + 3)): $(grep steady-window "$WORK/$t.svg")"
	# The average: the JSON's, in operations/s (the rule's rate), drawn
	# between the window's lowest and highest points.
	avg=$(jq "$s.window.avg" "$WORK/steady.json" | awk '{ printf "%.0f", $1 }')
	shown=$(sed -n 's/.*<title>the window.s average: \([0-9,]*\) operations\/s<.*/\1/p' "$WORK/$t.svg" | tr -d ,)
	[ "$shown" = "$avg" ] || fail "$t: average shown '$shown', the JSON's $avg"
	ay=$(sed -n 's/.*class="steady-avg" x1="[^"]*" y1="\([^"]*\)".*/\1/p' "$WORK/$t.svg")
	sed -n 's/.*class="steady-round" cx="[^"]*" cy="\([^"]*\)".*/\1/p' "$WORK/$t.svg" |
		tail -n 3 | awk -v y="$ay" 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 }
			END { exit !(y != "" && y >= lo - 0.1 && y <= hi + 0.1) }' ||
		fail "$t: the average at y $ay is not among the window's points"
done

# The same input, the same bytes.
"$R" html "$WORK/steady.json" | cmp -s - "$P" || fail "a second page differs"

# Without --steady: no such chart, nor any of its parts.
mkdir "$WORK/n" || fail "mkdir"
"$CLYDE" -d "$WORK/n" -r 0 -n 0 -s 16m -q --only=ran_read,ran_write \
	--json="$WORK/plain.json" >/dev/null 2>"$WORK/err" ||
	fail "clyde: $(cat "$WORK/err")"
"$R" html -o "$WORK/plain.html" "$WORK/plain.json" 2>"$WORK/err" ||
	fail "html of plain.json: $(cat "$WORK/err")"
grep -q 'class="steady' "$WORK/plain.html" &&
	fail "steady parts without --steady: $(grep -o 'class="steady[^"]*"' "$WORK/plain.html" | sort -u | tr '\n' ' ')"
grep -q 'Steady state' "$WORK/plain.html" && fail "a Steady state section without --steady"

if command -v chromium >/dev/null && command -v pngtopnm >/dev/null &&
	command -v ppmhist >/dev/null; then
	# Only the section, so that it fills the picture.
	sed -n '/<section class="steady">/,/<\/section>/p' "$P" |
		sed '1i <!DOCTYPE html><html><head><meta charset="utf-8"></head><body>' >"$WORK/steady.html"
	echo '</body></html>' >>"$WORK/steady.html"
	. "${T_SRCDIR:-$(dirname "$0")}/chromium-lib.sh"
	shot "$WORK/steady.html" "$WORK/steady.png" 1200 700
	hist "$WORK/steady.png" 1200 700
	# The rounds' colour (#0072B2): more than the legend's; the
	# window's band (#56B4E9 at a quarter over white), within 3 of
	# each channel, over most of two plot areas.
	[ "$(px 0 114 178)" -gt 60 ] || fail "the rounds drawn lack their colour: $(px 0 114 178) pixels"
	band=$(awk '{ d = ($1 - 213) ^ 2 + ($2 - 236) ^ 2 + ($3 - 249) ^ 2 }
		d <= 27 { n += $5 } END { print n + 0 }' "$WORK/hist")
	[ "$band" -gt 50000 ] || fail "the windows drawn lack their band: $band pixels"
else
	echo "chromium or netpbm not installed: the charts not drawn" >&2
fi
exit 0
