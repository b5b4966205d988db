#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report plot stopped by SIGTERM, SIGINT or SIGHUP while gnuplot
# draws: gnuplot is stopped too, no temporary file is left, the user's
# files under the output names are as they were, and the exit status is
# 128 + the signal's number (--split: a picture per chart, every one
# kept).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
D="${T_SRCDIR:-$(dirname "$0")}/data"

# A gnuplot that writes part of every picture, says it is drawing (its
# pid in $WORK/gp-pid), then takes its time.
mkdir "$WORK/bin" "$WORK/run"
cat >"$WORK/bin/gnuplot" <<EOF
#!/bin/sh
cat >"$WORK/gp-script"
sed -n "s/^set output '\\(.*\\)'\$/\\1/p" "$WORK/gp-script" |
while read -r f; do echo partial >"\$f"; done
echo \$\$ >"$WORK/gp-pid.tmp"
mv "$WORK/gp-pid.tmp" "$WORK/gp-pid"
exec sleep 20
EOF
chmod +x "$WORK/bin/gnuplot"
at_exit '[ -s "$WORK/gp-pid" ] && kill -KILL "$(cat "$WORK/gp-pid")"'
at_exit '[ -n "${pid:-}" ] && kill -KILL "$pid"'

cd "$WORK/run" || fail "cd"
echo "my script" >s.gp
echo "my picture" >out-cpu.png

# stopped SIG WANT: plot, SIG once gnuplot draws, exit status WANT.
stopped() {
	rm -f "$WORK/gp-pid"
	env PATH="$WORK/bin:$PATH" "$R" plot --split -o out.png --script=s.gp \
		"$D/plot-198.csv" "$D/plot-103.csv" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	n=0
	while [ ! -s "$WORK/gp-pid" ]; do
		n=$((n + 1))
		[ $n -gt 200 ] && fail "$1: gnuplot never started: $(cat "$WORK/err")"
		sleep 0.05
	done
	# While gnuplot draws, its temporary pictures are there.
	drawing=$(files .)
	kill -s "$1" "$pid"
	n=0
	while kill -0 "$pid" 2>/dev/null; do
		n=$((n + 1))
		[ $n -gt 100 ] && fail "$1: clyde-report still runs 5 s after the signal"
		sleep 0.05
	done
	wait "$pid"
	got=$?
	pid=
	[ "$got" = "$2" ] || fail "$1: exit $got, expected $2; stderr: $(cat "$WORK/err")"
	gp=$(cat "$WORK/gp-pid")
	kill -0 "$gp" 2>/dev/null && fail "$1: gnuplot ($gp) still runs"
	[ "$(files .)" = "out-cpu.png s.gp " ] || fail "$1: left $(files .)"
	[ "$(cat s.gp)" = "my script" ] || fail "$1: s.gp was changed"
	[ "$(cat out-cpu.png)" = "my picture" ] || fail "$1: out-cpu.png was changed"
	case $drawing in
	*.out-throughput.png.*) ;;
	*) fail "$1: no temporary picture while gnuplot drew: $drawing" ;;
	esac
	return 0
}

stopped TERM 143
stopped INT 130
stopped HUP 129
exit 0
