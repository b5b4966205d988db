#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report plot: without gnuplot one line and exit 2; a gnuplot that
# fails leaves no file; with gnuplot (.ci/run installs gnuplot-nox) PNGs
# and SVGs of plausible size and dimensions, a saved script equal to the
# golden one that draws the same pictures again; -o X.png makes X.png
# alone (the page), --split the three charts and no X.png; the script's
# shape: linear axes from 0 (no log scale), a panel per figure, %CP 0 to
# 100 with figures past it capped and marked, +++++ cells as hatched
# markers with a key note, keys naming only the series drawn; and names
# that cannot break out of their gnuplot strings.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
D="${T_SRCDIR:-$(dirname "$0")}/data"
IN="$D/plot-198.csv $D/plot-103.csv"

# png_check FILE MIN_W MIN_H: the PNG signature, a plausible size in
# bytes, and IHDR's width and height (big-endian at bytes 16 and 20).
png_check() {
	[ -f "$1" ] || fail "$1 was not written"
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || fail "$1: no PNG signature ($sig)"
	size=$(wc -c <"$1")
	[ "$size" -gt 5000 ] && [ "$size" -lt 2000000 ] ||
		fail "$1: $size bytes"
	set -- "$1" "$2" "$3" $(od -An -tu1 -j16 -N8 "$1")
	w=$(($4 * 16777216 + $5 * 65536 + $6 * 256 + $7))
	h=$(($8 * 16777216 + $9 * 65536 + ${10} * 256 + ${11}))
	[ "$w" -ge "$2" ] && [ "$w" -le 4000 ] && [ "$h" -ge "$3" ] &&
		[ "$h" -le 4000 ] || fail "$1: $w x $h pixels"
}

# Without gnuplot on PATH: one line naming the package, exit 2, and no
# file at all, the script included.
mkdir "$WORK/nobin" "$WORK/none"
cd "$WORK/none" || fail "cd"
env PATH="$WORK/nobin" "$R" plot -o p.png --script p.gp $IN \
	>"$WORK/out" 2>"$WORK/err"
[ $? = 2 ] || fail "without gnuplot: not exit 2"
[ "$(cat "$WORK/err")" = "clyde-report: plot: gnuplot not found; install it (Debian: apt-get install gnuplot-nox)" ] ||
	fail "without gnuplot: $(cat "$WORK/err")"
assert_empty "$WORK/none"

# A picture that is neither .png nor .svg: one line, exit 2.
expect_status 2 "$R" plot -o p.jpg $IN
[ "$(wc -l <"$WORK/err")" = 1 ] && grep -q 'p.jpg: the picture must be a .png or .svg file' "$WORK/err" ||
	fail "-o p.jpg: $(cat "$WORK/err")"
assert_empty "$WORK/none"

# A gnuplot that fails: its message reported, nothing left behind.
mkdir "$WORK/badbin"
printf '#!/bin/sh\nwhile read -r l; do :; done\necho "gnuplot: broken" >&2\nexit 3\n' >"$WORK/badbin/gnuplot"
chmod +x "$WORK/badbin/gnuplot"
env PATH="$WORK/badbin:$PATH" "$R" plot -o p.png --script p.gp $IN \
	>"$WORK/out" 2>"$WORK/err"
[ $? = 1 ] || fail "failing gnuplot: not exit 1"
grep -q '^clyde-report: plot: gnuplot failed.*gnuplot: broken' "$WORK/err" || fail "failing gnuplot: $(cat "$WORK/err")"
assert_empty "$WORK/none"

command -v gnuplot >/dev/null || skip "gnuplot not installed (apt-get install gnuplot-nox)"

# The page: -o's file alone, the saved script as the golden one.
mkdir "$WORK/png"
cd "$WORK/png" || fail "cd"
expect_status 0 "$R" plot -o plot.png --script plot.gp $IN
[ -s "$WORK/err" ] && fail "stderr: $(cat "$WORK/err")"
[ "$(files .)" = "plot.gp plot.png " ] || fail "files: $(files .)"
png_check plot.png 1400 1800
cmp plot.gp "$D/plot.gp.expected" ||
	fail "script differs: $(diff "$D/plot.gp.expected" plot.gp | head -20)"
# The figures in the script are the lines' own: get_block 2527078 KiB/s
# is 2467.85 MiB/s, and convm004's two putc lines average 51233.5 KiB/s.
grep -q '^1 2467.85 NaN NaN 0 1 # get_block$' plot.gp || fail "get_block row"
grep -q '^3 50.0327 48.6368 51.4287 0 3 # putc$' plot.gp || fail "putc row"

# The script's shape. Linear axes only, each from 0.
grep -q 'logscale' plot.gp && fail "a log scale: $(grep logscale plot.gp)"
[ "$(grep -c '^set yrange \[0:' plot.gp)" = "$(grep -c '^set yrange' plot.gp)" ] ||
	fail "an axis not from 0: $(grep '^set yrange' plot.gp | grep -v '\[0:')"
