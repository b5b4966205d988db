# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the fault-injection tests (t/04x-faultfs-*.sh), after lib.sh:
# mount the rig t/faultfs (a FUSE passthrough that fails, corrupts or
# delays operations on command; `t/faultfs --help`) over a backing
# directory of the test's own, talk to it, and unmount it on every exit
# path.

FAULTFS=${FAULTFS:-$(cd "$(dirname "$0")" && pwd)/faultfs}
# strerror(EIO), as the programs' messages end when the rig fails a call.
EIO='Input/output error'

# ff_missing: why the rig cannot run here, on stdout, or nothing (and
# false) when it can.
ff_missing() {
	if [ ! -x "$FAULTFS" ]; then
		echo "the fault rig $FAULTFS is not built" \
			"(configure found no libfuse3; Debian: apt-get install" \
			"libfuse3-dev fuse3, then run configure again)"
	elif [ ! -c /dev/fuse ]; then
		echo "/dev/fuse is missing: no FUSE here"
	elif ! command -v fusermount3 >/dev/null 2>&1; then
		echo "fusermount3 is not installed (Debian: apt-get install fuse3)"
	else
		return 1
	fi
}

# Skip (77), saying why, where the rig cannot run.
ff_require() {
	ff_why=$(ff_missing) && skip "$ff_why"
	return 0
}

# ff_mount BACKING MOUNTPOINT [faultfs options]: make both directories,
# mount, wait until the control file answers. Sets FF_MNT, FF_CTL,
# FF_PID, FF_LOG; the unmount is registered with at_exit.
ff_mount() {
	ff_back=$1
	FF_MNT=$2
	shift 2
	FF_CTL=$FF_MNT/.faultfs
	FF_LOG=$WORK/faultfs.log
	mkdir -p "$ff_back" "$FF_MNT" || fail "mkdir $ff_back $FF_MNT"
	"$FAULTFS" -f "$@" "$ff_back" "$FF_MNT" 2>>"$FF_LOG" &
	FF_PID=$!
	at_exit ff_umount
	ff_i=0
	until [ -e "$FF_CTL" ]; do
		if ! kill -0 "$FF_PID" 2>/dev/null || [ $ff_i -ge 100 ]; then
			[ "$(id -u)" = 0 ] ||
				skip "no FUSE mount as uid $(id -u): $(cat "$FF_LOG")"
			fail "faultfs did not mount: $(cat "$FF_LOG")"
		fi
		sleep 0.05
		ff_i=$((ff_i + 1))
	done
}

# ff_gone: the daemon has ended (it is our child: a zombie until waited).
ff_gone() {
	! kill -0 "$FF_PID" 2>/dev/null ||
		[ "$(awk '{ print $3 }' "/proc/$FF_PID/stat" 2>/dev/null)" = Z ]
}

# ff_wait_gone: up to a second for the daemon to end.
ff_wait_gone() {
	ff_i=0
	while ! ff_gone && [ $ff_i -lt 20 ]; do
		sleep 0.05
		ff_i=$((ff_i + 1))
	done
	ff_gone
}

# Unmount and end the daemon. Anything holding the mount (another
# program scanning mounts) makes the unmount lazy; the daemon is then
# stopped by signal.
ff_umount() {
	[ -n "${FF_PID:-}" ] || return 0
	fusermount3 -u "$FF_MNT" 2>/dev/null ||
		fusermount3 -u -z "$FF_MNT" 2>/dev/null ||
		umount -l "$FF_MNT" 2>/dev/null
	ff_wait_gone || { kill -TERM "$FF_PID" 2>/dev/null && ff_wait_gone; } ||
		kill -KILL "$FF_PID" 2>/dev/null
	wait "$FF_PID" 2>/dev/null
	FF_PID=
}

# ff_cmd LINE...: send control lines; a refused line fails the test.
ff_cmd() {
	printf '%s\n' "$@" >"$FF_CTL" ||
		fail "faultfs refused '$*': $(tail -n 1 "$FF_LOG")"
}

