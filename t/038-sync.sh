#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bonnie++'s -p and -y: after clyde -p 2, two clyde -y s runs begin each
# test within 50 ms of each other (start_unix_ns) and leave every
# semaphore at 0; a clyde and a bonnie++ 2.00 started in step both
# finish (when root with bonnie++ installed). -y s without a set, the
# timeout (under -c 2 too), a stop while waiting, a spent semaphore, skipped tests and
# --only's preparing run taking nothing, -y p's prompts, -p -1. The key is bonnie++'s, fixed,
# so the test skips when a set of it is there already, and removes the
# one it made on every way out.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
command -v ipcs >/dev/null && command -v ipcrm >/dev/null ||
	skip "ipcs and ipcrm not installed (util-linux)"

# The set of key 0x1267: its id, or nothing; its values on one line.
sem_id() {
	ipcs -s | awk '$1 == "0x00001267" { print $2 }'
}
sem_values() {
	ipcs -s -i "$1" | awk '/^semnum/ { on = 1; next }
		on && NF >= 2 { printf "%s%s", sep, $2; sep = " " }'
}
# Another copy of this test on the machine (a second tree's make check,
# CI runs side by side) would use the same key: one at a time, by a lock
# on a directory that is always there, so no lock file is left behind.
command -v flock >/dev/null || skip "flock not installed (util-linux)"
exec 9</tmp
flock -w 900 9 || skip "another copy of this test held the lock on /tmp for 15 minutes"
[ -z "$(sem_id)" ] ||
	skip "a semaphore set with key 0x1267 is there already (another clyde -p or bonnie++ -p): not the test's to use"
# The set this test made (its id, while it has the key), removed at exit.
OURS=""
drop_ours() {
	[ -n "$OURS" ] && [ "$(sem_id)" = "$OURS" ] && ipcrm -s "$OURS"
}
at_exit drop_ours

# make_set N: clyde -p N, its one line, every semaphore at N.
make_set() {
	expect_status 0 "$CLYDE" -p "$1"
	OURS=$(sem_id)
	[ -n "$OURS" ] || fail "clyde -p $1 made no set"
	[ "$(cat "$WORK/out")" = "Creating semaphore for $1 procs." ] ||
		fail "clyde -p $1 printed: $(cat "$WORK/out")"
	want=$(printf "$1 %.0s" 1 2 3 4 5 6 7 8 9 10 11 12)
	[ "$(sem_values "$OURS") " = "$want" ] ||
		fail "after -p $1: $(sem_values "$OURS")"
}

mkdir "$WORK/a" "$WORK/b"
D="$WORK/a"
SMALL="-s 16m -r 0 -n 1 -q"

# -y s with no set: one line naming the key and what to do, nothing made.
expect_one_line 2 "clyde: -y s: no semaphore set with key 0x1267: make it first with clyde -p N" \
	"$CLYDE" -ys -d "$D" $SMALL --json="$WORK/x.json"
assert_empty "$D"
[ -e "$WORK/x.json" ] && fail "-y s with no set made the --json file"
expect_one_line 1 "clyde: -p -1: no semaphore set with key 0x1267 to remove" "$CLYDE" -p -1

# pair A B: two clyde -y s runs at once, documents A.json and B.json;
# both must end well, and the set must be spent.
pair() {
	"$CLYDE" -ys --sync-timeout=300 -d "$WORK/a" $SMALL --json="$WORK/$1.json" \
		>"$WORK/$1.out" 2>"$WORK/$1.err" &
	pa=$!
	"$CLYDE" -ys --sync-timeout=300 -d "$WORK/b" $SMALL --json="$WORK/$2.json" \
		>"$WORK/$2.out" 2>"$WORK/$2.err" &
	pb=$!
	wait $pa
	sa=$?
	wait $pb
	sb=$?
	[ $sa = 0 ] && [ $sb = 0 ] ||
		fail "clyde -y s pair: exit $sa and $sb: $(cat "$WORK/$1.err" "$WORK/$2.err")"
	[ "$(sem_values "$OURS")" = "0 0 0 0 0 0 0 0 0 0 0 0" ] ||
		fail "after the pair: $(sem_values "$OURS")"
}

