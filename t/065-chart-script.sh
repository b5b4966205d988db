#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --plot-script of clyde-zcav and clyde-sweep (any user): refused with
# exit 2 and one line, before anything is read or written, without
# --plot, when it is the --plot, --json or a log's file or a target, or
# cannot be made (a directory, a missing directory), keeping a file the
# user had; when gnuplot fails neither the picture nor the script is
# left and an existing script is kept; when it succeeds the script is
# the chart's, drawing to --plot's name: zcav's title names the file
# and its size and its blocks under 0.5 s are "not counted" points; a
# sweep on a directory draws its cells under 0.5 s as markers only.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}

command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed"
D="$WORK/d"
mkdir "$D" "$D/sub" "$WORK/fake"
head -c $((16 * 1048576)) /dev/urandom >"$D/t.dat" || fail "making data"
echo "keep me" >"$D/old.gp"

# left: no temporary file, picture or script of a refused or failed run.
left() {
	l=$(find "$D" -name '.*' -o -name '*.png' -o -name 'new.gp')
	[ -z "$l" ] || fail "$*: left $l"
	[ "$(cat "$D/old.gp")" = "keep me" ] || fail "$*: old.gp changed"
}
refused() {
	pat=$1
	shift
	expect_refused "$pat" "$@"
	[ -s "$WORK/out" ] && fail "'$*': ran before refusing: $(head -3 "$WORK/out")"
	left "$*"
}

for prog in zcav sweep; do
	if [ $prog = zcav ]; then
		run() { "$ZCAV" -b 4 -c 3 "$@" "$D/t.dat"; }
		P=clyde-zcav
	else
		run() { "$SWEEP" -s 16m -B 1m "$@" "$D/sub"; }
		P=clyde-sweep
	fi
	refused "^$P: --plot-script '$D/new.gp': goes with --plot" \
		run --plot-script "$D/new.gp"
	refused "^$P: --plot-script '$D/x.png'.* the same file as --plot" \
		run --plot "$D/x.png" --plot-script "$D/x.png"
	refused "^$P: --plot-script '$D/x.json'.* the same file as --json" \
		run --plot "$D/x.png" --json="$D/x.json" --plot-script "$D/x.json"
	refused "^$P: --plot-script '/nonexistent/new.gp'" \
		run --plot "$D/x.png" --plot-script /nonexistent/new.gp
	refused "^$P: --plot-script '$D/sub'.* directory" \
		run --plot "$D/x.png" --plot-script "$D/sub"
	refused "^$P: --plot-script '': empty name" \
		run --plot "$D/x.png" --plot-script ""
	# gnuplot fails: nothing kept, the old script as it was.
	printf '#!/bin/sh\ncat >/dev/null\necho "no, not today" >&2\nexit 1\n' >"$WORK/fake/gnuplot"
	chmod +x "$WORK/fake/gnuplot"
	OLDPATH=$PATH
	PATH="$WORK/fake:$PATH"
	expect_status 1 run --plot "$D/x.png" --plot-script "$D/old.gp"
	PATH=$OLDPATH
	grep -q "^$P: --plot '$D/x.png': gnuplot failed" "$WORK/err" ||
		fail "$prog: gnuplot's failure not said: $(cat "$WORK/err")"
	left "$prog with a failing gnuplot"
	[ -z "$(ls -A "$D/sub")" ] || fail "$prog left $(ls -A "$D/sub")"
done
refused "^clyde-zcav: --plot-script '$D/t.dat'.* is the target" \
	"$ZCAV" -b 4 --plot "$D/x.png" --plot-script "$D/t.dat" "$D/t.dat"
refused "^clyde-zcav: --plot-script '$D/l'.* the same file as -l" \
	"$ZCAV" -b 4 --plot "$D/x.png" -l "$D/l" --plot-script "$D/l" "$D/t.dat"

# zcav: the script replaces the old one; its title names the file and
# its size; every block of a file in the page cache is under 0.5 s.
expect_status 0 "$ZCAV" -b 4 -c 3 --plot "$D/z.png" --plot-script "$D/old.gp" "$D/t.dat"
[ -s "$D/z.png" ] || fail "no zcav picture"
GP=$D/old.gp
grep -q "^set output '$D/z.png'$" "$GP" || fail "the zcav script draws elsewhere: $(head -3 "$GP")"
grep -q "^set title 'clyde-zcav: read throughput by position, 4 MiB blocks, trimmed mean of 3 passes'\\.\"\\\\n\"\\.'$D/t.dat (16M)'\\.\"\\\\n\"\\.'run 20[0-9-]* [0-9:]* UTC'$" "$GP" ||
	fail "zcav title: $(grep '^set title' "$GP")"
grep -q "^plot .*\$d0f using 1:2 with points pt 6 lc 1 title '$D/t.dat: blocks under 0.5 s (not counted)'" "$GP" ||
	fail "no not-counted points: $(grep '^plot' "$GP")"
rm "$D/z.png"
(cd "$WORK" && gnuplot "$GP") && [ -s "$D/z.png" ] || fail "gnuplot on the saved zcav script"
rm "$D/z.png" "$D/old.gp"

# sweep on a directory: cells under 0.5 s have markers, never bars.
expect_status 0 "$SWEEP" -s 16m -B 1m --plot "$D/s.png" --plot-script "$D/s.gp" "$D/sub"
[ -s "$D/s.png" ] && [ -s "$D/s.gp" ] || fail "no sweep picture or script"
n=$(awk -F, 'NF == 9 && $7 < 0.5' "$WORK/out" | wc -l)
m=$(awk '$2 == "<<" { on = ($1 ~ /_FAST$/); next } $1 == "EOD" { on = 0 } on' "$D/s.gp" | wc -l)
[ "$m" = $((n * 2)) ] || fail "$m markers for $n cells under 0.5 s (two panels each)"
for v in $(awk -F, 'NF == 9 && $7 < 0.5 { print $8 }' "$WORK/out"); do
	grep -q " $v" "$D/s.gp" && fail "the rate $v of a cell under 0.5 s is in the script"
done
exit 0
