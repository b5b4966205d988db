#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A random-I/O figure's own parts in clyde-report: a hand-made document
# (data/randio.json: ran_read of one kind, ran_write a mix of reads and
# writes under a poisson rate that fell behind in mix-b) gives golden
# txt and compare outputs (the Random I/O section, -v's service and
# kind rows, compare's svc p99 and per-kind figures), the same section
# in html, writes itself again through json unchanged, and a bad value
# of its new keys is refused in one line naming the key.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:?}
D="$T_SRCDIR/data"

cd "$D" || fail "no $D"
expect_status 0 "$R" txt randio.json
cmp "$WORK/out" randio.txt.expected ||
	fail "txt differs: $(diff "$WORK/out" randio.txt.expected | head -20)"
[ -s "$WORK/err" ] && fail "txt: stderr: $(cat "$WORK/err")"
expect_status 0 "$R" compare randio.json
cmp "$WORK/out" randio.compare.expected ||
	fail "compare differs: $(diff "$WORK/out" randio.compare.expected | head -20)"
expect_status 0 "$R" compare --csv randio.json
cmp "$WORK/out" randio.compare-csv.expected ||
	fail "compare --csv differs: $(diff "$WORK/out" randio.compare-csv.expected | head -20)"

# --latency: the service times and kinds under their test's row.
expect_status 0 "$R" txt --latency randio.json
grep -q '^  service  ' "$WORK/out" || fail "--latency: no service row"
grep -q '^  read  ' "$WORK/out" || fail "--latency: no read row"
grep -q '^  write  ' "$WORK/out" || fail "--latency: no write row"

# html: the same section, a row a part, the schedule's shares in it.
expect_status 0 "$R" html randio.json
grep -q '<h2>Random I/O</h2>' "$WORK/out" || fail "html: no Random I/O section"
for part in response service read write offered; do
	[ "$(grep -c "<td class=\"label\">$part</td>" "$WORK/out")" -ge 2 ] ||
		fail "html: no $part row for both runs"
done
grep -q '1200 due, 1000 issued (16.7% never), 200 late (20.0% of issued)' "$WORK/out" ||
	fail "html: mix-b's schedule not shown"

# json: the document again, and that again the same; every key kept.
expect_status 0 "$R" json randio.json
cp "$WORK/out" "$WORK/once.json"
expect_status 0 "$R" json "$WORK/once.json"
cmp "$WORK/out" "$WORK/once.json" || fail "json of json differs"
for k in '"service":' '"service_histogram":' '"reads":' '"writes":' \
	'"schedule":' '"behind_share":' '"late_share":' '"service_p50_ns":'; do
	grep -q "$k" "$WORK/once.json" || fail "json: no $k"
done

# Bad values: one line, naming the key.
refused() { # refused SED-EXPRESSION KEY
	sed "$1" randio.json >"$WORK/bad.json"
	expect_status 2 "$R" txt "$WORK/bad.json"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "$2: $(cat "$WORK/err")"
	grep -q "$2" "$WORK/err" || fail "$2: $(cat "$WORK/err")"
}
refused 's/"arrivals": "poisson"/"arrivals": "uniform"/' 'schedule.arrivals'
refused 's/"issued": 1000/"issued": 5000/' 'schedule.issued'
refused '0,/"reads": {/s//"reads": 7, "x": {/' 'ran_write.reads'
exit 0