# bonnie++'s twelve, the tests -y waits at (the figures bonnie++ lacks
# run without a semaphore).
TWELVE='["putc","put_block","rewrite","getc","get_block","seeks","seq_create","seq_stat","seq_del","ran_create","ran_stat","ran_del"]'

# worst A B: the largest start gap of a test between the two documents,
# in ms, with its test ("seeks 0.812"), all twelve started in both.
# (bonnie++'s twelve: clyde's own figures, sync_write, have no semaphore
# of the set and are not started in step.)
worst() {
	jq -n -r --argjson twelve "$TWELVE" --slurpfile a "$WORK/$1.json" --slurpfile b "$WORK/$2.json" '
		$a[0].runs[0].tests as $x | $b[0].runs[0].tests as $y |
		[$x | keys_unsorted[] | select(IN($twelve[])) |
		 select($x[.].start_unix_ns and $y[.].start_unix_ns) |
		 {t: ., ms: ((($x[.].start_unix_ns - $y[.].start_unix_ns) | fabs) / 1e6)}] |
		if length != 12 then "missing \(12 - length)" else
		max_by(.ms) | "\(.t) \(.ms)" end'
}

# Two clydes in step: each test within 50 ms. On a loaded machine a
# wake-up can come late once; a pair that misses runs once more, and
# the test fails only when that one misses too.
for try in 1 2; do
	make_set 2
	pair c$try d$try
	gap=$(worst c$try d$try)
	case $gap in missing*) fail "start_unix_ns $gap tests" ;; esac
	echo "clyde + clyde, try $try: worst start gap ${gap#* } ms (${gap%% *})" >&2
	awk -v g="${gap#* }" 'BEGIN { exit !(g <= 50) }' && break
	[ $try = 2 ] && fail "two clyde -y s runs: a test started ${gap#* } ms apart twice"
done
jq -e '.settings.sync == "semaphores"' "$WORK/c1.json" >/dev/null ||
	fail "settings.sync: $(jq -c .settings.sync "$WORK/c1.json")"

# A spent set: every process of the group has gone by.
expect_one_line 1 "clyde: sequential create: semaphore 6 of set 0x1267 is at 0" \
	"$CLYDE" -ys -d "$D" -s 0 -n 1 -q
assert_empty "$D"

# Alone in a set for two: the timeout, one line naming test and key,
# soon after it, and no scratch directory left.
make_set 2
t0=$(date +%s.%N)
expect_one_line 1 "clyde: sequential create: waited 1 s (--sync-timeout) at semaphore 6 of set 0x1267" \
	"$CLYDE" -ys --sync-timeout=1 -d "$D" -s 0 -n 1 -q
took=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }')
echo "timeout of 1 s: exit after $took s" >&2
awk -v t="$took" 'BEGIN { exit !(t >= 1 && t < 5) }' || fail "--sync-timeout=1 took $took s"
assert_empty "$D"

# Under -c 2 the parent waits for its two copies: the same line, and
# every copy stopped and reaped.
make_set 2
expect_one_line 1 "clyde: sequential create: waited 1 s (--sync-timeout) at semaphore 6 of set 0x1267" \
	"$CLYDE" -c 2 -ys --sync-timeout=1 -d "$D" -s 0 -n 1 -q
assert_empty "$D"
pgrep -f "$D" >/dev/null && fail "-c 2: a copy outlived the timeout"

# A stop while waiting: the signal's status, the scratch directory gone.
make_set 2
term_after 1 "$CLYDE" -ys -d "$D" -s 0 -n 1 -q
[ "$st" = 143 ] || fail "SIGTERM while waiting: exit $st: $(cat "$WORK/err")"
assert_empty "$D"

# Tests that do not run take nothing, nor does --only's untimed run of
# block output that makes the data file for block input.
make_set 1
expect_status 0 "$CLYDE" -ys -d "$D" -s 16m -r 0 -n 0 -q -f --only=get_block,seeks
[ "$(sem_values "$OURS")" = "1 1 1 1 0 0 1 1 1 1 1 1" ] ||
	fail "-f --only=get_block,seeks took: $(sem_values "$OURS")"