# A panel, with its own block and unit, per figure: the 12 bonnie++ rates
# and the 12 latencies (plot-103.csv has none, plot-198.csv all).
[ "$(grep -c '^\$rate_[a-z_]* << EOD$' plot.gp)" = 12 ] || fail "rate panels: $(grep -c '^\$rate_' plot.gp)"
[ "$(grep -c '^\$lat_[a-z_]* << EOD$' plot.gp)" = 12 ] || fail "latency panels"
[ "$(grep -c '^plot \$rate_' plot.gp)" = 12 ] || fail "rate plots"
[ "$(grep -c '^plot \$lat_' plot.gp)" = 12 ] || fail "latency plots"
grep -q "^set title 'Block output' font ',11' offset 0, 0$" plot.gp || fail "no block output panel"
grep -q "^set ylabel 'MiB/s'$" plot.gp && grep -q "^set ylabel 'files/s'$" plot.gp &&
	grep -q "^set ylabel 'seeks/s'$" plot.gp && grep -q "^set ylabel 'ms'$" plot.gp &&
	grep -q "^set ylabel 'us'$" plot.gp || fail "units: $(grep '^set ylabel' plot.gp | sort -u)"
# %CP: one panel of every test, 0 to 100.
[ "$(grep -c '^plot \$cpu ' plot.gp)" = 1 ] || fail "cpu plots"
grep -q '^set yrange \[0:100\]$' plot.gp || fail "%CP not 0 to 100"
# +++++ (vm's seq_stat): no figure, a hatched marker and a note in the key.
grep -q '^1 NaN NaN NaN 1 1 # seq_stat$' plot.gp || fail "vm's seq_stat: $(grep 'seq_stat$' plot.gp)"
grep -q '^bar(f, x) = x > 0 ? NaN : clip(f)$' plot.gp || fail "a +++++ cell may have a bar"
grep -A1 "^plot \$rate_seq_stat " plot.gp | grep -q 'with boxes fs transparent pattern 4 border lt -1 lc variable' ||
	fail "seq_stat: no hatched marker"
grep -q "^set label [0-9]* '+++++ (%CP: +++): under 0.5 s, not timed' at " plot.gp || fail "no +++++ note in the key"

# The saved script draws the same picture again, byte for byte.
mkdir "$WORK/again"
cd "$WORK/again" || fail "cd"
HOME="$WORK" gnuplot "$WORK/png/plot.gp" >"$WORK/out" 2>"$WORK/err" ||
	fail "gnuplot plot.gp: $(cat "$WORK/err")"
cmp plot.png "$WORK/png/plot.png" || fail "plot.png differs when drawn again"

# --split: the three charts, no plot.png; each key names only the series
# with bars in it: convm004 (1.03 lines) has no latency.
mkdir "$WORK/split"
cd "$WORK/split" || fail "cd"
expect_status 0 "$R" plot --split -o plot.png --script s.gp $IN
[ "$(files .)" = "plot-cpu.png plot-latency.png plot-throughput.png s.gp " ] ||
	fail "--split files: $(files .)"
png_check plot-throughput.png 1400 700
png_check plot-cpu.png 1400 400
png_check plot-latency.png 1400 700
sed -n '/^# ---- plot-latency.png$/,$p' s.gp >lat.gp
grep -q '^set label [0-9]* name\[1\] at ' lat.gp && grep -q '^set label [0-9]* name\[2\] at ' lat.gp ||
	fail "latency key: $(grep '^set label [0-9]* name' lat.gp)"
grep -q '^set label [0-9]* name\[3\] at ' lat.gp && fail "latency key names convm004, which has no bar"
sed -n '/^# ---- plot-cpu.png$/,/^# ---- plot-latency.png$/p' s.gp | grep -q "^set label [0-9]* '+++: under 0.5 s, not timed' at " ||
	fail "cpu key: no +++ note"

# --page is the default's name; with --split it is refused.
expect_status 2 "$R" plot --page --split -o p.png $IN
[ "$(cat "$WORK/err")" = "clyde-report: plot: --split --page: --split writes a file per chart, --page one picture" ] ||
	fail "--page --split: $(cat "$WORK/err")"
expect_status 2 "$R" plot --split --over-time -o p.png $IN
[ -e p.png ] && fail "a refused --split made p.png"

# Mirroring on and off, three repeats a side: block output means of
# 134641 and 168367 KiB/s, 131.5 and 164.4 MiB/s, bars of their own
# heights on a linear axis.
mkdir "$WORK/mirror"
cd "$WORK/mirror" || fail "cd"
expect_status 0 "$R" plot -o x.png --script x.gp "$D/compare-repeats.csv"
[ "$(files .)" = "x.gp x.png " ] || fail "mirror files: $(files .)"
grep -q '^1 131.485 123.349 139.621 0 1 # put_block$' x.gp && grep -q '^2 164.421 157.705 171.136 0 2 # put_block$' x.gp ||
	fail "put_block: $(grep 'put_block$' x.gp)"
