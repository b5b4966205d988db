#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report's limit of 200000 result lines: the line past it is
# refused, named with its file and line, within a bounded address space
# (2 GiB: a row holds what its line shows, not the room of a measured
# run; at 17 KiB a row the limit's lines alone took 3.4 GiB). A sanitized
# build reserves more address space than any bound: there the refusal
# alone is checked.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:?}
D="$T_SRCDIR/data"

# bonnie++'s line of vm, 200001 times.
awk 'NR == 1 { for (i = 0; i < 200001; i++) print }' "$D/r198.csv" \
	>"$WORK/many.csv"

if grep -q __asan_init "$R" 2>/dev/null; then
	expect_refused 'many.csv:200001: more than 200000 result lines in all$' \
		"$R" txt "$WORK/many.csv"
else
	expect_refused 'many.csv:200001: more than 200000 result lines in all$' \
		sh -c 'ulimit -v 2097152 && exec "$0" txt "$1"' "$R" "$WORK/many.csv"
fi
# The limit itself is kept: 200000 lines are shown.
sed '$d' "$WORK/many.csv" >"$WORK/limit.csv"
expect_status 0 "$R" txt "$WORK/limit.csv"
rows=$(grep -c '^vm  *2G::8192:5 ' "$WORK/out")
[ "$rows" = 200000 ] || fail "200000 lines: $rows rows shown"
