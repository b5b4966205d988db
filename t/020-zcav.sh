#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-zcav on files and pipes (any user): the output parses as zcav's
# and covers every byte, -s/-r/-c/-l do what zcav's do, a pipe is read
# without seeking, every bad value is one line and exit 2, writing needs
# the file named twice and refuses a filesystem image, a stop is 143,
# and --plot draws a PNG or says how to get gnuplot.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}

# 40 MiB of data, and 36 MiB (the last 8 MiB block is partial).
head -c $((40 * 1048576)) /dev/urandom >"$WORK/f40" || fail "making data"
head -c $((36 * 1048576)) "$WORK/f40" >"$WORK/f36"

# check_lines FILE BLOCKS MEGS FIRST_OFFSET STEP_MIB: every line is a
# header, a block or a summary; BLOCKS block lines at FIRST + k*STEP
# MiB (as %.2f GiB); the summary says MEGS megs.
check_lines() {
	awk -v want="$2" -v megs="$3" -v first="$4" -v step="$5" '
	/^#loops: [0-9]+, version: clyde-/ { loops++; next }
	/^#block offset \(GiB\), MiB\/s, time$/ { cols++; next }
	/^# Read [0-9]+ megs in [0-9]+ seconds, [0-9]+ megabytes per second\.$/ {
		sum++; if ($3 != megs) { print "summary says " $3 " megs"; bad = 1 }; next }
	/^#$/ { next }
	/^#[0-9]+\.[0-9][0-9] \+\+\+\+ [0-9]+\.[0-9][0-9][0-9]$/ { off = substr($1, 2); blk(); next }
	/^[0-9]+\.[0-9][0-9] [0-9]+\.[0-9][0-9] [0-9]+\.[0-9][0-9][0-9]$/ {
		if ($3 < 0.5) { print "counted under 0.5 s: " $0; bad = 1 }
		off = $1; blk(); next }
	{ print "unexpected line: " $0; bad = 1 }
	function blk() {
		w = sprintf("%.2f", (first + n * step) / 1024)
		if (off != w) { print "block " n " at " off ", expected " w; bad = 1 }
		n++
	}
	END {
		if (loops != 1 || cols != 1 || sum < 1) { print "headers/summary missing"; bad = 1 }
		if (n != want) { print n " blocks, expected " want; bad = 1 }
		exit bad
	}' "$1" || fail "$1: $(cat "$1")"
}

expect_status 0 "$ZCAV" -b 8 "$WORK/f40"
cp "$WORK/out" "$WORK/a"
check_lines "$WORK/a" 5 40 0 8
expect_status 0 "$ZCAV" -b 8:2 "$WORK/f36"
cp "$WORK/out" "$WORK/a"
check_lines "$WORK/a" 5 36 0 8

# A pipe and "-": read in order, no seek; -s on a pipe reads and drops.
cat "$WORK/f36" | "$ZCAV" -b 8 - >"$WORK/a" 2>"$WORK/err" ||
	fail "pipe: $(cat "$WORK/err")"
check_lines "$WORK/a" 5 36 0 8
cat "$WORK/f40" | "$ZCAV" -b 8 -s 2 - >"$WORK/a" 2>"$WORK/err" ||
	fail "pipe -s 2: $(cat "$WORK/err")"
check_lines "$WORK/a" 3 24 0 16
mkfifo "$WORK/fifo"
cat "$WORK/f40" >"$WORK/fifo" &
"$ZCAV" -b 8 -r 8:24 -f "$WORK/fifo" >"$WORK/a" 2>"$WORK/err" ||
	fail "fifo -r 8:24: $(cat "$WORK/err")"
wait
check_lines "$WORK/a" 2 16 8 8
expect_status 0 "$ZCAV" -b 8 -r 8:24 "$WORK/f40"
cp "$WORK/out" "$WORK/a"
check_lines "$WORK/a" 2 16 8 8
expect_status 0 "$ZCAV" -b 8 -r 20 "$WORK/f40"
cp "$WORK/out" "$WORK/a"
check_lines "$WORK/a" 3 20 0 8

