#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --verify that found nothing wrong says so, in one line on stderr (stdout
# holds the table and CSV): the 4 KiB blocks checked, counted in every
# process that checks (block input reads the 16 MiB file once: 4096; each
# -c worker its own file; the five seekers 1000 chunks of 8 KiB: 2000),
# summed over -x runs; -q keeps it, as it keeps the tables on stderr. A
# run whose tests read nothing back says that nothing was checked, and
# without --verify there is no such line.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"

# said LINE CLYDE-ARGS...: a run of 16 MiB, no file tests, exits 0 with
# LINE once on stderr and nowhere on stdout.
said() {
	s_line=$1
	shift
	expect_status 0 "$CLYDE" -d "$D" -s 16m -n 0 -r 0 -z 7 --verify "$@"
	[ "$(grep -cxF "$s_line" "$WORK/err")" = 1 ] ||
		fail "$*: expected '$s_line' on stderr: $(cat "$WORK/err")"
	grep -q -- '--verify' "$WORK/out" && fail "$*: on stdout: $(cat "$WORK/out")"
	grep -q '^1\.98,' "$WORK/out" || fail "$*: no CSV line on stdout"
	return 0
}

said 'clyde: --verify: 4096 blocks of 4 KiB checked, all sound' --only=get_block
said 'clyde: --verify: 4096 blocks of 4 KiB checked, all sound' --only=get_block -q
[ "$(grep -c . "$WORK/out")" = 1 ] || fail "-q: stdout is not the CSV line alone: $(cat "$WORK/out")"
said 'clyde: --verify: 8192 blocks of 4 KiB checked, all sound' --only=get_block -c 2
said 'clyde: --verify: 2000 blocks of 4 KiB checked, all sound' --only=seeks -s 16m::1000
said 'clyde: --verify: 8192 blocks of 4 KiB checked over the 2 runs, all sound' \
	--only=get_block -x 2
said 'clyde: --verify: no test read the data back: no block checked' --only=put_block
expect_status 0 "$CLYDE" -d "$D" -s 16m -n 0 -r 0 -z 7 --only=get_block
grep -q -- '--verify' "$WORK/err" && fail "without --verify: $(cat "$WORK/err")"
assert_empty "$D"
exit 0
