#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report's outputs (plot's pictures and --script, -o of html, txt
# and compare): every one is checked before any work, and one that exists
# and is not a regular file (a device node, a symbolic link, a directory)
# is refused with exit 2 naming it; each is written under a temporary
# name and renamed when whole, so a gnuplot that fails, or a page over
# the file size limit, leaves the user's files as they were and no file
# of its own. A failing gnuplot's message gives its reason.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
D="${T_SRCDIR:-$(dirname "$0")}/data"
IN="$D/plot-198.csv"

# one_line: the last command said exactly one line on stderr.
one_line() {
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "not one line: $(cat "$WORK/err")"
}

# Fake gnuplots, earlier on PATH than the real one. Each notes that it
# ran and keeps the script it was given.
# fail: writes into every output it is told to (as gnuplot would before
# its error), then fails as gnuplot does, an empty line first.
mkdir "$WORK/failbin" "$WORK/okbin" "$WORK/mutebin"
cat >"$WORK/failbin/gnuplot" <<EOF
#!/bin/sh
cat >"$WORK/gp-script"
: >"$WORK/gp-ran"
sed -n "s/^set output '\\(.*\\)'\$/\\1/p" "$WORK/gp-script" |
while read -r f; do echo partial >"\$f"; done
printf '\\ngnuplot> set output "x"\\n                  ^\\n         line 0: cannot open file; output not changed\\nsystem error: No space left on device\\n\\n' >&2
exit 1
EOF
# ok: writes every output and succeeds.
cat >"$WORK/okbin/gnuplot" <<EOF
#!/bin/sh
cat >"$WORK/gp-script"
: >"$WORK/gp-ran"
sed -n "s/^set output '\\(.*\\)'\$/\\1/p" "$WORK/gp-script" |
while read -r f; do echo "picture by gnuplot" >"\$f"; done
exit 0
EOF
# mute: fails and says nothing.
cat >"$WORK/mutebin/gnuplot" <<EOF
#!/bin/sh
cat >/dev/null
exit 4
EOF
chmod +x "$WORK/failbin/gnuplot" "$WORK/okbin/gnuplot" "$WORK/mutebin/gnuplot"
FAILP="$WORK/failbin:$PATH"
OKP="$WORK/okbin:$PATH"

# refused WHAT PATHWORD: exit 2, one line naming the path, gnuplot not run.
refused() {
	[ "$got" = 2 ] || fail "$1: exit $got, expected 2; stderr: $(cat "$WORK/err")"
	one_line
	grep -q "$2" "$WORK/err" || fail "$1: message does not name $2: $(cat "$WORK/err")"
	[ -e "$WORK/gp-ran" ] && fail "$1: gnuplot ran before the output was checked"
	[ -s "$WORK/out" ] && fail "$1: wrote to stdout: $(head -3 "$WORK/out")"
	return 0
}

# run PATH ARGS...: clyde-report with that PATH, in the current directory.
run() {
	p=$1
	shift
	rm -f "$WORK/gp-ran"
	env PATH="$p" "$R" "$@" >"$WORK/out" 2>"$WORK/err"
	got=$?
}

# Device nodes (root only): a copy of /dev/full made here, never the
# real one, as --script, as a chart's name and as -o of every subcommand.
if [ "$(id -u)" = 0 ]; then
	mkdir "$WORK/dev"
	cd "$WORK/dev" || fail "cd"
	mknod n c 1 7 || fail "mknod"
	run "$OKP" plot --script=n -o o.png "$IN"
	refused "--script=<a device node>" "'n'"
	[ -c n ] || fail "--script=n: the device node was removed"
	[ "$(files .)" = "n " ] || fail "--script=n: left $(files .)"

	mv n out-cpu.png
	run "$FAILP" plot --split -o out.png "$IN"
	refused "a device node as out-cpu.png" "out-cpu.png"
	[ -c out-cpu.png ] || fail "the device node out-cpu.png was removed"
	[ "$(files .)" = "out-cpu.png " ] || fail "device chart: left $(files .)"

	for cmd in html txt compare; do
		run "$OKP" $cmd -o out-cpu.png "$IN"
		refused "$cmd -o <a device node>" "out-cpu.png"
		[ -c out-cpu.png ] || fail "$cmd -o: the device node was removed"
		[ "$(files .)" = "out-cpu.png " ] || fail "$cmd -o node: left $(files .)"
	done
	# Standard output on such a node is written, not removed, and each
	# command says why it failed (json gave no reason).
	for cmd in txt json html; do
		"$R" $cmd "$IN" >out-cpu.png 2>"$WORK/err"
		[ $? = 1 ] || fail "$cmd >/dev/full copy: not exit 1"
		grep -q 'No space left on device' "$WORK/err" || fail "$cmd >full: $(cat "$WORK/err")"
		[ -c out-cpu.png ] || fail "$cmd: stdout's device node was removed"
	done