# -c 3: one summary per pass, then the blocks' trimmed means.
expect_status 0 "$ZCAV" -b 16 -c 3 "$WORK/f40"
grep -q '^#loops: 3, version: clyde-' "$WORK/out" || fail "-c 3: $(cat "$WORK/out")"
[ "$(grep -c '^# Read 40 megs' "$WORK/out")" = 3 ] || fail "-c 3: three summaries: $(cat "$WORK/out")"
[ "$(grep -cE '^#?[0-9]+\.[0-9][0-9] ' "$WORK/out")" = 3 ] || fail "-c 3: three blocks: $(cat "$WORK/out")"

# Two targets at once, each to its own log; stdout stays empty.
expect_status 0 "$ZCAV" -b 8 -l "$WORK/log1" -f "$WORK/f40" -l "$WORK/log2" "$WORK/f36"
[ -s "$WORK/out" ] && fail "two logged targets wrote to stdout: $(cat "$WORK/out")"
check_lines "$WORK/log1" 5 40 0 8
check_lines "$WORK/log2" 5 36 0 8

# Bad values: one line naming the value, exit 2.
bad() {
	pat=$1
	shift
	expect_refused "^clyde-zcav: .*$pat" "$@"
}
bad "'12x'" "$ZCAV" -b 12x "$WORK/f40"
bad "'0'" "$ZCAV" -b 0 "$WORK/f40"
bad "chunk must not exceed" "$ZCAV" -b 4:8 "$WORK/f40"
bad "4 KiB" "$ZCAV" -b 1001k "$WORK/f40"
bad "'41'.*past the end" "$ZCAV" -r 41 "$WORK/f40"
bad "end must be past" "$ZCAV" -r 8:8 "$WORK/f40"
bad "'0'" "$ZCAV" -c 0 "$WORK/f40"
bad "'-3'" "$ZCAV" -s -3 "$WORK/f40"
bad "No such file" "$ZCAV" "$WORK/nonexistent"
bad "character device" "$ZCAV" /dev/null
bad "directory" "$ZCAV" "$WORK"
bad "no target" "$ZCAV"
bad "2 targets write to stdout" "$ZCAV" "$WORK/f40" "$WORK/f36"
bad "read only once" sh -c "cat '$WORK/f40' | '$ZCAV' -c 2 -"
bad "only go with -w" "$ZCAV" --destroy-data="$WORK/f40" "$WORK/f40"
bad "'x.jpg'.*png or .svg" "$ZCAV" --plot x.jpg "$WORK/f40"
bad "apt-get install gnuplot-nox" env PATH=/nonexistent "$ZCAV" --plot "$WORK/x.png" "$WORK/f40"
bad "unknown option" "$ZCAV" --bogus "$WORK/f40"

# Writing: the file named twice, and never over a filesystem unasked.
sum0=$(cksum <"$WORK/f36")
bad "destroy-data=" "$ZCAV" -w -b 8 "$WORK/f36"
bad "not the target" "$ZCAV" -w -b 8 --destroy-data="$WORK/f40" "$WORK/f36"
[ "$(cksum <"$WORK/f36")" = "$sum0" ] || fail "a refused write changed the file"
ln -s f36 "$WORK/link36"
expect_status 0 "$ZCAV" -w -b 8 --destroy-data="$WORK/link36" "$WORK/f36"
grep -q '^# Wrote 36 megs' "$WORK/out" || fail "-w: $(cat "$WORK/out")"
[ "$(cksum <"$WORK/f36")" != "$sum0" ] || fail "-w left the file as it was"
[ "$(wc -c <"$WORK/f36")" = $((36 * 1048576)) ] || fail "-w changed the size"
if command -v mkfs.ext4 >/dev/null 2>&1 || [ -x /sbin/mkfs.ext4 ]; then
	PATH=$PATH:/sbin:/usr/sbin
	truncate -s 64M "$WORK/ext4.img"
	mkfs.ext4 -q -F -L data "$WORK/ext4.img" || fail "mkfs.ext4 on a file"
	sum0=$(cksum <"$WORK/ext4.img")
	bad "ext4.img holds an ext4 filesystem labelled data" \
		"$ZCAV" -w -b 8 --destroy-data="$WORK/ext4.img" "$WORK/ext4.img"
	[ "$(cksum <"$WORK/ext4.img")" = "$sum0" ] || fail "a refused write changed the image"
	expect_status 0 "$ZCAV" -w -b 8 --force --destroy-data="$WORK/ext4.img" "$WORK/ext4.img"
