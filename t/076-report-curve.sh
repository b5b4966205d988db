#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report on clyde-curve documents. The fixtures are two curves of
# the fault rig as one server of a fixed service time, S and 1.5 S
# (mirroring off and on), three each, made by contrib/bench/curve-knee.sh
# (-T 3): the second's maximum is a third lower and its knee of mean <=
# 2 S well below the first's.
#   txt prints the program's tables, CSV lines and summary (golden);
#   json writes the document again as the program wrote it;
#   the strict reader refuses a bad value in one line naming its key;
#   compare names the second slower (its maximum, each step's mean,
#   its knee) with the p of each, and says the verdicts in one line;
#   html draws both curves, the target and both knees in one SVG with
#   no script and nothing from outside, which headless Chromium draws
#   in both curves' colours and the target's;
#   plot draws it with gnuplot; what cannot be drawn or mixed is refused.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
DATA=${T_SRCDIR:-$(dirname "$0")}/data
OFF=$DATA/curve-off.json
ON=$DATA/curve-on.json

expect_status 0 "$R" txt "$OFF"
cmp -s "$WORK/out" "$DATA/curve-off.txt.expected" ||
	fail "txt: $(diff "$DATA/curve-off.txt.expected" "$WORK/out" | head -10)"

# json: the same document, converted_by added; and again the same.
expect_status 0 "$R" json "$OFF"
cp "$WORK/out" "$WORK/again.json"
jq -S 'del(.converted_by)' "$WORK/again.json" >"$WORK/a"
jq -S . "$OFF" >"$WORK/b"
cmp -s "$WORK/a" "$WORK/b" || fail "json: $(diff "$WORK/b" "$WORK/a" | head -10)"
expect_status 0 "$R" json "$WORK/again.json"
cmp -s "$WORK/out" "$WORK/again.json" || fail "json twice: not the same"

# The strict reader: one line naming the key, exit 2.
while IFS='|' read -r edit pat; do
	jq -c "$edit" "$OFF" >"$WORK/bad.json"
	expect_refused "$pat" "$R" txt "$WORK/bad.json"
done <<'X'
.settings.curve.steps[1] = 250|settings.curve.steps\[1\].p 250 is not a percentage
.settings.curve.steps = [50, 25, 75]|settings.curve.steps .* expected them rising
.settings.curve.target.stat = "p95"|settings.curve.target.stat "p95" is not one of p50, p90, p99, p99.9, mean, max
.settings.curve.refine = 21|settings.curve.refine 21 is not
.curves[0].steps[0].kind = "step"|curves\[0\].steps\[0\].kind "step" is not the first step
.curves[0].steps[2].offered = "x"|curves\[0\].steps\[2\].offered "x" is not a rate offered
.curves[0].steps[2].offered = 1|curves\[0\].steps\[2\].offered 1 is not in order
.curves[0].steps[1].percent = 12.34|curves\[0\].steps\[1\].percent 12.34 is not a percentage
.curves[0].steps[1].test.rate = "fast"|curves\[0\].steps\[1\].test.rate "fast" is not a rate
.curves[0].knee.step = 9|curves\[0\].knee.step 9 is not a step of the curve
.curves = []|curves \[\] is not a list of curves
.complete = 1|complete 1 is not
.schema_version = 2|schema_version 2
X

# compare: each row of the second against the first, and the verdicts.
expect_status 0 "$R" compare "$OFF" "$ON"
for row in 'max  *IOPS .* slower$' '50% mean  *us .* slower$' \
	'75% mean  *us .* slower$' 'knee  *IOPS .* slower$' '50% p99  *us '; do
	grep -q "^$row" "$WORK/out" || fail "compare: no '$row': $(cat "$WORK/out")"
done
grep -q '^max  *IOPS  *473.7 +- 1.6  *320.6 +- 2.5  *-32.3%  *<0.0001  slower$' "$WORK/out" ||
	fail "compare: max: $(grep '^max' "$WORK/out")"
