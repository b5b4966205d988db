#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --journal against a cut whose answer the rig knows: clyde writes (-b
# ran_write, O_SYNC, or sync_write) in a loop (--until-killed) on the
# fault rig with a volatile write cache, the rig cuts the power at a
# random moment, and clyde --verify-only --journal must find exactly
# the acknowledged blocks the rig dropped: all of them when the cache
# lies about its flushes, none when it is honest (every block in flight
# old or new, none corrupt). Then a kill of clyde alone (no cut): no
# acknowledged write lost, nothing corrupt. JOURNAL_ROUNDS (default 2)
# cuts a mode; the issue's 20 are JOURNAL_ROUNDS=20.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null 2>&1 || skip "needs jq"
ff_setup
ROUNDS=${JOURNAL_ROUNDS:-2}
J=$WORK/journal

# start ARGS...: clyde writing in a loop on the rig, its journal in $J;
# returns once the data file is whole on the backing directory (the
# untimed preparation done) and the write tests have begun.
start() {
	rm -rf "$B"/clyde.* "$J"
	"$CLYDE" -d "$M" -s 4m -r 0 -n 0 -q --journal="$J" --until-killed \
		"$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 200 "clyde did not start writing" data_whole
}

# data_whole: the data file is on the backing directory at its size.
data_whole() {
	set -- "$B"/clyde.*/data
	[ -f "$1" ] && [ "$(stat -c %s "$1")" = 4194304 ]
}

# pause: 0.2 to 0.7 s, drawn.
pause() {
	sleep "0.$(awk -v s="$$$(date +%N)" 'BEGIN { srand(s % 100000); print int(2 + rand() * 6) }')"
}

# verify WHAT: clyde --verify-only over the backing file against $J,
# into $WORK/v.json; its exit status in vst.
verify() {
	set -- "$B"/clyde.*/data
	[ -f "$1" ] || fail "$what: no data file left: $(cat "$WORK/err")"
	"$CLYDE" --verify-only="$1" --journal="$J" --json="$WORK/v.json" \
		>"$WORK/vout" 2>"$WORK/verr"
	vst=$?
	[ -s "$WORK/v.json" ] || fail "$what: no verify document: $(cat "$WORK/verr")"
}

# count VERDICT: that verdict's count in the verify document.
count() {
	jq -r ".journal_verify.counts[\"$1\"] // 0" "$WORK/v.json"
}

# cut_round MODE ARGS...: one cut in the middle of clyde's writes.
cut_round() {
	mode=$1
	shift
	what="$mode cut of $*"
	ff_cmd clear
	start "$@"
	ff_cmd "wcache $mode"
	pause
	ff_cmd cut
	wait $pid
	st=$?
	[ $st != 0 ] || fail "$what: clyde went on after the cut: $(cat "$WORK/err")"
	ff_read_ctl || fail "$what: the rig's status"
	acked=$(sed -n 's/^cut dropped_acked=\([0-9]*\) .*/\1/p' "$WORK/ff.status")
	[ -n "$acked" ] || fail "$what: no cut in: $(cat "$WORK/ff.status")"
	ff_cmd clear
	verify
	lost=$(count lost) corrupt=$(count corrupt)
	echo "$what: the rig dropped $acked acknowledged blocks; clyde found" \
		"$lost lost, $corrupt corrupt, $(count in-flight-old) in flight" \
		"old, $(count in-flight-new) in flight new, $(count torn) torn" \
		"(exit $vst)"
	[ "$lost" = "$acked" ] ||
		fail "$what: $lost found lost, the rig dropped $acked: $(cat "$WORK/vout")"
	[ "$corrupt" = 0 ] || fail "$what: corrupt blocks: $(cat "$WORK/vout")"
	if [ "$lost" = 0 ]; then want=0; else want=1; fi
	[ $vst = $want ] || fail "$what: verify exit $vst, expected $want: $(cat "$WORK/vout" "$WORK/verr")"
	[ "$mode" = lying ] || [ "$acked" = 0 ] ||
		fail "$what: an honest cache dropped $acked acknowledged blocks"
}

# A corruption no cut made: a byte of an acknowledged, intact block
# flipped on the backing file after an honest cut is found, by offset.
cut_round honest -b --only=ran_write
off=$(jq -r '.journal_verify.first_offsets.intact[0]' "$WORK/v.json")
set -- "$B"/clyde.*/data
printf 'X' | dd of="$1" bs=1 seek=$((off + 100)) conv=notrunc 2>/dev/null ||
	fail "flipping a byte at $((off + 100))"
what="a byte flipped at $((off + 100))"
verify
[ $vst = 1 ] || fail "$what: verify exit $vst: $(cat "$WORK/vout")"
[ "$(count corrupt)" = 1 ] || fail "$what: $(cat "$WORK/vout")"
[ "$(jq -r '.journal_verify.first_offsets.corrupt[0]' "$WORK/v.json")" = "$off" ] ||
	fail "$what: not named: $(cat "$WORK/vout")"
grep -q "$off" "$WORK/vout" || fail "$what: the report does not name $off: $(cat "$WORK/vout")"

i=0
while [ $i -lt "$ROUNDS" ]; do
	cut_round honest -b --only=ran_write
	cut_round lying -b --only=ran_write
	cut_round lying --only=sync_write
	# A lying cache drops what it acknowledged: a cut after a round
	# of synchronous writes must find some.
	[ "$acked" -gt 0 ] || fail "$what: nothing acknowledged was dropped"
	cut_round honest --only=sync_write --sync-method=dsync
	i=$((i + 1))
done

# A kill of clyde alone, the rig without a cache: nothing lost, nothing
# corrupt, whatever was in flight.
i=0
while [ $i -lt "$ROUNDS" ]; do
	what="SIGKILL $i"
	ff_cmd clear
	start -b --only=ran_write
	pause
	kill -KILL $pid
	wait $pid
	verify
	[ $vst = 0 ] || fail "$what: verify exit $vst: $(cat "$WORK/vout" "$WORK/verr")"
	[ "$(count lost)" = 0 ] && [ "$(count corrupt)" = 0 ] ||
		fail "$what: $(cat "$WORK/vout")"
	[ "$(count intact)" -gt 0 ] || fail "$what: nothing intact: $(cat "$WORK/vout")"
	echo "$what: $(count intact) intact, $(count in-flight-old) in flight old," \
		"$(count in-flight-new) in flight new, 0 lost, 0 corrupt"
	i=$((i + 1))
done
ff_alive
