#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --keep and --journal on a filesystem that refuses rename flags with
# EINVAL (the Linux NFS client, libfuse 2): the rig's rule
# `fail rename_flags EINVAL`. The data file is kept by link then unlink,
# which never replaces a name: a kept file verifies, a journal run ended
# by SIGTERM keeps its file and it verifies against the journal, an
# honest cut verifies with 0 acknowledged lost, and a file raced into
# the kept name during the run stays as it was (the keep refused,
# EEXIST). Where hard links are refused too, the run is refused in one
# line before the first test, having written nothing.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

command -v jq >/dev/null 2>&1 || skip "needs jq"
ff_setup
J=$WORK/journal
NOFLAGS="fail rename_flags EINVAL"

# The rule fired: the rename with flags was refused, the fallback ran.
fired() {
	[ "$(ff_fired 1)" -gt 0 ] || fail "$1: the rename with flags was never refused"
}

ff_cmd "$NOFLAGS"
expect_status 0 "$CLYDE" -d "$M" -s 4m -r 0 -n 0 -f -q --only=ran_write \
	--ran-time=1 --verify --keep -z 5
fired "--keep"
grep -q "the data file is '$M/clyde-kept.5'" "$WORK/err" ||
	fail "--keep: $(cat "$WORK/err")"
expect_status 0 "$CLYDE" --verify-only="$M/clyde-kept.5"
rm -f "$M/clyde-kept.5"

# start SEED ARGS...: clyde writing in a loop under --journal, back once
# its data file is whole on the backing directory.
start() {
	s_seed=$1
	shift
	rm -rf "$B"/clyde.* "$J"
	"$CLYDE" -d "$M" -s 4m -r 0 -n 0 -q --journal="$J" --until-killed \
		-b --only=ran_write -z "$s_seed" "$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 200 "clyde did not start writing" data_whole
}
data_whole() {
	set -- "$B"/clyde.*/data
	[ -f "$1" ] && [ "$(stat -c %s "$1")" = 4194304 ]
}
lost() {
	jq -r '.journal_verify.counts.lost // 0' "$WORK/v.json"
}

# SIGTERM: clyde ends by itself and keeps the file beside the journal.
ff_cmd clear "$NOFLAGS"
start 6
sleep 0.3
kill -TERM $pid
wait $pid
fired "--journal"
grep -q "the data file is '$M/clyde-kept.6'" "$WORK/err" ||
	fail "--journal, SIGTERM: $(cat "$WORK/err")"
expect_status 0 "$CLYDE" --verify-only="$M/clyde-kept.6" --journal="$J" \
	--json="$WORK/v.json"
[ "$(lost)" = 0 ] || fail "--journal, SIGTERM: $(cat "$WORK/out")"
rm -f "$M/clyde-kept.6" "$WORK/v.json"

# An honest cut: every write in flight old or new, none acknowledged lost.
ff_cmd clear "$NOFLAGS"
start 7
ff_cmd "wcache honest"
sleep 0.3
ff_cmd cut
wait $pid
ff_cmd clear
set -- "$B"/clyde.*/data
[ -f "$1" ] || fail "the cut: no data file left: $(cat "$WORK/err")"
expect_status 0 "$CLYDE" --verify-only="$1" --journal="$J" --json="$WORK/v.json"
[ "$(lost)" = 0 ] || fail "the cut: $(cat "$WORK/out")"
echo "honest cut: $(jq -r '.journal_verify.counts.intact' "$WORK/v.json") intact, 0 lost"
rm -f "$WORK/v.json"

# A file raced into the kept name while the run writes is never replaced.
ff_cmd "$NOFLAGS"
start 8
echo mine >"$M/clyde-kept.8"
kill -TERM $pid
wait $pid
[ "$(cat "$M/clyde-kept.8")" = mine ] || fail "the raced file was replaced"
grep -q "could not keep the data file as '$M/clyde-kept.8': File exists" "$WORK/err" ||
	fail "the race: $(cat "$WORK/err")"
set -- "$B"/clyde.*/data
[ -f "$1" ] || fail "the race: the data file did not stay: $(cat "$WORK/err")"
rm -rf "$M/clyde-kept.8" "$B"/clyde.*
echo mine >"$M/clyde-kept.9"
expect_status 1 "$CLYDE" -d "$M" -s 4m -r 0 -n 0 -f -q --only=ran_write \
	--ran-time=1 --verify --keep -z 9
[ "$(cat "$M/clyde-kept.9")" = mine ] || fail "--keep replaced a file"
grep -q "could not keep the data file as '$M/clyde-kept.9': File exists" "$WORK/err" ||
	fail "--keep over a file: $(cat "$WORK/err")"
rm -f "$M/clyde-kept.9"

# No hard links either: refused before the first test, nothing written.
ff_cmd clear "$NOFLAGS" "fail link EPERM"
for opt in --keep --journal="$J"; do
	rm -f "$J"
	expect_refused "cannot keep the data file: .*: Operation not permitted" \
		"$CLYDE" -d "$M" -s 4m -r 0 -n 0 -f -q --only=ran_write \
		--ran-time=1 --verify "$opt"
	assert_empty "$B"
	[ "$(ff_fired 1)" -gt 0 ] && [ "$(ff_fired 2)" -gt 0 ] ||
		fail "$opt: the probe did not try both: $(cat "$WORK/ff.status")"
	[ -e "$J" ] && fail "$opt: a journal was made"
done
ff_alive
exit 0