fi

# A symbolic link as a chart: refused, the link and its target kept.
mkdir "$WORK/link"
cd "$WORK/link" || fail "cd"
echo precious >target
ln -s target out-latency.png
run "$FAILP" plot --split -o out.png "$IN"
refused "a symbolic link as out-latency.png" "out-latency.png"
[ -L out-latency.png ] || fail "the link out-latency.png was removed"
[ "$(cat target)" = precious ] || fail "the link's target was changed: $(cat target)"
[ "$(files .)" = "out-latency.png target " ] || fail "link: left $(files .)"
for cmd in html txt compare; do
	run "$OKP" $cmd -o out-latency.png "$IN"
	refused "$cmd -o <a symbolic link>" "out-latency.png"
	[ "$(cat target)" = precious ] || fail "$cmd -o link: target changed"
done
run "$OKP" plot --page -o out.png --script=out-latency.png "$IN"
refused "--script=<a symbolic link>" "out-latency.png"
[ "$(cat target)" = precious ] || fail "--script=link: target changed"
rm out-latency.png
# The default's one picture as a link: refused the same.
ln -s target out.png
run "$FAILP" plot -o out.png "$IN"
refused "a symbolic link as out.png" "out.png"
[ "$(cat target)" = precious ] || fail "-o link: target changed"
rm out.png

# A directory as --script or -o.
mkdir s.gp
run "$OKP" plot -o out.png --script=s.gp "$IN"
refused "--script=<a directory>" "s.gp"
run "$OKP" html -o s.gp "$IN"
refused "html -o <a directory>" "s.gp"
[ -d s.gp ] || fail "the directory s.gp went"
rmdir s.gp

# A directory that is not there: exit 2 naming the path, before the
# inputs are read (the missing input is not what is reported).
for cmd in "plot -o $WORK/no/such/p.png" "html -o $WORK/no/such/p.html" \
	"txt -o $WORK/no/such/p.txt" "compare -o $WORK/no/such/p.txt"; do
	# shellcheck disable=SC2086 # the words are meant to split
	run "$OKP" $cmd "$WORK/missing.csv"
	refused "$cmd" "$WORK/no/such/p"
done
run "$OKP" plot -o p.png --script="$WORK/no/such/p.gp" "$IN"
refused "--script in a missing directory" "$WORK/no/such/p.gp"
[ "$(files .)" = "target " ] || fail "missing directory: left $(files .)"

# An output that is also an input would be lost: refused.
cp "$IN" in.csv
for cmd in html txt compare; do
	run "$OKP" $cmd -o in.csv in.csv
	refused "$cmd -o <its input>" "in.csv"
	cmp -s in.csv "$IN" || fail "$cmd -o in.csv: the input was changed"
done
run "$OKP" plot -o out.png --script=in.csv in.csv
refused "--script=<its input>" "in.csv"
cmp -s in.csv "$IN" || fail "--script=in.csv: the input was changed"
rm in.csv target

# gnuplot fails: the user's own script and picture under those names
# stay as they were, nothing else is left, and the message says why.
mkdir "$WORK/fail"
cd "$WORK/fail" || fail "cd"
echo "my script" >s.gp
echo "my picture" >out.png
chmod 640 s.gp
run "$FAILP" plot -o out.png --script=s.gp "$IN"
[ "$got" = 1 ] || fail "failing gnuplot: exit $got; stderr: $(cat "$WORK/err")"
[ -e "$WORK/gp-ran" ] || fail "the fake gnuplot did not run"
one_line
grep -q '^clyde-report: plot: gnuplot failed: .*cannot open file; output not changed' "$WORK/err" ||
	fail "failing gnuplot: no reason: $(cat "$WORK/err")"
[ "$(cat s.gp)" = "my script" ] || fail "the user's s.gp was changed: $(head -3 s.gp)"
[ "$(cat out.png)" = "my picture" ] || fail "the user's out.png was changed"
[ "$(files .)" = "out.png s.gp " ] || fail "failing gnuplot: left $(files .)"
# gnuplot was told to write one picture, under a temporary name beside
# the final one.
[ "$(grep -c '^set output' "$WORK/gp-script")" = 1 ] ||
	fail "gnuplot's outputs: $(grep '^set output' "$WORK/gp-script")"
