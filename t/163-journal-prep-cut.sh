#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A cut while --journal's data file is still being made (its untimed
# preparation, every write synced under -b): the file is short of the
# journal's size, and --verify-only judges it all the same (it was
# refused as "a journal of another data file"): the blocks on it
# intact, those past its end missing. Then the file cut 1 MiB shorter,
# as storage that lost acknowledged writes leaves it: those blocks are
# ACKNOWLEDGED BUT LOST, and the check fails.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq not installed (apt-get install jq)"
ff_setup
J=$WORK/journal
MIB=1048576

# Each write of the preparation 1 ms late: 16 MiB of 8 KiB writes take
# over 2 s, so the kill lands in the middle.
ff_cmd clear 'delay write fixed=1ms'
"$CLYDE" -d "$M" -s 16m -r 0 -n 0 -f -q --only=ran_write -b --journal="$J" \
	--until-killed >"$WORK/out" 2>"$WORK/err" &
pid=$!
# grown: the data file has over 2 MiB on the backing directory.
grown() {
	set -- "$B"/clyde.*/data
	[ -f "$1" ] && [ "$(stat -c %s "$1")" -gt $((2 * MIB)) ]
}
wait_until 400 "the data file never grew" grown
kill -9 $pid
wait $pid
set -- "$B"/clyde.*/data
size=$(stat -c %s "$1")
[ "$size" -lt $((16 * MIB)) ] || fail "the preparation ended before the kill"
"$CLYDE" --verify-only="$1" --journal="$J" --json="$WORK/v.json" \
	>"$WORK/vout" 2>"$WORK/verr" ||
	fail "a cut in the preparation, $size bytes: $(cat "$WORK/verr" "$WORK/vout")"
grep -q "cut while it was made" "$WORK/vout" || fail "not said: $(cat "$WORK/vout")"
jq -e --argjson s "$size" '.journal_verify | .data_size == $s and
	.file_size == 16777216 and .counts.lost == 0 and .counts.corrupt == 0 and
	.counts.intact > 0 and .verdict == "pass"' "$WORK/v.json" >/dev/null ||
	fail "the check: $(jq -c '.journal_verify | del(.first_offsets)' "$WORK/v.json")"

truncate -s $((size / 4096 * 4096 - MIB)) "$1"
"$CLYDE" --verify-only="$1" --journal="$J" --json="$WORK/v.json" \
	>"$WORK/vout" 2>"$WORK/verr"
st=$?
[ $st = 1 ] || fail "1 MiB of acknowledged blocks gone: exit $st: $(cat "$WORK/verr" "$WORK/vout")"
jq -e '.journal_verify | .counts.lost >= 250 and .verdict == "fail"' "$WORK/v.json" >/dev/null ||
	fail "1 MiB of acknowledged blocks gone: $(jq -c '.journal_verify | del(.first_offsets)' "$WORK/v.json")"
rm -rf "$B"/clyde.*
ff_alive
exit 0