grep -q '^Verdicts: 5 slower, 3 within noise\.$' "$WORK/out" ||
	fail "compare: $(tail -1 "$WORK/out")"
expect_status 0 "$R" compare --csv "$OFF" "$ON"
[ "$(wc -l <"$WORK/out")" = 9 ] || fail "compare --csv: $(cat "$WORK/out")"
grep -q '^knee,IOPS,off,on,3,274.4.*,slower$' "$WORK/out" || fail "compare --csv: $(grep knee "$WORK/out")"
expect_refused "^clyde-report: compare: one curve document" "$R" compare "$OFF"
expect_refused "^clyde-report: .*curve-off.json: a clyde-curve document beside other inputs: curves are drawn and compared with curves alone$" \
	"$R" compare "$OFF" "$DATA/r198.csv"
expect_refused "^clyde-report: .*curve-off.json: a clyde-curve document beside other inputs: json writes one document" \
	"$R" json "$DATA/r198.csv" "$OFF"
expect_refused "^clyde-report: html --log-y: the latency axis of clyde-curve documents; these inputs have none$" \
	"$R" html --log-y "$DATA/r198.csv"
expect_refused "^clyde-report: html --colours: the shading of result cells; a page of curves has none$" \
	"$R" html --colours=bonnie "$OFF"

# html: both curves, the target, both knees, in one SVG; nothing from
# outside; the first knee right of the second (the second's is lower).
expect_status 0 "$R" html "$OFF" "$ON"
P=$WORK/page.html
cp "$WORK/out" "$P"
count() {
	n=$(grep -o -F -e "$1" "$P" | wc -l)
	[ "$n" = "$2" ] || fail "html: '$1' $n times, expected $2"
}
count '<svg class="curves"' 1
count '<polyline class="curve" data-series="0"' 1
count '<polyline class="curve" data-series="1"' 1
count '<line class="target"' 1
count '<path class="knee" data-series="0"' 1
count '<path class="knee" data-series="1"' 1
count '<td class="worse">slower</td>' 5
grep -qi '<script' "$P" && fail "html: a script"
grep -qi 'http' "$P" && fail "html: a URL: $(grep -oi '.\{20\}http.\{20\}' "$P" | head -1)"
grep -qi 'url(' "$P" && fail "html: a url()"
k0=$(grep -o '<path class="knee" data-series="0" d="M[0-9.]*' "$P" | sed 's/.*d="M//')
k1=$(grep -o '<path class="knee" data-series="1" d="M[0-9.]*' "$P" | sed 's/.*d="M//')
awk -v a="$k0" -v b="$k1" 'BEGIN { exit !(a > b) }' || fail "html: the knees at x $k0 and $k1"
expect_status 0 "$R" html --log-y "$OFF" "$ON"
grep -q 'log scale' "$WORK/out" || fail "html --log-y: no log scale"

if command -v gnuplot >/dev/null; then
	expect_status 0 "$R" plot -o "$WORK/curves.png" "$OFF" "$ON"
	[ -s "$WORK/curves.png" ] || fail "plot: no picture"
	expect_refused "^clyde-report: plot: --split: curves are drawn as one picture" \
		"$R" plot --split -o "$WORK/c.png" "$OFF" "$ON"
	[ -e "$WORK/c-throughput.png" ] && fail "plot --split: left a file"
else
	echo "gnuplot not installed: plot not tried" >&2
fi

if command -v chromium >/dev/null && command -v pngtopnm >/dev/null &&
	command -v ppmhist >/dev/null; then
	. "${T_SRCDIR:-$(dirname "$0")}/chromium-lib.sh"
	shot "$P" "$WORK/page.png" 900 1000
	hist "$WORK/page.png" 900 1000
	# The palette's first two colours (each curve) and the target's.
	for rgb in '0 114 178' '230 159 0' '213 94 0'; do
		# shellcheck disable=SC2086
		[ "$(px $rgb)" -gt 20 ] || fail "the page drawn lacks colour $rgb"
	done
else
	echo "chromium or netpbm not installed: the page not drawn" >&2
fi
exit 0
