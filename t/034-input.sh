#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Lax input refused: empty --only items, options that contradict each
# other, file tests that cannot fit. Signals: the first one received
# sets the exit status. A closed stdout (| head -1): the run stops,
# cleans up, says nothing and exits 141.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"

# refused EXPECTED ARGS...: exit 2, exactly that one line, nothing made.
refused() {
	line=$1
	shift
	expect_status 2 "$CLYDE" -d "$D" "$@"
	[ "$(cat "$WORK/err")" = "$line" ] || fail "'$*': $(cat "$WORK/err") (expected: $line)"
	[ -s "$WORK/out" ] && fail "'$*': wrote to stdout: $(cat "$WORK/out")"
	assert_empty "$D"
}

E="an empty test name (a comma too many)"
refused "clyde: --only 'putc,,seeks': $E" -s 16m --only=putc,,seeks
refused "clyde: --only ',putc': $E" -s 16m --only=,putc
refused "clyde: --only 'putc,': $E" -s 16m --only=putc,
# Every figure clyde measures, in the registry's order (lib/figures.h):
# a new figure is in the list unedited; bonnie++'s and clyde's own are.
tests=$(sed -nE 's/^	X\(([a-z_]+), "[^"]*", [A-Z]+, (IO|SEQ|RAN),.*/\1/p' \
	"${T_SRCDIR:-$(dirname "$0")}/../lib/figures.h" | paste -sd, | sed 's/,/, /g')
for t in putc put_block rewrite getc get_block seeks ran_read ran_write \
	sync_write seq_create seq_stat seq_del ran_create ran_stat ran_del; do
	case ", $tests, " in *", $t, "*) ;; *) fail "lib/figures.h: no $t in $tests" ;; esac
done
refused "clyde: --only ' ': not a test ($tests)" \
	-s 16m --only=' '
refused "clyde: --no-latency with -v/--latency: the percentiles need every latency recorded" \
	-s 16m --no-latency -v
refused "clyde: --no-latency with -v/--latency: the percentiles need every latency recorded" \
	-s 16m --latency --no-latency
refused "clyde: --only 'putc,seeks': -f skips the per-char tests named" -s 16m -f --only=putc,seeks
refused "clyde: --only 'getc': -D skips the per-char tests named" -s 16m -D --only=getc
refused "clyde: --only 'seeks': -s 0 skips the I/O tests named" -s 0 --only=seeks
refused "clyde: --only 'ran_stat': -n 0 skips the file tests named" -s 16m -n 0 --only=ran_stat
refused "clyde: -f '20m': -D skips the per-char tests (O_DIRECT takes whole aligned blocks only)" \
	-s 16m -D -f 20m
refused "clyde: -f '2m': -s 0 makes no data file for the per-char tests" -s 0 -f 2m
refused "clyde: -f '32m': more than the data file (-s 16M) holds" -s 16m -f 32m
refused "clyde: -s '0:4k': -s 0 skips the I/O tests: it takes no chunk, seeks or procs" -s 0:4k
refused "clyde: -n '0:4k': -n 0 runs no file tests: it takes no sizes, directories or chunk" -s 0 -n 0:4k
refused "clyde: -n '1:-2::2:4k': empty files and links (max 0, -1 or -2) write no data: no chunk" \
	-s 0 -n 1:-2::2:4k
if [ "$(id -u)" = 0 ]; then
	refused "clyde: --drop-caches with -D and -n 0: no test reads through the page cache" \
		-s 16m -n 0 -D --drop-caches
fi
g1=$(id -gn)
if g2=$(getent group | cut -d: -f1 | grep -vx "$g1" | head -n 1) && [ -n "$g2" ]; then
	refused "clyde: -g '$g2' with -u '$(id -un):$g1': two different groups" \
		-s 0 -n 0 -u "$(id -un):$g1" -g "$g2"
fi

