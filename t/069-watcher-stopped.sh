#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The scratch directory's watcher (a process of clyde's in a session of
# its own) stopped with SIGSTOP must not hold the run at its end: clyde
# waits for it a bounded time, acts on SIGTERM at once, and kills it,
# with its scratch directory removed all the same. One copy and -c 2.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

mkdir "$WORK/d"

# watcher_of PID: the child of PID that leads a session of its own.
watcher_of() {
	ps -o pid=,sid= --ppid "$1" | awk '$1 == $2 { print $1; exit }'
}

# stopped_watcher SIGNAL LIMIT ARGS...: clyde with its watcher stopped;
# SIGNAL (or - for none) sent once its CSV line is out. It must end
# within LIMIT seconds of that; its status in $st, the seconds in $took.
stopped_watcher() {
	sw_sig=$1 sw_limit=$2
	shift 2
	"$CLYDE" -d "$WORK/d" -s 32m -n 0 -r 0 \
		--only=put_block,rewrite,get_block -q "$@" \
		>"$WORK/out" 2>"$WORK/err" &
	pid=$!
	i=0 w=""
	while [ -z "$w" ]; do
		w=$(watcher_of $pid)
		i=$((i + 1))
		[ $i -lt 200 ] || { kill -9 $pid; fail "no watcher: $(cat "$WORK/err")"; }
		[ -n "$w" ] || sleep 0.05
	done
	kill -STOP "$w"
	wait_until 1200 "no CSV line" in_file '^1\.98,' "$WORK/out"
	[ "$sw_sig" = - ] || kill -"$sw_sig" $pid
	start=$(date +%s)
	i=0
	while kill -0 $pid 2>/dev/null && [ "$(ps -o stat= -p $pid)" != Z ]; do
		i=$((i + 1))
		if [ $i -ge $((sw_limit * 20)) ]; then
			# Let it go, so that the test ends.
			kill -CONT "$w"
			wait $pid
			fail "$*: still running ${sw_limit} s after the run's end ($sw_sig): $(cat "$WORK/err")"
		fi
		sleep 0.05
	done
	wait $pid
	st=$?
	took=$(($(date +%s) - start))
	# The watcher is gone: killed and reaped, not left stopped.
	kill -0 "$w" 2>/dev/null && fail "$*: the watcher $w is still there"
	assert_empty "$WORK/d"
}

# SIGTERM: 143 at once.
stopped_watcher TERM 5
[ "$st" = 143 ] || fail "SIGTERM: exit $st: $(cat "$WORK/err")"
grep -q "interrupted by signal 15; scratch files removed" "$WORK/err" ||
	fail "SIGTERM: $(cat "$WORK/err")"
stopped_watcher TERM 5 -c 2
[ "$st" = 143 ] || fail "SIGTERM -c 2: exit $st: $(cat "$WORK/err")"

# No signal: the run ends within its bound (2 s), saying what it did.
stopped_watcher - 8
[ "$st" = 0 ] || fail "no signal: exit $st: $(cat "$WORK/err")"
grep -q "scratch watcher (pid [0-9]*) did not exit when told the run was over: killed it" \
	"$WORK/err" || fail "no signal: $(cat "$WORK/err")"
[ "$(grep -c . "$WORK/out")" = 1 ] || fail "no signal: stdout: $(cat "$WORK/out")"
stopped_watcher - 8 -c 2
[ "$st" = 0 ] || fail "no signal, -c 2: exit $st: $(cat "$WORK/err")"

# A watcher left alone is never killed: no such line in a plain run.
expect_status 0 "$CLYDE" -d "$WORK/d" -s 8m -r 0 -f -n 0 -q
grep -q "scratch watcher" "$WORK/err" 2>/dev/null && fail "a plain run killed its watcher"
assert_empty "$WORK/d"
exit 0
