#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# No text reaches gnuplot where it would run a command: gnuplot runs a
# command in backquotes inside a double-quoted string, so every string a
# chart's script holds is single-quoted (a quote doubled), a title of
# several lines too. A target, a directory and a run's name that each
# hold a backquoted command, a $(...), a ' and a " are drawn by
# clyde-zcav, clyde-sweep, clyde-curve and clyde-report plot, and no
# command of theirs ran (no marker file), the picture made.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed (apt-get install gnuplot-nox)"
ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
CURVE=${CLYDE_CURVE:-$(dirname "$CLYDE")/clyde-curve}
REPORT=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}

# Commands that would leave a marker in the current directory ($WORK).
name() {
	printf 'n`touch M%s1`$(touch M%s2)'"'"'q"d' "$1" "$1"
}
cd "$WORK" || fail "cd $WORK"
markers() {
	ls -A "$WORK" | grep '^M' | tr '\n' ' '
}

# clyde-zcav: the target's name in the title.
f=$(name z)
head -c $((8 * 1048576)) /dev/urandom >"$f" || fail "making $f"
expect_status 0 "$ZCAV" -b 1 --plot "$WORK/z.png" --plot-script "$WORK/z.gp" "$WORK/$f"
[ -s "$WORK/z.png" ] || fail "clyde-zcav drew no picture"
grep -q '`' "$WORK/z.gp" || fail "clyde-zcav: the name is not in its script"
rm -f "$f"

# clyde-sweep: the directory's name in the title.
d=$(name s)
mkdir "$d"
expect_status 0 "$SWEEP" -s 8m -B 4k,1m --plot "$WORK/s.png" --plot-script "$WORK/s.gp" "$WORK/$d"
[ -s "$WORK/s.png" ] || fail "clyde-sweep drew no picture"
grep -q '`' "$WORK/s.gp" || fail "clyde-sweep: the name is not in its script"

# clyde-curve: the directory, and the run's name (-m has no ").
m=$(name c | tr -d '"')
expect_status 0 "$CURVE" -d "$WORK/$d" -s 16m --step-time=1 --steps=50 -m "$m" \
	--plot "$WORK/c.png" -q
[ -s "$WORK/c.png" ] || fail "clyde-curve drew no picture"

# clyde-report plot: the run's name from its CSV line.
m=$(name r | tr -d '"')
expect_status 0 "$CLYDE" -d "$WORK/$d" -s 8m -r 0 -n 0 -f -q --only=put_block,get_block -m "$m"
grep '^1\.98,' "$WORK/out" >"$WORK/r.csv"
expect_status 0 "$REPORT" plot -o "$WORK/r.png" "$WORK/r.csv"
[ -s "$WORK/r.png" ] || fail "clyde-report plot drew no picture"
assert_empty "$WORK/$d"

[ -z "$(markers)" ] || fail "a name ran as a command: $(markers)"
exit 0
