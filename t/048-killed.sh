#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Killed outright (SIGKILL: the OOM killer, mpirun's kill, a crash),
# clyde cannot clean up itself: its scratch directory's watcher does,
# once the run and every process it forked are gone. One copy, -c 2
# (the workers die with the run) and two -d targets; each time nothing
# is left in the directories and no clyde process is left running.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

mkdir "$WORK/a" "$WORK/b"

# killed ARGS...: clyde in block output, then SIGKILL; nothing left
# within a few seconds.
killed() {
	start_writing 200 "$WORK/a" -s 1g -r 0 -f -n 0 "$@"
	kill -KILL $pid
	wait $pid 2>/dev/null
	i=0
	until [ -z "$(find "$WORK/a" "$WORK/b" -mindepth 1)" ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "killed ($*): left $(find "$WORK/a" "$WORK/b" -mindepth 1)"
		sleep 0.05
	done
	i=0
	while pgrep -f "$WORK/a" >/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "killed ($*): a process is left: $(pgrep -af "$WORK/a")"
		sleep 0.05
	done
}

killed
killed -c 2
killed -d "$WORK/b"
# And a run that ends as it should leaves its watcher no work and no
# process behind.
expect_status 0 "$CLYDE" -d "$WORK/a" -s 8m -r 0 -f -n 0 -q
assert_empty "$WORK/a"
pgrep -f "$WORK/a" >/dev/null && fail "a process is left after a whole run"
exit 0