# Every file test of a side says +++++ for stat: markers only, no scale.
grep -A4 "^set title 'Sequential stat' font" x.gp | grep -q '^unset ytics$' || fail "a scale for +++++ alone"
# %CP past 100 (several processes): the bar at 100, a triangle, a key entry.
sed -e 's/,51346,98,134822,56,/,51346,98,134822,156,/' -e 's/,51200,98,131200,55,/,51200,98,131200,185,/' \
	"$D/compare-repeats.csv" >over.csv
expect_status 0 "$R" plot -o o.png --script o.gp over.csv
grep -q '^0.8 132.667 [-0-9.]* [0-9.]* 0 1 # put_block$' o.gp || fail "cpu past 100: $(grep 'put_block$' o.gp)"
grep -A6 '^plot \$cpu ' o.gp | grep -q 'using 1:(over(\$5)) with points pt 9' || fail "no mark where %CP is capped"
grep -q "^set label [0-9]* '%CP past 100 (several processes): capped at 100' at " o.gp || fail "no cap entry in the key"
grep -q '^clip(v) = v > ymax ? ymax : v$' o.gp || fail "no clip"
grep -q "'%CP past 100" x.gp && fail "a cap entry where nothing is capped"

# A document whose every test took under 0.5 s (rates kept in JSON):
# markers, no bar, no figure over them, and gnuplot (5.4 crashes on a
# labels plot with nothing to draw) draws it.
expect_status 0 "$R" plot -o j.png --script j.gp "$D/run.json"
grep -q '^1 206861 [0-9.]* [0-9.]* 1 1 # putc$' j.gp || fail "run.json putc: $(grep 'putc$' j.gp)"
grep -A3 '^plot \$rate_' j.gp | grep -q 'num(\$2)' && fail "a figure over a +++++ marker"
[ -s j.png ] || fail "run.json: no picture"

# SVG: the page, and the three charts with --split.
mkdir "$WORK/svg"
cd "$WORK/svg" || fail "cd"
expect_status 0 "$R" plot -o plot.svg $IN
[ "$(files .)" = "plot.svg " ] || fail "svg files: $(files .)"
expect_status 0 "$R" plot --split -o s.svg $IN
for f in plot.svg s-throughput.svg s-cpu.svg s-latency.svg; do
	head -c 5 "$f" | grep -q '^<?xml' || fail "$f: not XML"
	grep -q '<svg' "$f" && tail -c 20 "$f" | grep -q '</svg>' || fail "$f: not a whole SVG"
	grep -q '>nvme<' "$f" || fail "$f: no key entry for nvme"
done
grep -q '>Block output<' s-throughput.svg || fail "throughput title"
grep -q '>Worst latency<' plot.svg && grep -q '>Block output<' s-latency.svg || fail "latency title"
grep -q '>CPU use (%CP)<' s-cpu.svg && grep -q '>CPU use (%CP)<' plot.svg || fail "cpu title"

# --page: one file, every chart in it; the default name without -o;
# the input from stdin.
mkdir "$WORK/page"
cd "$WORK/page" || fail "cd"
cat $IN | "$R" plot --page --title 'Two VMs and a SAN' >"$WORK/out" 2>"$WORK/err" ||
	fail "--page: $(cat "$WORK/err")"
[ "$(files .)" = "clyde-report.png " ] || fail "--page files: $(files .)"
png_check clyde-report.png 1400 1800

# Names that try to leave their string: quotes, a backslash at the end,
# gnuplot's own syntax. They plot, as text, and run nothing.
mkdir "$WORK/names"
cd "$WORK/names" || fail "cd"
sed -e "1s/,vm,/,a' . system('touch INJECTED') . 'b \\\\,/" \
	-e "2s/,nvme,/,\"q\" \\\\\" @{x}_y^z ; \\\\,/" "$D/plot-198.csv" >names.csv
grep -q "system('touch INJECTED')" names.csv || fail "names.csv: $(cat names.csv)"
expect_status 0 "$R" plot -o n.png --script n.gp names.csv
[ -e INJECTED ] && fail "a name ran a gnuplot command"
grep -q "^name\[1\] = 'a'' . system(''touch INJECTED'') . ''b \\\\'$" n.gp ||
	fail "name 1: $(grep '^name\[1\]' n.gp)"
grep -q "^name\[2\] = '\"q\" \\\\\" @{x}_y^z ; \\\\'$" n.gp ||
	fail "name 2: $(grep '^name\[2\]' n.gp)"
png_check n.png 1400 1800

# An output that cannot be made: refused before any work, one line
# naming it, exit 2, nothing left.
expect_status 2 "$R" plot -o "$WORK/no/such/dir.png" $IN
grep -q "^clyde-report: '$WORK/no/such/dir.png': cannot make a file there: No such file or directory$" "$WORK/err" ||
	fail "unwritable: $(cat "$WORK/err")"
exit 0
