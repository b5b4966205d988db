#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report plot's page as gnuplot draws it, for 1, 3 and 6 sides
# (a clyde JSON document of two runs with p99s, renamed): nothing
# clipped at the bottom or the right edge; every side's colour in the
# key under the panels; a chart's heading ("Throughput", "Worst and p99
# latency") on rows of its own, above its panels' titles and clear of
# everything else. The pixels are told apart by drawing the saved
# script again without the headings and again without the titles:
# where a picture differs from the full one is what was left out.
# And the %CP chart's triangles: their key says what each marks, a
# figure past 100 (several processes) or only its CI (one process).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
D=$(cd "${T_SRCDIR:-$(dirname "$0")}/data" && pwd)

command -v gnuplot >/dev/null || skip "gnuplot not installed (apt-get install gnuplot-nox)"
for p in pngtopnm pamcut pamarith pnmnoraw pamfile; do
	command -v $p >/dev/null || skip "netpbm not installed (apt-get install netpbm)"
done

cd "$WORK" || fail "cd $WORK"
for s in 1 2 3 4 5 6; do
	sed "s/\"name\": *\"vm\"/\"name\": \"side-$s\"/" "$D/run.json" >s$s.json
done

# rows_of PNM TOP HEIGHT [LEFT WIDTH]: "first last" of the rows (from
# 0, of the whole picture) of the band with any pixel not black (for a
# difference) or, with BG=white, not white; "none" when there is none.
rows_of() {
	if [ $# -gt 3 ]; then
		pamcut -top "$2" -height "$3" -left "$4" -width "$5" "$1"
	else
		pamcut -top "$2" -height "$3" "$1"
	fi | pnmnoraw | awk -v top="$2" -v bg="${BG:-0}" '
		NR == 1 { next }
		NR == 2 && NF == 2 { w = $1; next }
		NR == 3 && w { next }
		{ for (i = 1; i <= NF; i++) {
			row = int(n / (3 * w)); n++
			if ($i != bg) { if (first == "") first = row; last = row }
		} }
		END { print first == "" ? "none" : (first + top) " " (last + top) }'
}

# edges PPM WHAT: nothing at the bottom edge or the right one (the key
# fits); w and h set to the picture's size.
edges() {
	set -- "$1" "$2" $(pamfile "$1" | sed 's/.* \([0-9]*\) by \([0-9]*\) .*/\1 \2/')
	w=$3 h=$4
	r=$(BG=255 rows_of "$1" $((h - 4)) 4)
	[ "$r" = none ] || fail "$2: drawn on the bottom rows (clipped): $r"
	r=$(BG=255 rows_of "$1" 0 "$h" $((w - 4)) 4)
	[ "$r" = none ] || fail "$2: drawn on the right edge (clipped): rows $r"
}

# check SIDES FILES...: the picture of FILES.
check() {
	n=$1
	shift
	expect_status 0 "$R" plot -o p$n.png --script p$n.gp "$@"
	pngtopnm p$n.png >full$n.ppm
	edges full$n.ppm "$n sides"

	# Each side's colour (filled at 0.9 over white) under the last
	# panel: its key entry is there.
	keytop=$(awk '/^# The key/ { exit } /^set bmargin at screen/ { b = $5 }
		END { printf "%d", (1 - b) * '"$h"' + 1 }' p$n.gp)
	pamcut -top "$keytop" full$n.ppm | ppmhist -noheader >key$n.hist
	i=0
	for c in 0072b2 e69f00 009e73 cc79a7 56b4e9 d55e00; do
		i=$((i + 1))
		[ $i -le $n ] || break
		awk -v c=$c 'function ch(k) { return int(0.9 * ("0x" substr(c, k, 2)) + 25.5) }
			BEGIN { r = ch(1); g = ch(3); b = ch(5) }
			function near(a, b) { return a - b <= 1 && b - a <= 1 }
			near($1, r) && near($2, g) && near($3, b) && $5 > 20 { found = 1 }
			END { exit !found }' key$n.hist ||
			fail "$n sides: side $i's colour #$c not in the key"
	done

	# The same script without the headings, and without the panels'
	# titles.
	sed -e "/^set label 2 /d" -e "s/^set output 'p$n.png'/set output 'nh$n.png'/" p$n.gp >nh$n.gp
	sed -e "s/^set title '[^']*'/set title ''/" -e "s/^set output 'p$n.png'/set output 'nt$n.png'/" p$n.gp >nt$n.gp
	gnuplot nh$n.gp 2>err || fail "gnuplot nh$n.gp: $(cat err)"
	gnuplot nt$n.gp 2>err || fail "gnuplot nt$n.gp: $(cat err)"
	pngtopnm nh$n.png >nh$n.ppm
	pngtopnm nt$n.png >nt$n.ppm
	pamarith -difference full$n.ppm nh$n.ppm >head$n.ppm
	pamarith -difference full$n.ppm nt$n.ppm >title$n.ppm

	heads=$(grep -c '^set label 2 ' p$n.gp)
	[ "$heads" -ge 2 ] || fail "$n sides: $heads headings in the script"
	grep '^set label 2 ' p$n.gp | sed "s/^set label 2 '\([^']*\)' at screen [0-9.]*, \([0-9.]*\) .*/\2 \1/" |
		while read -r y name; do
			row=$(awk -v y="$y" -v h="$h" 'BEGIN { printf "%d", (1 - y) * h }')
			top=$((row - 45))
			[ $top -ge 0 ] || top=0
			hr=$(rows_of head$n.ppm $top 90)
			tr=$(rows_of title$n.ppm $top 90)
			[ "$hr" != none ] || fail "$n sides: heading '$name' not drawn near row $row"
			[ "$tr" != none ] || fail "$n sides: no panel title under heading '$name'"
			set -- $hr $tr
			# The heading's rows end above the first title's.
			[ "$2" -lt "$3" ] ||
				fail "$n sides: heading '$name' on rows $1-$2, the panel titles under it on rows $3-$4"
			# Nothing else on the heading's rows at its left.
			r=$(BG=255 rows_of nh$n.ppm "$1" $(($2 - $1 + 1)) 0 300)
			[ "$r" = none ] ||
				fail "$n sides: heading '$name' (rows $1-$2) drawn over something on rows $r"
		done || exit 1
}

check 1 s1.json
check 3 s1.json s2.json s3.json
check 6 s1.json s2.json s3.json s4.json s5.json s6.json
# --split: each chart's picture has its own key.
expect_status 0 "$R" plot --split -o sp.png s1.json s2.json s3.json s4.json s5.json s6.json
for c in throughput cpu latency; do
	pngtopnm sp-$c.png >sp-$c.ppm
	edges sp-$c.ppm "--split, $c"
done

# %CP's triangles. One process whose CI reaches past 100 (putc %CP 90,
# 99, 99): the triangle marks the CI, not several processes.
grep -v '^#' "$D/page-3side.csv" | awk -F, -v OFS=, '{ $11 = NR == 1 ? 90 : 99; print }' >ci.csv
grep -v '^#' "$D/page-3side.csv" | head -1 |
	awk -F, -v OFS=, '{ $3 = "two"; $4 = 2; $11 = 150; print }' >two.csv
expect_status 0 "$R" plot -o c.png --script c.gp ci.csv
grep -q 'several processes' c.gp && fail "one process: the key says: $(grep 'past 100' c.gp)"
grep -q "'95% CI past 100: capped at 100'" c.gp ||
	fail "one process: no key of the CI past 100: $(grep 'past 100' c.gp)"
grep -q 'using 1:(over(' c.gp && fail "one process: a triangle of a figure past 100"
# A figure past 100 (-c 2), beside it: each triangle in its own key.
expect_status 0 "$R" plot -o c.png --script c.gp ci.csv two.csv
grep -q "'%CP past 100 (several processes): capped at 100'" c.gp ||
	fail "two processes: $(grep 'past 100' c.gp)"
grep -q "'95% CI past 100: capped at 100'" c.gp ||
	fail "two processes: no key of the CI past 100: $(grep 'past 100' c.gp)"
# Only the figure past 100: no key of a CI.
expect_status 0 "$R" plot -o c.png --script c.gp two.csv
grep -q "95% CI past 100" c.gp && fail "no CI: $(grep 'past 100' c.gp)"
grep -q "several processes" c.gp || fail "one line of -c 2: $(grep 'past 100' c.gp)"
exit 0
