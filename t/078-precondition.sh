#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --precondition[=N]: before the first test that writes in place, the
# data file is written whole N times, untimed.
#   The bytes that reach the storage, counted by the fault rig (a rule
#   that delays nothing but counts every byte written), are those of a
#   run without it plus N times the file: 2 by default, 3 when asked;
#   under -c 2 each worker's file.
#   The document says so: runs[].precondition (passes, bytes, block size,
#   seconds), settings.precondition, and preconditioned on each test
#   after the step (not on ran_read, which runs before ran_write).
#   sync_write alone has the data file made first; --verify still holds;
#   a bad count is one line and exit 2; nothing is left behind.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
ff_setup
MIB=1048576

# written ARGS...: clyde on the rig with ARGS (its JSON in $WORK/p.json);
# prints the bytes the rig saw written.
# (--ran-bs only where a random-I/O test runs: elsewhere it is refused.)
written() {
	ff_cmd clear 'delay write fixed=0ns cache=1t'
	case " $* " in *ran_*) bs=--ran-bs=64k ;; *) bs="" ;; esac
	# shellcheck disable=SC2086
	"$CLYDE" -d "$M" -s 16m -r 0 -n 0 -q $bs --ran-ops=1 \
		--json="$WORK/p.json" "$@" >/dev/null 2>"$WORK/err" ||
		fail "clyde $*: $(cat "$WORK/err")"
	assert_empty "$B"
	ff_read_ctl || fail "reading the rig's counts"
	sed -n 's/^rule 1 .* cached=\([0-9]*\): .*/\1/p' "$WORK/ff.status"
}

plain=$(written --only=ran_write)
pre=$(written --only=ran_write --precondition)
echo "written: $plain bytes without, $pre with --precondition" >&2
[ $((pre - plain)) = $((2 * 16 * MIB)) ] ||
	fail "--precondition wrote $((pre - plain)) bytes more, not twice the 16 MiB file"
jq -e --argjson b $((2 * 16 * MIB)) '.runs[0].precondition |
	.passes == 2 and .bytes == $b and .block_size == 65536 and .seconds > 0' \
	"$WORK/p.json" >/dev/null || fail "precondition: $(jq -c '.runs[0].precondition' "$WORK/p.json")"
jq -e '.settings.precondition == 2 and .runs[0].tests.ran_write.preconditioned == true' \
	"$WORK/p.json" >/dev/null || fail "not said: $(jq -c '.settings.precondition' "$WORK/p.json")"

pre=$(written --only=ran_read,ran_write --precondition=3)
[ $((pre - plain)) = $((3 * 16 * MIB)) ] ||
	fail "--precondition=3 wrote $((pre - plain)) bytes more, not 3 times the file"
jq -e '(.runs[0].tests.ran_read | has("preconditioned") | not) and
	.runs[0].tests.ran_write.preconditioned' "$WORK/p.json" >/dev/null ||
	fail "ran_read before the step: $(jq -c '.runs[0].tests.ran_read.preconditioned' "$WORK/p.json")"

plain=$(written --only=ran_write -c 2)
pre=$(written --only=ran_write -c 2 --precondition)
[ $((pre - plain)) = $((2 * 2 * 16 * MIB)) ] ||
	fail "-c 2: $((pre - plain)) bytes more, not twice each worker's file"
jq -e --argjson b $((2 * 2 * 16 * MIB)) '.runs[0].precondition.bytes == $b' \
	"$WORK/p.json" >/dev/null || fail "-c 2: $(jq -c '.runs[0].precondition' "$WORK/p.json")"

# sync_write alone: the data file is made, then written twice.
written --only=sync_write --sync-ops=1 --precondition >/dev/null
jq -e '.runs[0].precondition.passes == 2 and .runs[0].tests.sync_write.preconditioned' \
	"$WORK/p.json" >/dev/null || fail "sync_write: $(jq -c '.runs[0]' "$WORK/p.json" | head -c 300)"
# Without it: no key anywhere.
written --only=ran_write >/dev/null
jq -e '(.runs[0] | has("precondition") | not) and .settings.precondition == null and
	([.runs[0].tests[] | select(has("preconditioned"))] | length == 0)' \
	"$WORK/p.json" >/dev/null || fail "a run without it says preconditioned"
# The content is what the file held: --verify reads it back whole.
written --only=ran_write,get_block --verify --precondition >/dev/null

# Where --only leaves out every test it sets, it would change nothing.
expect_refused "^clyde: --precondition: --only leaves out ran_write, ran_mix and sync_write, the tests it sets$" \
	"$CLYDE" -d "$M" --precondition --only=ran_read,get_block
for bad in 0 101 x -1 ''; do
	expect_refused "^clyde: --precondition '$bad': expected how many times to write the data file, 1 to 100$" \
		"$CLYDE" -d "$M" --precondition="$bad"
done
assert_empty "$B"
exit 0