# ff_read_ctl: the control file's text into $WORK/ff.status; a failed
# read or close prints "unreadable" (which no count equals) and fails.
ff_read_ctl() {
	cat "$FF_CTL" >"$WORK/ff.status" 2>"$WORK/ff.err" || {
		echo "unreadable: $(cat "$WORK/ff.err")"
		return 1
	}
}

# ff_fired N: how many times rule N fired (rules count from 1 after
# each clear).
ff_fired() {
	ff_read_ctl || return 1
	ff_n=$(sed -n "s/^rule $1 fired=\([0-9]*\) .*/\1/p" "$WORK/ff.status")
	echo "${ff_n:-0}"
}

# ff_slept_us N: the microseconds rule N (a delay) slept in all.
ff_slept_us() {
	ff_read_ctl || return 1
	ff_n=$(sed -n "s/^rule $1 fired=[0-9]* matched=[0-9]* slept_us=\([0-9]*\)[ :].*/\1/p" \
		"$WORK/ff.status")
	echo "${ff_n:-0}"
}

# ff_ops OP: how many OP operations the rig served since the last clear.
ff_ops() {
	ff_read_ctl || return 1
	ff_n=$(sed -n "s/^op $1 \([0-9]*\)$/\1/p" "$WORK/ff.status")
	echo "${ff_n:-0}"
}

# ff_alive: the daemon is still serving (a crash would show as
# "Transport endpoint is not connected" in whatever ran next), its
# control file reads cleanly, and it reported no refused command.
ff_alive() {
	kill -0 "$FF_PID" 2>/dev/null || fail "faultfs died: $(cat "$FF_LOG")"
	ff_read_ctl >/dev/null || fail "faultfs control file: $(cat "$WORK/ff.err")"
	grep '^faultfs: ' "$FF_LOG" && fail "faultfs complained: $(cat "$FF_LOG")"
	return 0
}

# now_ms: a monotonic-enough wall clock in milliseconds.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# ff_setup: the rig mounted at $M over the backing directory $B (both in
# $WORK), or the test skipped as ff_require says.
ff_setup() {
	ff_require
	B=$WORK/back
	M=$WORK/mnt
	ff_mount "$B" "$M"
}

# ff_expect_clyde SUB TITLE CALL ERROR RULE CLYDE-ARGS...: with only RULE
# armed (rule 1), clyde on $M exits 1 with one line, "clyde: TITLE: CALL
# <a file under its scratch directory, below SUB>: ERROR", prints no CSV
# line, the fault fired, nothing is left in $B and the rig still runs.
ff_expect_clyde() {
	sub=$1 title=$2 call=$3 err=$4 rule=$5
	shift 5
	what="'$rule' with $*"
	ff_cmd clear "$rule"
	"$CLYDE" -d "$M" -r 0 -q "$@" >"$WORK/out" 2>"$WORK/err"
	st=$?
	[ $st = 1 ] || fail "$what: exit $st, expected 1: $(cat "$WORK/err")"
	grep '^clyde: ' "$WORK/err" | grep -v -e '^clyde: data ' -e '^clyde: sized ' >"$WORK/msgs"
	[ "$(wc -l <"$WORK/msgs")" = 1 ] ||
		fail "$what: not one error line: $(cat "$WORK/err")"
	grep -q "^clyde: $title: $call $M/clyde\.[A-Za-z0-9]*/$sub[^ ]*: $err\$" \
		"$WORK/msgs" || fail "$what: message: $(cat "$WORK/msgs")"
	grep -q '^1\.98,' "$WORK/out" && fail "$what: a failed run printed a CSV line"
	[ "$(ff_fired 1)" -ge 1 ] || fail "$what: the fault never fired: $(cat "$FF_CTL")"
	assert_empty "$B"
	ff_alive
}