grep -q "^set output '\.out\.png\.[A-Za-z0-9]\{6\}'$" "$WORK/gp-script" ||
	fail "gnuplot's output names: $(grep '^set output' "$WORK/gp-script")"

# A gnuplot that fails without a word: its status is the reason.
run "$WORK/mutebin:$PATH" plot -o out.png "$IN"
[ "$got" = 1 ] || fail "mute gnuplot: exit $got"
one_line
grep -q '^clyde-report: plot: gnuplot failed: .*status 4' "$WORK/err" ||
	fail "mute gnuplot: $(cat "$WORK/err")"
[ "$(files .)" = "out.png s.gp " ] || fail "mute gnuplot: left $(files .)"

# gnuplot succeeds: the files are replaced (a file's mode kept), the
# saved script names the final file, and no temporary file is left.
run "$OKP" plot -o out.png --script=s.gp "$IN"
[ "$got" = 0 ] || fail "plot: exit $got; stderr: $(cat "$WORK/err")"
[ -s "$WORK/err" ] && fail "plot: stderr: $(cat "$WORK/err")"
[ "$(files .)" = "out.png s.gp " ] || fail "plot: files: $(files .)"
[ "$(cat out.png)" = "picture by gnuplot" ] || fail "out.png: $(cat out.png)"
[ "$(grep -c '^set output' s.gp)" = 1 ] && grep -q "^set output 'out.png'$" s.gp ||
	fail "s.gp's outputs: $(grep '^set output' s.gp)"
[ "$(stat -c %a s.gp)" = 640 ] || fail "s.gp's mode: $(stat -c %a s.gp)"
grep -q '^\$rate_put_block << EOD$' s.gp || fail "s.gp is not the script"

# --split: the three charts, temporary while gnuplot draws, and no
# out.png; when gnuplot fails, none of them.
mkdir "$WORK/split"
cd "$WORK/split" || fail "cd"
run "$FAILP" plot --split -o out.png --script=s.gp "$IN"
[ "$got" = 1 ] || fail "--split, failing gnuplot: exit $got"
[ "$(files .)" = "" ] || fail "--split, failing gnuplot: left $(files .)"
[ "$(grep -c "^set output '\.out-[a-z]*\.png\.[A-Za-z0-9]\{6\}'$" "$WORK/gp-script")" = 3 ] ||
	fail "--split: gnuplot's output names: $(grep '^set output' "$WORK/gp-script")"
run "$OKP" plot --split -o out.png --script=s.gp "$IN"
[ "$got" = 0 ] || fail "--split: exit $got; stderr: $(cat "$WORK/err")"
[ "$(files .)" = "out-cpu.png out-latency.png out-throughput.png s.gp " ] ||
	fail "--split: files: $(files .)"
for c in throughput cpu latency; do
	[ "$(cat out-$c.png)" = "picture by gnuplot" ] || fail "out-$c.png: $(cat out-$c.png)"
	grep -q "^set output 'out-$c.png'$" s.gp || fail "s.gp does not name out-$c.png"
done

# html -o over an existing page, failing at the file size limit: the old
# page stays; the same with txt -o.
cd "$WORK" || fail "cd"
echo "old page" >p.html
over_fsize 2 "$R" html -o "$WORK/p.html" "$D/r198.csv" "$D/r197.csv" \
	"$D/r103.csv" "$D/run.json"
[ "$status" = 1 ] || fail "html over the size limit: exit $status; $(cat "$WORK/err")"
[ "$(cat p.html)" = "old page" ] || fail "the old page was changed: $(head -c 100 p.html)"
grep -q 'p.html' "$WORK/err" || fail "html over the size limit: $(cat "$WORK/err")"
ls -A "$WORK" | grep -q '^\.p\.html\.' && fail "a temporary page was left"

# txt -o and compare -o write what standard output gets.
"$R" txt "$D/r198.csv" >txt.stdout || fail "txt"
expect_status 0 "$R" txt -o "$WORK/t.txt" "$D/r198.csv"
cmp -s t.txt txt.stdout || fail "txt -o: not what stdout gets"
"$R" compare "$D/san-1.csv" "$D/san-2.csv" >cmp.stdout || fail "compare"
expect_status 0 "$R" compare -o "$WORK/c.txt" "$D/san-1.csv" "$D/san-2.csv"
cmp -s c.txt cmp.stdout || fail "compare -o: not what stdout gets"
exit 0
