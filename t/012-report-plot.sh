#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report plot: without gnuplot one line and exit 2; a gnuplot that
# fails leaves no file; with gnuplot (.ci/run installs gnuplot-nox) PNGs
# and SVGs of plausible size and dimensions, a saved script equal to the
# golden one that draws the same pictures again, one file with --page,
# and names that cannot break out of their gnuplot strings.
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

# One PNG per chart, the saved script as the golden one.
mkdir "$WORK/png"
cd "$WORK/png" || fail "cd"
expect_status 0 "$R" plot -o plot.png --script plot.gp $IN
[ -s "$WORK/err" ] && fail "stderr: $(cat "$WORK/err")"
[ "$(files .)" = "plot-cpu.png plot-latency.png plot-throughput.png plot.gp " ] ||
	fail "files: $(files .)"
png_check plot-throughput.png 1400 620
png_check plot-cpu.png 1200 560
png_check plot-latency.png 1200 560
cmp plot.gp "$D/plot.gp.expected" ||
	fail "script differs: $(diff "$D/plot.gp.expected" plot.gp | head -20)"
# The figures in the script are the lines' own: get_block 2527078 KiB/s
# is 2467.85 MiB/s, and convm004's two putc lines average 51233.5 KiB/s.
grep -q '^4 2467.85 NaN NaN 0 3072 NaN NaN 0 307.626 ' plot.gp || fail "get_block row"
grep -q '^0 0.589844 NaN NaN 0 1.1748 NaN NaN 0 50.0327 ' plot.gp || fail "putc row"

# The saved script draws the same pictures again, byte for byte.
mkdir "$WORK/again"
cd "$WORK/again" || fail "cd"
HOME="$WORK" gnuplot "$WORK/png/plot.gp" >"$WORK/out" 2>"$WORK/err" ||
	fail "gnuplot plot.gp: $(cat "$WORK/err")"
for c in throughput cpu latency; do
	cmp "plot-$c.png" "$WORK/png/plot-$c.png" || fail "plot-$c.png differs when drawn again"
done

# SVG: the same three charts.
mkdir "$WORK/svg"
cd "$WORK/svg" || fail "cd"
expect_status 0 "$R" plot -o plot.svg $IN
for c in throughput cpu latency; do
	f=plot-$c.svg
	head -c 5 "$f" | grep -q '^<?xml' || fail "$f: not XML"
	grep -q '<svg' "$f" && tail -c 20 "$f" | grep -q '</svg>' || fail "$f: not a whole SVG"
	grep -q '>nvme<' "$f" || fail "$f: no key entry for nvme"
done
grep -q '>Sequential I/O throughput<' plot-throughput.svg || fail "throughput title"
grep -q '>Worst latency<' plot-latency.svg || fail "latency title"

# --page: one file, the four panels in it; the default name without -o;
# the input from stdin.
mkdir "$WORK/page"
cd "$WORK/page" || fail "cd"
cat $IN | "$R" plot --page --title 'Two VMs and a SAN' >"$WORK/out" 2>"$WORK/err" ||
	fail "--page: $(cat "$WORK/err")"
[ "$(files .)" = "clyde-report.png " ] || fail "--page files: $(files .)"
png_check clyde-report.png 1600 1100

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
png_check n-throughput.png 1400 620

# An output that cannot be made: refused before any work, one line
# naming it, exit 2, nothing left.
expect_status 2 "$R" plot -o "$WORK/no/such/dir.png" $IN
grep -q "^clyde-report: '$WORK/no/such/dir-throughput.png': cannot make a file there: No such file or directory$" "$WORK/err" ||
	fail "unwritable: $(cat "$WORK/err")"
exit 0
