#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --log-interval against a cap that changes while the test runs: a
# blkio-capped loop device (the rig of 007), block output under -D
# logged every 500 ms, and halfway through it the test lowers the write
# cap, as a controller's write cache filling up would. The median of the
# intervals wholly before the change must be within 5% of the first cap,
# of those wholly after it within 5% of the second, and every interval
# on its side of the caps' midpoint: a step (the first interval, the one
# that straddles the change and the last, partial one left out). A single
# interval may stray further: the throttle lets a late writer through in
# a burst, and under load neighbours swung by 13% around the cap while
# their median held. clyde-report plot --over-time must draw it. Root
# only; a run that misses is made once more, the test failing only when
# the same figure misses both times; everything set up is undone on every
# exit path. KEEP_DIR=DIR keeps the picture and the document there.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

need_root "loop device, mount, cgroup" losetup mkfs.ext4 mount umount truncate jq
REPORT=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}

# Write caps, bytes/s: before the change and after it.
W1=$((40 * 1048576))
W2=$((20 * 1048576))
SWITCH=4 # seconds after clyde starts

ext4_rig 400

# As in 007: under v1 the cap on the root group for this device only.
if [ -w /sys/fs/cgroup/blkio/cgroup.procs ] &&
	[ -e /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]; then
	CG=/sys/fs/cgroup/blkio
	at_exit cap 0
	cap() { echo "$DEV $1" >"$CG/blkio.throttle.write_bps_device"; }
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	CG=/sys/fs/cgroup/clyde-t.$$
	echo +io >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir "$CG" || skip "cannot make a cgroup"
	at_exit rmdir "$CG"
	cap() { echo "$DEV wbps=$([ "$1" = 0 ] && echo max || echo "$1")" >"$CG/io.max"; }
else
	skip "no blkio (v1) or io (v2) cgroup controller"
fi

# A clyde still running at exit (the test cut short) is ended first.
cpid=""
at_exit '[ -z "$cpid" ] || { kill "$cpid"; wait "$cpid"; }'

# once: one run, the cap lowered SWITCH s in; each side's median checked
# against its cap and each interval against the midpoint, a miss noted
# (lib.sh: missed_figure's lines).
once() {
	cap $W1
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
		"$CLYDE" -d "$MNT" -r 0 -q -n 0 -f -D -s 256m:128k \
		--only=put_block --log-interval=500 --json="$WORK/run.json" \
		>"$WORK/out" 2>"$WORK/err" &
	cpid=$!
	sleep $SWITCH
	sw0=$(date +%s%N)
	cap $W2
	sw=$(date +%s%N)
	wait "$cpid" || { cpid=""; fail "clyde: $(cat "$WORK/err")"; }
	cpid=""
	cap 0
	[ "$(ls -A "$MNT")" = lost+found ] || fail "left behind: $(ls -A "$MNT")"
	jq -e '.settings.log_interval_ms == 500' "$WORK/run.json" >/dev/null ||
		fail "settings.log_interval_ms is not 500"
	# A line per interval: its start and end from the epoch (s), its
	# rate in bytes/s, its p99; checked against the change's time.
	jq -r '.runs[0].tests.put_block as $t | $t.intervals as $iv |
		range(0; $iv | length) as $i | $iv[$i] |
		"\($i) \($iv | length) \(($t.start_unix_ns / 1e9) + .end - .seconds) \(($t.start_unix_ns / 1e9) + .end) \(.bytes / .seconds) \(.p99_ns // 0)"' \
		"$WORK/run.json" >"$WORK/iv" || fail "no intervals in the document"
	awk -v sw0="$sw0" -v sw="$sw" -v w1="$W1" -v w2="$W2" -v missed="$WORK/missed" '
		function median(side,    i, j, t, k) {
			k = seen[side]
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
				if (r[side, j] < r[side, i]) { t = r[side, i]; r[side, i] = r[side, j]; r[side, j] = t }
			return k % 2 ? r[side, (k + 1) / 2] : (r[side, k / 2] + r[side, k / 2 + 1]) / 2
		}
		function judge(side, want,    m, d) {
			m = median(side); d = (m - want) / want * 100
			printf "median of %d intervals %s the change, MiB/s: %.2f against %d (%+.2f%%)\n", seen[side], side, m / 1048576, want / 1048576, d > "/dev/stderr"
			if (d > 5 || d < -5)
				printf "median %s the change, MiB/s\t%.2f\t5\t%d\n", side, m / 1048576, want / 1048576 >>missed
		}
		{ n = $2; s0 = sw0 / 1e9; s = sw / 1e9 }
		$1 == 0 || $1 == n - 1 || ($3 < s && $4 > s0) { next }
		{ side = $4 <= s ? "before" : "after"; r[side, ++seen[side]] = $5
		  printf "interval %d (%s the change), MiB/s: %.2f\n", $1, side, $5 / 1048576 > "/dev/stderr"
		  # The step: each interval on its own side of the midpoint.
		  if ((side == "before") != ($5 > (w1 + w2) / 2))
			printf "interval %d (%s the change): no step, MiB/s\t%.2f\t-\t%d\n", $1, side, $5 / 1048576, (w1 + w2) / 2 / 1048576 >>missed }
		END { if (seen["before"] < 3 || seen["after"] < 3) exit 1
		      judge("before", w1); judge("after", w2) }' "$WORK/iv" ||
		fail "too few intervals on a side of the change: $(cat "$WORK/iv")"
}

# As t/007 (lib.sh): a figure that misses is measured once more, and
# the test fails only when the same one misses both times.
once
while measure_again; do once; done
judge_figures

# The picture: drawn, and a document without intervals refused.
if command -v gnuplot >/dev/null 2>&1; then
	"$REPORT" plot --over-time -o "$WORK/t.png" --script="$WORK/t.gp" "$WORK/run.json" ||
		fail "plot --over-time failed"
	[ -s "$WORK/t.png" ] || fail "plot --over-time made no picture"
	grep -q 'axes x1y2' "$WORK/t.gp" || fail "no p99 on y2 in the script"
	jq 'del(.runs[0].tests.put_block.intervals)' "$WORK/run.json" >"$WORK/none.json"
	expect_status 2 "$REPORT" plot --over-time -o "$WORK/n.png" "$WORK/none.json"
	[ ! -e "$WORK/n.png" ] || fail "a picture without intervals"
	[ -z "${KEEP_DIR:-}" ] || cp "$WORK/t.png" "$WORK/run.json" "$KEEP_DIR"
fi
exit 0
