#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde under mpirun (a --with-mpi build), four ranks on a tmpfs of the
# test's own: one table, one CSV line and one JSON document with the
# four ranks as workers whose work adds up to each test's; an offered
# rate split over the ranks; the per-rank
# -d (%r) made and removed. A rank that refuses its directory makes
# every rank exit 2, said once, naming it; -c 2 and a bad pattern are
# refused; a rank that runs out of room fails the run (exit 1, one
# line naming test, rank, host, directory and error); a rank killed
# with SIGKILL ends the job (mpirun names it) with every other rank's
# scratch removed; a stopped rank fails the run at --barrier-timeout.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

if [ -z "${CLYDE_MPI:-}" ]; then
	ldd "$CLYDE" 2>/dev/null | grep -q libmpi && CLYDE_MPI=yes
fi
[ "${CLYDE_MPI:-no}" = yes ] || skip_build "clyde was not built with MPI (configure --with-mpi)"
command -v mpirun >/dev/null 2>&1 || skip "mpirun not installed (openmpi-bin)"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
command -v jq >/dev/null 2>&1 || skip "jq not installed"
need_root "a tmpfs of its own" mount

T="$WORK/t"
mkdir "$T"
mount -t tmpfs -o size=512m clyde-t046 "$T" || skip "cannot mount a tmpfs"
at_exit umount_wait "$T"

MPI="mpirun -np 4 --oversubscribe --allow-run-as-root"

# rank_pid N: the pid of rank N of the mpirun started last ($pid).
rank_pid() {
	for rp in $(pgrep -P "$pid"); do
		tr '\0' '\n' <"/proc/$rp/environ" 2>/dev/null |
			grep -qx "OMPI_COMM_WORLD_RANK=$1" && { echo "$rp"; return; }
	done
}

# wait_data N LOOKS: until rank N's data file (in $T/?N) is over 64 KiB.
wait_data() {
	wd_i=0
	until [ -n "$(find "$T" -path "*$1/clyde.*/data" -size +64k 2>/dev/null)" ]; do
		wd_i=$((wd_i + 1))
		[ $wd_i -lt "$2" ] || { kill -9 "$pid"; fail "rank $1 never wrote: $(cat "$WORK/err")"; }
		sleep 0.05
	done
}

# The run: one table, one CSV line, progress once, four ranks in JSON.
expect_status 0 $MPI "$CLYDE" -d "$T/r%r" -s 16m -n 1 -r 0 --json="$WORK/m.json"
assert_empty "$T"
[ "$(grep -c '^Name:Size' "$WORK/out")" = 1 ] || fail "not one table: $(cat "$WORK/out")"
[ "$(grep -c '^1\.98,' "$WORK/out")" = 1 ] || fail "not one CSV line: $(cat "$WORK/out")"
[ "$(grep -c 'Writing intelligently' "$WORK/err")" = 1 ] ||
	fail "progress not once: $(cat "$WORK/err")"
grep -q '^1\.98,[^,]*,[^,]*,4,' "$WORK/out" || fail "concurrency field not 4: $(cat "$WORK/out")"
python3 - "$WORK/m.json" "$T" <<'PY' || fail "the JSON document: $(head -c 300 "$WORK/m.json")"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
assert len(runs) == 1
seen = 0
for name, t in runs[0]["tests"].items():
    if "workers" not in t:
        continue
    seen += 1
    w = t["workers"]
    assert [x["rank"] for x in w] == [0, 1, 2, 3], name
    assert sum(x["work"] for x in w) == t["work"], name
    assert all(x["directory"] == "%s/r%d" % (sys.argv[2], x["rank"]) for x in w), w
    assert all(x["host"] for x in w), name
    span = max(x["end"] for x in w) - min(x["start"] for x in w)
    assert abs(span - t["elapsed"]) <= 1e-6 + 1e-6 * t["elapsed"], name
assert seen >= 6, seen
PY
"$CLYDE_REPORT" json "$WORK/m.json" >/dev/null 2>"$WORK/rerr" ||
	fail "clyde-report cannot read the document: $(cat "$WORK/rerr")"

# An offered rate is split over the ranks, each with its own schedule:
# 400/s fixed for 2 s is about 800 operations in all, the schedule's
# rate the whole 400.
expect_status 0 $MPI "$CLYDE" -d "$T/r%r" -s 16m -n 0 -f -r 0 --only=ran_read \
	--rate=400 --arrivals=fixed --ran-time=2 --json="$WORK/rate.json"
assert_empty "$T"
jq -e '.runs[0].tests.ran_read | .schedule.rate == 400 and
	(.workers | length) == 4 and .work >= 720 and .work <= 880' \
	"$WORK/rate.json" >/dev/null ||
	fail "--rate over ranks: $(jq -c '.runs[0].tests.ran_read | del(.histogram, .service_histogram)' "$WORK/rate.json")"

