#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Write-cache mirroring off and on, as the fault rig plays them: a
# write-back cache of 32 MiB, then of 16 MiB (mirroring halves the cache
# that absorbs a burst), each in front of 20 MiB/s, three runs of block
# output each, the cache empty at each run's start (a rested array).
#   clyde-report compare tells the two apart on what the cache absorbed,
#   about 2:1, with a verdict ("smaller"), beside the burst and the
#   sustained rate.
#   The html page draws all six runs' rate over time with the cliff on
#   each: the two levels and the drop, in the SVG and, drawn by headless
#   Chromium, in the cliff's colour on the page.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
ff_setup

# side NAME MIB: three runs with a fresh cache of MIB each, as one
# document $WORK/NAME.json.
side() {
	for i in 1 2 3; do
		ff_cmd clear "delay write rate=20m cache=${2}m"
		"$CLYDE" -d "$M" -s 64m -r 0 -n 0 -q --only=put_block -m "$1" \
			--json="$WORK/$1.$i.json" >/dev/null 2>"$WORK/err" ||
			fail "clyde ($1): $(cat "$WORK/err")"
	done
	"$R" json -o "$WORK/$1.json" "$WORK/$1".?.json 2>"$WORK/err" ||
		fail "report json: $(cat "$WORK/err")"
	# A machine busy enough can stall the rig's burst past what the
	# cliff tells from noise, in one run: two of three suffice. In more
	# (seen beside a build of the tree and other tests' rigs) the side
	# is noted as missed and measured once more, as a figure is: it
	# fails when it misses both times.
	found=$(jq '[.runs[].tests.put_block.cliff.found | select(.)] | length' "$WORK/$1.json")
	if [ "$found" -lt 2 ]; then
		echo "$1: runs without their cliff: $(jq -c '[.runs[].tests.put_block.cliff]' "$WORK/$1.json")" >&2
		missed_figure "$1: runs with their cliff" "$found of 3" 0 "2 of 3"
		side_missed=1
	fi
}
# judge: compare's absorbed row says smaller, about 2:1; else noted as a
# missed figure (a machine busy enough can put a run's burst off).
judge() {
	[ -z "$side_missed" ] || return 0
	"$R" compare "$WORK/mirror-off.json" "$WORK/mirror-on.json" >"$WORK/cmp" 2>"$WORK/err" ||
		fail "compare: $(cat "$WORK/err")"
	cat "$WORK/cmp" >&2
	row=$(grep '^put_block absorbed  *MiB ' "$WORK/cmp") || fail "no absorbed row: $(cat "$WORK/cmp")"
	grep -q '^put_block sustained  *MiB/s ' "$WORK/cmp" && grep -q '^put_block burst  *MiB/s ' "$WORK/cmp" ||
		fail "no burst or sustained row: $(cat "$WORK/cmp")"
	# "put_block absorbed MiB 32.4 +- 0.1 16.4 +- 0.1 -49.4% <0.0001 smaller"
	set -- $row
	[ "${12}" = smaller ] &&
		awk -v a="$4" -v b="$7" 'BEGIN { r = a / b; exit !(r > 1.8 && r < 2.2) }' ||
		missed_figure "absorbed, off against on" "$4 against $7 (${12})" 0 "smaller, about 2:1"
}
side_missed=
side mirror-off 32
side mirror-on 16
judge
while measure_again; do
	side_missed=
	side mirror-off 32
	side mirror-on 16
	judge
done
judge_figures
assert_empty "$B"

# The page: six charts over time, each with the cliff its run found.
found=$(jq -s '[.[].runs[].tests.put_block.cliff.found | select(.)] | length' \
	"$WORK/mirror-off.json" "$WORK/mirror-on.json")
"$R" html -o "$WORK/page.html" "$WORK/mirror-off.json" "$WORK/mirror-on.json" 2>"$WORK/err" ||
	fail "html: $(cat "$WORK/err")"
[ "$(grep -c '<svg class="time"' "$WORK/page.html")" = 6 ] ||
	fail "not six charts over time: $(grep -c '<svg class="time"' "$WORK/page.html")"
[ "$(grep -c '<g class="cliff">' "$WORK/page.html")" = "$found" ] &&
	[ "$(grep -c 'class="cliff-level"' "$WORK/page.html")" = $((2 * found)) ] &&
	[ "$(grep -c 'class="cliff-drop"' "$WORK/page.html")" = "$found" ] ||
	fail "not every chart of a run with a cliff has its two levels and drop"
grep -q '<h2>Write cache</h2>' "$WORK/page.html" || fail "no Write cache table"
if command -v chromium >/dev/null && command -v pngtopnm >/dev/null &&
	command -v ppmhist >/dev/null; then
	# Only the charts, so they fill the picture.
	sed -n '/<section class="over-time">/,/<\/section>/p' "$WORK/page.html" |
		sed '1i <!DOCTYPE html><html><body>' >"$WORK/time.html"
	echo '</body></html>' >>"$WORK/time.html"
	. "${T_SRCDIR:-$(dirname "$0")}/chromium-lib.sh"
	shot "$WORK/time.html" "$WORK/time.png" 1200 900
	hist "$WORK/time.png" 1200 900
	# The cliff's colour (#009E73) and the rate's (#0072B2): the
	# legend alone has under 30 pixels of the first.
	for rgb in '0 158 115' '0 114 178'; do
		# shellcheck disable=SC2086
		[ "$(px $rgb)" -gt 100 ] || fail "the charts drawn lack colour $rgb: $(px $rgb) pixels"
	done
else
	echo "chromium or netpbm not installed: the charts not drawn" >&2
fi
exit 0