fi

# A stop while a pipe delivers nothing: out at once with 143.
# (The writer holds the pipe open, silent, until it is killed.)
(
	sleep 30 >/dev/null 2>&1 &
	echo $! >"$WORK/sleeper"
	wait
) | "$ZCAV" -b 8 - >"$WORK/a" 2>"$WORK/err" &
pid=$!
sleep 1
at_exit kill "$(cat "$WORK/sleeper")"
kill -TERM $pid
# It must be gone at once, though the pipe's writer is still there.
for _ in 1 2 3 4 5 6 7 8 9 10; do
	kill -0 $pid 2>/dev/null || break
	sleep 0.2
done
kill -0 $pid 2>/dev/null && fail "SIGTERM on a stalled pipe: still running after 2 s"
kill "$(cat "$WORK/sleeper")"
wait $pid
st=$?
[ $st = 143 ] || fail "SIGTERM on a stalled pipe: exit $st, expected 143: $(cat "$WORK/err")"

# -u/-g as in bonnie++'s zcav: the target is opened first, then the
# logs are made as that user. Unknown names are one line, exit 2.
expect_status 2 "$ZCAV" -u no-such-user-here "$WORK/f40"
grep -q "^clyde-zcav: -u 'no-such-user-here': no such user$" "$WORK/err" || fail "-u: $(cat "$WORK/err")"
expect_status 2 "$ZCAV" -g no-such-group-here "$WORK/f40"
grep -q "^clyde-zcav: -g 'no-such-group-here': no such group$" "$WORK/err" || fail "-g: $(cat "$WORK/err")"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chmod 600 "$WORK/f40"
	chmod 711 "$WORK" # nobody may pass through to open/, no further
	mkdir "$WORK/open" && chmod 1777 "$WORK/open"
	expect_status 0 "$ZCAV" -u nobody -b 8 -l "$WORK/open/log" "$WORK/f40"
	[ "$(stat -c %u "$WORK/open/log")" = "$(id -u nobody)" ] ||
		fail "-u nobody: the log is not nobody's: $(ls -ln "$WORK/open")"
	grep -q '^# Read 40 megs' "$WORK/open/log" || fail "-u nobody: $(cat "$WORK/open/log")"
	# The user may not write where root may: the log is refused.
	expect_status 2 "$ZCAV" -u nobody -b 8 -l "$WORK/nobody-cannot" "$WORK/f40"
	grep -q "Permission denied" "$WORK/err" || fail "-u nobody -l: $(cat "$WORK/err")"
	chmod 644 "$WORK/f40"
	chmod 700 "$WORK"
elif [ "$(id -u)" != 0 ]; then
	expect_status 2 "$ZCAV" -u 0 -b 8 "$WORK/f40"
	grep -q "only root can change user or group" "$WORK/err" || fail "-u 0: $(cat "$WORK/err")"
fi

# The plot: a real PNG, or a clean skip of this part without gnuplot.
if command -v gnuplot >/dev/null 2>&1; then
	expect_status 0 "$ZCAV" -b 8 --plot "$WORK/z.png" -l "$WORK/log1" "$WORK/f40" -l "$WORK/log2" "$WORK/f36"
	[ "$(head -c 4 "$WORK/z.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
		fail "--plot did not write a PNG: $(cat "$WORK/err")"
	expect_status 0 "$ZCAV" -b 8 --plot "$WORK/z.svg" "$WORK/f40"
	grep -q '<svg' "$WORK/z.svg" || fail "--plot did not write an SVG"
fi
exit 0