# Rank 2's -d is a file: every rank exits 2, one line naming rank 2.
touch "$T/r2"
expect_status 2 $MPI "$CLYDE" -d "$T/r%r" -s 16m -n 1 -r 0
[ "$(grep -c '^clyde: ' "$WORK/err")" = 1 ] || fail "refusal not once: $(cat "$WORK/err")"
grep -q "^clyde: rank 2 ([^)]*): -d '$T/r2': not a directory\$" "$WORK/err" ||
	fail "refusal: $(cat "$WORK/err")"
rm "$T/r2"
assert_empty "$T"

# What cannot go with ranks: refused once, exit 2.
expect_status 2 $MPI "$CLYDE" -d "$T/r%r" -s 16m -c 2
grep -q '^clyde: -c: under mpirun each rank is one worker' "$WORK/err" || fail "-c 2: $(cat "$WORK/err")"
[ "$(grep -c '^clyde: ' "$WORK/err")" = 1 ] || fail "-c 2 not once: $(cat "$WORK/err")"
expect_status 2 $MPI "$CLYDE" -d "$T/r%q" -s 16m
grep -q "^clyde: -d '$T/r%q': %q is not a pattern" "$WORK/err" || fail "%q: $(cat "$WORK/err")"
assert_empty "$T"

# Rank 2 runs out of room in per-char output: its own small tmpfs (room
# for the data file and sync_write's 16M, as the check counts) is
# filled once the checks passed (stdio per-char, which writes the whole
# file, as the 1-byte calls' 20 MiB would not). Exit 1 on every rank,
# one line.
mkdir "$T/e2"
mount -t tmpfs -o size=90m clyde-t046e "$T/e2" || fail "mount the small tmpfs"
at_exit umount_wait "$T/e2"
$MPI "$CLYDE" -d "$T/e%r" -s 64m -n 1 -r 0 -q --per-char=stdio >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_data e2 400
head -c 64m /dev/zero >"$T/e2/filler" 2>/dev/null
wait $pid
st=$?
[ "$st" = 1 ] || fail "ENOSPC: exit $st: $(cat "$WORK/err")"
[ "$(grep -v '^clyde: data ' "$WORK/err" | grep -c '^clyde: ')" = 1 ] ||
	fail "ENOSPC: not one line: $(cat "$WORK/err")"
grep -q "^clyde: per-char output: rank 2 of 4 on [^ ]* in $T/e2: write $T/e2/clyde\.[^/]*/data: No space left on device\$" \
	"$WORK/err" || fail "ENOSPC: $(cat "$WORK/err")"
grep -q '^1\.98,' "$WORK/out" && fail "ENOSPC: a CSV line"
rm "$T/e2/filler"
umount_wait "$T/e2"
rmdir "$T/e2"
assert_empty "$T"

# Rank 1 killed mid-run: mpirun ends the job and names it (exit 137,
# its own rule: 128 + the signal of the first rank that died); every
# other rank removes its scratch on mpirun's SIGTERM and says so; the
# killed one's is removed by its watcher (scratch_watch), and the
# rank's own -d (r1, made by the pattern) with it.
# mpirun gives a rank 1 s from SIGTERM to SIGKILL by default: too
# short for four ranks on two cores; the man page says to give more.
OMPI_MCA_odls_base_sigkill_timeout=10 \
	$MPI "$CLYDE" -d "$T/r%r" -s 64m -n 1 -r 0 -q >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_data r1 400
kill -9 "$(rank_pid 1)"
wait $pid
st=$?
[ "$st" = 137 ] || fail "SIGKILL: exit $st: $(cat "$WORK/err")"
grep -q 'process rank 1 .* exited on signal 9' "$WORK/err" || fail "SIGKILL: rank not named: $(cat "$WORK/err")"
i=0
until [ -z "$(files "$T")" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "SIGKILL: left: $(find "$T" -mindepth 1)"
	sleep 0.05
done
[ "$(grep -c '^clyde: .*interrupted by signal 15; scratch files removed$' "$WORK/err")" = 3 ] ||
	fail "SIGKILL: not three ranks cleaned up: $(cat "$WORK/err")"

# Rank 2 stopped: the others give up at --barrier-timeout, rank 0
# naming it, and mpirun ends the job (MPI_Abort) with exit 1.
$MPI "$CLYDE" -d "$T/r%r" -s 64m -n 1 -r 0 -q --barrier-timeout=2 >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_data r2 400
stop_expect "$(rank_pid 2)" '^clyde: [^:]*: rank 2 ([^)]*) did not come within 2 s (--barrier-timeout)' \
	"stopped rank"
for r in 0 1 3; do
	[ -e "$T/r$r" ] && fail "stopped rank: rank $r left $T/r$r"
done
rm -rf "$T/r2"
exit 0
