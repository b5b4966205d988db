#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-zcav's outputs (any user): a log or plot that is a target (by
# name, hard link, symbolic link, or standard input redirected from it)
# is refused with exit 2 and the target is left as it was; two outputs
# with one final name are refused; an output that cannot be made is
# refused before anything is read, naming it; a refused or stopped run
# leaves no file behind and keeps what the user had; standard input named
# twice is refused; -b and -r take no empty, negative or trailing parts.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}

D="$WORK/d"
mkdir "$D"
head -c $((16 * 1048576)) /dev/urandom >"$D/t.dat" || fail "making data"
head -c $((8 * 1048576)) /dev/urandom >"$D/u.dat" || fail "making data"
sum_t=$(cksum <"$D/t.dat")
sum_u=$(cksum <"$D/u.dat")

# unchanged: both data files as they were made.
unchanged() {
	[ "$(cksum <"$D/t.dat")" = "$sum_t" ] || fail "$*: t.dat changed ($(wc -c <"$D/t.dat") bytes)"
	[ "$(cksum <"$D/u.dat")" = "$sum_u" ] || fail "$*: u.dat changed ($(wc -c <"$D/u.dat") bytes)"
}

# refused PATTERN CMD...: exit 2, one line matching, nothing read (stdout
# empty), the data unchanged, no temporary file left in $D.
refused() {
	pat=$1
	shift
	expect_refused "^clyde-zcav: .*$pat" "$@"
	[ -s "$WORK/out" ] && fail "'$*': read before refusing: $(cat "$WORK/out")"
	unchanged "$*"
	left=$(find "$D" -name '.*' -type f)
	[ -z "$left" ] || fail "'$*': left $left"
}

# A log that is the target, by name, by hard link, by symbolic link.
refused "-l '$D/t.dat'.* is the target" "$ZCAV" -b 4 -l "$D/t.dat" "$D/t.dat"
ln "$D/t.dat" "$D/hard.dat"
refused "-l '$D/hard.dat'.* is the target" "$ZCAV" -b 4 -l "$D/hard.dat" "$D/t.dat"
ln -s t.dat "$D/sym.dat"
refused "-l '$D/sym.dat'.* is the target" "$ZCAV" -b 4 -l "$D/sym.dat" "$D/t.dat"
# One target's log is another target.
refused "-l '$D/u.dat'.* is the target '$D/u.dat'" \
	"$ZCAV" -b 4 -l "$D/u.dat" "$D/t.dat" "$D/u.dat"
refused "-l '$D/hard.dat'.* is the target '$D/t.dat'" \
	"$ZCAV" -b 4 -l "$D/log" "$D/u.dat" -l "$D/hard.dat" "$D/t.dat"
[ -e "$D/log" ] && fail "a refused run made a log"
# Standard input that is the log, redirected from it.
refused "-l '$D/u.dat'.* is the target '-'" sh -c "exec '$ZCAV' -b 4 -l '$D/u.dat' - <'$D/u.dat'"
# The plot that is a target, or is a log.
if command -v gnuplot >/dev/null 2>&1; then
	cp "$D/u.dat" "$D/u.png"
	refused "--plot '$D/u.png'.* is the target" "$ZCAV" -b 4 --plot "$D/u.png" "$D/u.png"
	cmp -s "$D/u.dat" "$D/u.png" || fail "--plot over a target changed it"
	rm "$D/u.png"
	refused "--plot '$D/x.png'.* -l '$D/x.png'" \
		"$ZCAV" -b 4 --plot "$D/x.png" -l "$D/x.png" "$D/t.dat"
	[ -e "$D/x.png" ] && fail "a refused run made $D/x.png"
fi
# Two logs with one final name, spelled two ways.
mkdir "$D/sub"
refused "'$D/sub/../l'.* '$D/l'" \
	"$ZCAV" -b 4 -l "$D/l" "$D/t.dat" -l "$D/sub/../l" "$D/u.dat"
[ -e "$D/l" ] && fail "a refused run made a log"

# An output that cannot be made: refused before the first read, naming it.
refused "-l '/nonexistent/log'" "$ZCAV" -b 4 -l /nonexistent/log "$D/t.dat"
refused "-l '$D/sub'.* directory" "$ZCAV" -b 4 -l "$D/sub" "$D/t.dat"
mkfifo "$D/sub/fifo"
refused "-l '$D/sub/fifo'.* FIFO" timeout 10 "$ZCAV" -b 4 -l "$D/sub/fifo" "$D/t.dat"
rm "$D/sub/fifo"
if command -v gnuplot >/dev/null 2>&1; then
	refused "--plot '/nonexistent/x.png'" "$ZCAV" -b 4 --plot /nonexistent/x.png "$D/t.dat"
	mkdir "$D/dir.png"
	refused "--plot '$D/dir.png'.* directory" "$ZCAV" -b 4 --plot "$D/dir.png" "$D/t.dat"
fi

# An existing log is replaced only by a complete one.
echo "keep me" >"$D/old.log"
refused "-l '/nonexistent/log'" "$ZCAV" -b 4 -l "$D/old.log" "$D/t.dat" -l /nonexistent/log "$D/u.dat"
[ "$(cat "$D/old.log")" = "keep me" ] || fail "a refused run changed an existing log"
expect_status 0 "$ZCAV" -b 4 -l "$D/old.log" "$D/t.dat"
grep -q '^# Read 16 megs' "$D/old.log" || fail "the log was not replaced: $(cat "$D/old.log")"
[ -s "$WORK/out" ] && fail "a logged target wrote to stdout"
left=$(find "$D" -name '.*' -type f)
[ -z "$left" ] || fail "a run left $left"

# Standard input twice: "-" twice, or "-" and /dev/stdin.
refused "standard input.*twice" sh -c "exec '$ZCAV' -b 4 - -l '$D/x' - <'$D/t.dat'"
refused "standard input.*twice" sh -c "cat '$D/t.dat' | '$ZCAV' -b 4 -l '$D/x' - /dev/stdin"
[ -e "$D/x" ] && fail "a refused run made a log"

# -b and -r: every part present, not negative, nothing after it; the
# message names the whole value.
for v in 4: :4 4::1 4:1: -4 4:-1 "4 " 4,1; do
	refused "-b '$v'" "$ZCAV" -b "$v" "$D/t.dat"
done
for v in :8 4: -4:8 4:-8 4:8: 4:8x :: "8 " ""; do
	refused "-r '$v'" "$ZCAV" -b 4 -r "$v" "$D/t.dat"
done
exit 0
