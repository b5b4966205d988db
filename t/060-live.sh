#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The live status line (--progress). On a terminal (script(1)'s
# pseudo-terminal) a 10 s sync_write shows it, redrawn at least once a
# second (from script's timing data), erased at the end with the
# progress text put back. With stderr to a file there is none (no
# carriage return, no escape); --progress gives it there too;
# --progress=none and -q give none on a terminal either. A stop erases
# it. A bad value is one line, exit 2.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v script >/dev/null || skip "script not installed (util-linux)"
D="$WORK/d"
mkdir "$D"
CR=$(printf '\r')
ESC=$(printf '\033')
SYNC="-d $D -s 16m -r 0 -n 0 --only=sync_write --sync-ops=100000000"

# on_tty NAME ARGS...: clyde ARGS on a pseudo-terminal, stdout dropped:
# what the terminal got in $WORK/NAME.ts, script's timing in NAME.tm.
on_tty() {
	ot_name=$1
	shift
	script -q -e -T "$WORK/$ot_name.tm" \
		-c "'$CLYDE' $* >/dev/null" "$WORK/$ot_name.ts" >/dev/null 2>&1 ||
		fail "clyde $* on a terminal: exit $?: $(cat "$WORK/$ot_name.ts")"
}

# draws NAME: the times (s, from the start) at which the status line was
# drawn: each "\rsync_write" in the typescript (after script's header
# line), found in the chunk of the timing data that holds its byte.
draws() {
	dr_head=$(head -n 1 "$WORK/$1.ts" | wc -c)
	grep -boa "${CR}sync_write " "$WORK/$1.ts" | cut -d: -f1 |
		awk -v head="$dr_head" -v tm="$WORK/$1.tm" '
		BEGIN {
			while ((getline l < tm) > 0) {
				split(l, f, " ")
				t += f[1]; end[++n] = off + f[2]; at[n] = t; off += f[2]
			}
			k = 1
		}
		{
			o = $1 - head
			while (k < n && end[k] <= o) k++
			printf "%.3f\n", at[k]
		}'
}

# gaps NAME: "COUNT MAXGAP" of the draws.
gaps() {
	draws "$1" | awk 'NR > 1 && $1 - p > g { g = $1 - p } { p = $1 } END { printf "%d %.3f\n", NR, g }'
}

# A 10 s test on a terminal: the line, redrawn at least once a second
# (once more on a loaded machine before it counts as a failure).
tty_ok() {
	on_tty live "$SYNC" --sync-time=10
	set -- $(gaps live)
	echo "draws: $1, longest gap $2 s" >&2
	[ "$1" -ge 10 ] && awk -v g="$2" 'BEGIN { exit !(g <= 1.0) }'
}
tty_ok || tty_ok || fail "the status line was not redrawn at least once a second: $(gaps live)"
tr '\r' '\n' <"$WORK/live.ts" |
	grep -Eq '^sync_write [0-9]+% [0-9.]+[kMG]? ops/s avg [0-9.]+[kMG]? ops/s [0-9]+:[0-9]{2} eta [0-9]+:[0-9]{2} \| all [0-9]+:[0-9]{2} eta [0-9]+:[0-9]{2}\+?'"$ESC"'\[K$' ||
	fail "no status line of the expected form: $(tr '\r' '\n' <"$WORK/live.ts" | grep sync_write | head -3)"
# The share done by the time limit: past half of it at some point.
tr '\r' '\n' <"$WORK/live.ts" | grep -Eq '^sync_write ([5-9][0-9]|100)% ' ||
	fail "the share done never passed half: $(tr '\r' '\n' <"$WORK/live.ts" | grep sync_write | tail -2)"
# Erased, and the progress text back on the line before "done".
grep -aq "${CR}${ESC}\[KWriting synchronously\.\.\.done" "$WORK/live.ts" ||
	fail "the line was not erased before 'done': $(tail -c 300 "$WORK/live.ts" | od -c | tail -5)"
assert_empty "$D"

# stderr to a file: nothing of it (auto), and nothing under none.
for p in "" --progress=auto --progress=none; do
	expect_status 0 "$CLYDE" $SYNC --sync-time=1 $p
	grep -q "Writing synchronously...done" "$WORK/err" || fail "$p: no progress line: $(cat "$WORK/err")"
	if grep -q "$CR" "$WORK/err" || grep -q "$ESC" "$WORK/err"; then
		fail "'$p' with stderr to a file: a carriage return or escape: $(od -c "$WORK/err" | head -5)"
	fi
done
# --progress (always) to a file: the line, erased at the end.
for p in --progress --progress=always; do
	expect_status 0 "$CLYDE" $SYNC --sync-time=1 $p
	grep -q "${CR}sync_write [0-9]*% " "$WORK/err" ||
		fail "$p: no status line in the file: $(od -c "$WORK/err" | head -5)"
	grep -q "${CR}${ESC}\[KWriting synchronously\.\.\.done" "$WORK/err" ||
		fail "$p: not erased before 'done': $(od -c "$WORK/err" | tail -5)"
done
# -q: none, even with --progress.
expect_status 0 "$CLYDE" $SYNC --sync-time=1 -q --progress
if grep -q "$CR" "$WORK/err" || grep -q "$ESC" "$WORK/err"; then
	fail "-q --progress: a status line: $(od -c "$WORK/err" | head -5)"
fi

# A stop while the line is drawn: erased (the progress text back) before
# the stop's line, nothing left behind.
"$CLYDE" $SYNC --sync-time=20 --progress >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_until 200 "no status line within 10 s" in_file "${CR}sync_write" "$WORK/err"
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] || fail "stopped: exit $st: $(tail -c 300 "$WORK/err" | od -c | tail -5)"
tr '\r' '\n' <"$WORK/err" | tail -2 | tr '\033' E >"$WORK/tail"
printf 'E[KWriting synchronously...\nclyde: interrupted by signal 15; scratch files removed\n' |
	cmp -s - "$WORK/tail" || fail "stopped: the line not erased before the stop's: $(cat "$WORK/tail")"
assert_empty "$D"

# On a terminal: none with --progress=none or -q.
for p in --progress=none -q; do
	on_tty none "$SYNC" --sync-time=1 "$p"
	! grep -aq "${CR}sync_write" "$WORK/none.ts" ||
		fail "$p on a terminal: a status line: $(tr '\r' '\n' <"$WORK/none.ts" | grep sync_write | head -2)"
	! grep -aq "$ESC" "$WORK/none.ts" || fail "$p on a terminal: an escape"
done

# A bad value: one line naming it, exit 2.
expect_refused "^clyde: --progress 'sometimes': expected auto, always or none$" \
	"$CLYDE" -d "$D" --progress=sometimes
assert_empty "$D"