# File tests that cannot fit are refused before the first test, by the
# rule in clyde(1): each file's largest size rounded up to a block plus
# 64 bytes, and one inode per file. (-n 1:16t would write until the disk
# is full without the check, so it is tried on a small filesystem only.)
if [ "$(id -u)" = 0 ]; then
	SMALL="$WORK/small"
	mkdir "$SMALL"
	mount -t tmpfs -o size=64m,nr_inodes=500 clyde-t-small "$SMALL" || fail "mount tmpfs"
	at_exit umount_wait "$SMALL"
	expect_status 2 "$CLYDE" -d "$SMALL" -s 0 -r 0 -n 1:16t
	grep -q "^clyde: -n 1:16t: the file tests need 16385T (each file's largest size rounded up to a block, plus 64 bytes), only 64M free in '$SMALL'$" "$WORK/err" ||
		fail "-n 1:16t: $(cat "$WORK/err")"
	assert_empty "$SMALL"
	expect_status 2 "$CLYDE" -d "$SMALL" -s 0 -r 0 -n 1
	grep -q "^clyde: -n 1: the file tests need 1026 inodes, only 49[0-9] free in '$SMALL'$" "$WORK/err" ||
		fail "inodes: $(cat "$WORK/err")"
	# The data file stays while the file tests run: both must fit.
	mount -o remount,nr_inodes=4000 "$SMALL" || fail "remount"
	expect_status 2 "$CLYDE" -d "$SMALL" -s 40m -r 0 -n 1:32k
	grep -q "^clyde: -s 40M with -n 1:32k: the data file, the file tests and sync_write's file need 40M, 33M and 16M, only 64M free in '$SMALL'$" "$WORK/err" ||
		fail "-s with -n: $(cat "$WORK/err")"
	# Without sync_write, the message of the two.
	expect_status 2 "$CLYDE" -d "$SMALL" -s 40m -r 0 -n 1:32k --only=put_block,seq_create
	grep -q "^clyde: -s 40M with -n 1:32k: the data file and the file tests need 40M and 33M, only 64M free in '$SMALL'$" "$WORK/err" ||
		fail "-s with -n, no sync_write: $(cat "$WORK/err")"
	# Only what runs takes room: the file tests alone need no room for
	# -s, the data-file tests alone none for -n.
	expect_status 0 "$CLYDE" -d "$SMALL" -s 1g -r 0 -n 1:16k --only=seq_create -q
	expect_status 0 "$CLYDE" -d "$SMALL" -s 40m -r 0 -n 1:64k --only=put_block -q
	# sync_write's own 16M file counts; with no -s, the 4G default for
	# a data file no test uses takes none, and is not announced.
	mount -o remount,size=12m "$SMALL" || fail "remount 12m"
	expect_status 2 "$CLYDE" -d "$SMALL" -r 0 --only=sync_write
	grep -qx "clyde: sync_write's file needs 16M, only 12M free in '$SMALL'" "$WORK/err" ||
		fail "sync_write's room: $(cat "$WORK/err")"
	mount -o remount,size=24m "$SMALL" || fail "remount 24m"
	expect_status 0 "$CLYDE" -d "$SMALL" -r 0 --only=sync_write --sync-ops=10
	grep -q "data 4G" "$WORK/err" && fail "--only=sync_write announced a data file: $(cat "$WORK/err")"
	assert_empty "$SMALL"
	mount -o remount,size=64m "$SMALL" || fail "remount 64m"
	expect_status 0 "$CLYDE" -d "$SMALL" -s 16m -r 0 -n 1:16k -f -q
	assert_empty "$SMALL"
	umount "$SMALL"
fi

# INT, then TERM and HUP while the run is still cleaning up: the first
# one's status, 130. (Signals sent at the same instant reach a process
# in no order the sender chose, so INT goes first and the others come
# while tens of thousands of files are being removed.)
"$CLYDE" -d "$D" -s 0 -r 0 -n 128 -q >"$WORK/out" 2>"$WORK/err" &
pid=$!
many_files() {
	[ "$(find "$D" -type f 2>/dev/null | wc -l)" -gt 60000 ]
}
wait_until 600 "file creation too slow" many_files
kill -INT $pid
sleep 0.1
kill -0 $pid 2>/dev/null || echo "note: the run ended before TERM and HUP; only INT tested" >&2
kill -TERM $pid 2>/dev/null
kill -HUP $pid 2>/dev/null
wait $pid
got=$?
[ "$got" = 130 ] || fail "INT TERM HUP: exit $got, expected 130: $(cat "$WORK/err")"
grep -q '^clyde: interrupted by signal 2; scratch files removed$' "$WORK/err" ||
	fail "INT TERM HUP: $(cat "$WORK/err")"
assert_empty "$D"

# A reader that goes away: the runs stop, the scratch directory goes,
# nothing is said, exit 141 (what a shell shows for SIGPIPE).
{
	"$CLYDE" -d "$D" -s 16m -r 0 -f -n 0 -x 5 -q 2>"$WORK/err"
	echo $? >"$WORK/status"
} | head -n 1 >"$WORK/out"
[ "$(cat "$WORK/status")" = 141 ] || fail "| head -1: exit $(cat "$WORK/status"): $(cat "$WORK/err")"
grep -q '^format_version,' "$WORK/out" || fail "| head -1: got $(cat "$WORK/out")"
grep -qi 'pipe\|writing' "$WORK/err" && fail "| head -1: said $(cat "$WORK/err")"
[ "$(grep -c '^Version clyde' "$WORK/err")" -lt 5 ] || fail "| head -1: all five runs ran"
assert_empty "$D"
exit 0
