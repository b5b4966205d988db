#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report refuses a negative seed, from a CSV line and from a JSON
# document, in one line naming the value, and exits 2; it wrote -1 back.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:?}
D="$T_SRCDIR/data"

awk -F, -v OFS=, '$1 == "1.98" { $5 = "-1" } { print }' "$D/r198.csv" \
	>"$WORK/neg.csv"
grep -q '^1\.98,[^,]*,[^,]*,[^,]*,-1,' "$WORK/neg.csv" || fail "no seed -1 made"
for cmd in txt json; do
	expect_refused "neg.csv:[0-9]*: field 5 (seed) '-1' is not a seed" \
		"$R" $cmd "$WORK/neg.csv"
done

sed 's/"seed": [0-9]*/"seed": -1/' "$D/run.json" >"$WORK/neg.json"
grep -q '"seed": -1' "$WORK/neg.json" || fail "no seed -1 made"
for cmd in txt json; do
	expect_refused 'neg.json:1: runs\[0\].seed -1 is not a seed' \
		"$R" $cmd "$WORK/neg.json"
done
# A seed of 0 and the largest clyde writes are seeds.
sed 's/"seed": [0-9]*/"seed": 9223372036854775807/' "$D/run.json" >"$WORK/big.json"
expect_status 0 "$R" json "$WORK/big.json"
grep -q '"seed": 9223372036854775807' "$WORK/out" || fail "seed not kept"