# -y p: bonnie++'s prompt per test that runs, a line read for each.
printf 'go\n\n' >"$WORK/answers"
expect_status 0 "$CLYDE" -yp -d "$D" -s 0 -n 1 -q <"$WORK/answers"
[ "$(grep -c '^$' "$WORK/out")" = 6 ] && [ "$(grep '^[0-9]*:$' "$WORK/out" | tr '\n' ' ')" = "6: 7: 8: 9: 10: 11: " ] ||
	fail "-y p's prompts: $(head -14 "$WORK/out")"
grep -q '^1\.98,' "$WORK/out" || fail "-y p: no CSV line"

expect_status 0 "$CLYDE" -p -1
[ "$(cat "$WORK/out")" = "Semaphore removed." ] || fail "-p -1 printed: $(cat "$WORK/out")"
[ -z "$(sem_id)" ] || fail "-p -1 left the set"
OURS=""

# A clyde and a bonnie++ 2.00 in step. bonnie++ prints no times, so the
# test asserts what the protocol makes certain: with a set for two,
# neither can start a test before the other came to it, so both
# finishing (clyde within its timeout) with every semaphore at 0 means
# they went through all twelve together. The gap is printed when
# strace can time bonnie++'s waits (strace's own delay is in it).
[ "$(id -u)" = 0 ] || { echo "clyde + bonnie++: skipped, needs root (bonnie++ -u root)" >&2; exit 0; }
command -v bonnie++ >/dev/null || { echo "clyde + bonnie++: skipped, bonnie++ not installed" >&2; exit 0; }
make_set 2
"$CLYDE" -ys --sync-timeout=300 -d "$WORK/a" $SMALL --json="$WORK/e.json" \
	>"$WORK/e.out" 2>"$WORK/e.err" &
pa=$!
BON="bonnie++ -ys -u root -d $WORK/b -s 16 -r 8 -n 1 -q"
if command -v strace >/dev/null; then
	BON="strace -f -ttt -T --seccomp-bpf -e trace=semop,semtimedop -o $WORK/bon.strace $BON"
fi
timeout 600 $BON >"$WORK/bon.out" 2>"$WORK/bon.err" &
pb=$!
wait $pa
sa=$?
[ $sa = 0 ] || kill $pb 2>/dev/null
wait $pb
sb=$?
[ $sa = 0 ] && [ $sb = 0 ] ||
	fail "clyde + bonnie++: exit $sa and $sb: $(cat "$WORK/e.err" "$WORK/bon.err")"
[ "$(sem_values "$OURS")" = "0 0 0 0 0 0 0 0 0 0 0 0" ] ||
	fail "after clyde + bonnie++: $(sem_values "$OURS")"
grep -q '^1\.98,2\.00' "$WORK/bon.out" || fail "bonnie++ printed no CSV line: $(cat "$WORK/bon.out")"
if [ -s "$WORK/bon.strace" ]; then
	# bonnie++ leaves semaphore k's wait at (call time + its duration).
	sed -nE 's/^[0-9]+ +([0-9.]+) .*sem_num=([0-9]+), sem_op=0.*= 0 <([0-9.]+)>$/\2 \1 \3/p' \
		"$WORK/bon.strace" >"$WORK/bon.t"
	[ "$(wc -l <"$WORK/bon.t")" = 12 ] ||
		fail "strace saw bonnie++ wait $(wc -l <"$WORK/bon.t") times, not 12: $(head -3 "$WORK/bon.strace")"
	jq -r --argjson twelve "$TWELVE" '.runs[0].tests | to_entries[] |
		select(.key | IN($twelve[])) | "\(.key) \(.value.start_unix_ns)"' \
		"$WORK/e.json" | paste -d' ' - "$WORK/bon.t" |
		awk '{ g = $2 / 1e9 - ($4 + $5); if (g < 0) g = -g
			if (g > w) { w = g; t = $1 } }
			END { printf "clyde + bonnie++: %d waits, worst start gap %.3f ms (%s)\n", NR, w * 1000, t }' >&2
fi
exit 0
