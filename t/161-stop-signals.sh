#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every signal whose default is to end a process (but SIGKILL, and the
# ones that dump core) stops each program as SIGTERM does: it dies of
# that signal (128 + its number), and leaves no temporary output file
# and no scratch directory. SIGHUP, SIGINT and SIGTERM are 003's and the
# programs' own tests'; here the others: SIGUSR1, SIGUSR2, SIGALRM,
# SIGVTALRM, SIGPROF, SIGIO, SIGPWR and a real-time one (40).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

CURVE=${CLYDE_CURVE:-$(dirname "$CLYDE")/clyde-curve}
O="$WORK/o"
D="$WORK/d"
mkdir "$O" "$D"

# hidden PREFIX: a temporary output file .PREFIX.* is in $O.
hidden() {
	[ -n "$(find "$O" -name ".$1.*" 2>/dev/null)" ]
}

# scratch_made: the scratch directory is in $D.
scratch_made() {
	[ -n "$(find "$D" -mindepth 1 -maxdepth 1 -name 'clyde.*' 2>/dev/null)" ]
}

# gone: $pid has ended (a zombie, not yet waited for, has).
gone() {
	! kill -0 $pid 2>/dev/null || ps -o stat= -p $pid | grep -q Z
}

# stopped WHAT SIG NUM: $pid, started with its outputs half made, is sent
# SIG; it must end with 128 + NUM and leave $O and $D empty.
stopped() {
	kill -s "$2" $pid
	wait_until 200 "$1, signal $2: still running 10 s after it" gone
	wait $pid
	st=$?
	[ $st = $((128 + $3)) ] ||
		fail "$1, signal $2: exit $st, expected $((128 + $3)): $(cat "$WORK/err")"
	assert_empty "$O"
	assert_empty "$D"
	exec 7>&-
	rm -f "$WORK/in"
}

# fifo: $WORK/in, a pipe this shell holds open at both ends (which
# never blocks), so a reader waits for data that never comes.
fifo() {
	mkfifo "$WORK/in"
	exec 7<>"$WORK/in"
}

# clyde, with its JSON on the way: each of the signals.
for s in USR1:10 USR2:12 ALRM:14 VTALRM:26 PROF:27 IO:29 PWR:30 40:40; do
	"$CLYDE" -d "$D" -s 1g -r 0 -n 0 -f -b -q --json="$O/x.json" \
		>"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 200 "clyde never started" hidden x.json
	wait_until 200 "clyde never made its scratch directory" scratch_made
	stopped clyde "${s%:*}" "${s#*:}"
done

# clyde-curve, with its JSON and its chart on the way, in its first step.
for s in USR1:10 ALRM:14 40:40; do
	"$CURVE" -d "$D" -s 16m --step-time=30 --steps=50,100 -q \
		--json="$O/cj.json" --plot="$O/cp.png" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 200 "clyde-curve never started" hidden cp.png
	wait_until 200 "clyde-curve never made its scratch directory" scratch_made
	stopped clyde-curve "${s%:*}" "${s#*:}"
done

# clyde-curve stopped by SIGINT while gnuplot draws (a gnuplot that
# takes its time, first in PATH): the one line of the stop, none of a
# wait that found gnuplot gone ("waitpid: No child processes").
mkdir "$WORK/bin"
cat >"$WORK/bin/gnuplot" <<EOF
#!/bin/sh
cat >/dev/null
: >"$WORK/drawing"
exec sleep 60
EOF
chmod +x "$WORK/bin/gnuplot"
drawing() {
	[ -e "$WORK/drawing" ]
}
PATH="$WORK/bin:$PATH" "$CURVE" -d "$D" -s 8m --step-time=1 --steps=50 -q \
	--plot="$O/cp.png" >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_until 600 "clyde-curve's gnuplot never started" drawing
stopped "clyde-curve drawing" INT 2
! grep -q "waitpid\|--plot" "$WORK/err" &&
	tail -1 "$WORK/err" | grep -q "interrupted by signal 2" ||
	fail "SIGINT while gnuplot draws: $(cat "$WORK/err")"
rm "$WORK/drawing"

# clyde-report html, reading from a pipe nothing is written to yet.
for s in USR2:12 PROF:27; do
	fifo
	"$CLYDE_REPORT" html -o "$O/o.html" "$WORK/in" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 200 "clyde-report never started" hidden o.html
	stopped clyde-report "${s%:*}" "${s#*:}"
done

# clyde-zcav, its read blocked on an empty pipe: before, SIGUSR1 was its
# own wake-up, and the run went on to fail.
for s in USR1:10 ALRM:14; do
	fifo
	"$CLYDE_ZCAV" -b 1m -l "$O/z.log" --plot="$O/zp.png" "$WORK/in" \
		>"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 200 "clyde-zcav never started" hidden zp.png
	stopped clyde-zcav "${s%:*}" "${s#*:}"
done

# clyde-sweep, with its JSON and its chart on the way.
for s in USR2:12 IO:29; do
	"$CLYDE_SWEEP" -s 64m -B 4k,1m --json="$O/sj.json" --plot="$O/sp.png" "$D" \
		>"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 200 "clyde-sweep never started" hidden sj.json
	wait_until 200 "clyde-sweep never made its scratch directory" scratch_made
	stopped clyde-sweep "${s%:*}" "${s#*:}"
done
exit 0
