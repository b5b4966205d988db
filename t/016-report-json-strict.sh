#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report reads a JSON document as strictly as a CSV line: a
# schema_version other than the number 1 (or none) and any value it takes
# of the wrong type or out of range (rates, %CP, latencies, percentiles,
# counts, status and csv strings) is one line naming the file, the run,
# the key and the value, and exit 2; with --skip-bad a bad run is a
# warning and the document's other runs are shown, as a bad CSV line is
# skipped and the other lines shown.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}

L198='1.98,2.00a,vm,1,1795989744,2G,,8192,5,604,96,449755,71,821393,62,571,96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,4453us,51836us,2357us,4282us,105us,2501us'
L103='convm004,16G,51346,98,134822,56,69414,17,58651,97,251779,23,758.8,1,512,20048,91,259694,99,5846,18,18707,84,338671,99,2935,9'
J="$WORK/r.json"

# putc TEXT: a putc test object with TEXT in place of the key it tests.
putc() {
	printf '{"status": "ok", "rate": 604.5, "cpu_percent": 96, "max_latency_ns": 49052000, %s}' "$1"
}
LAT='"latency": {"count": 10, "min_ns": 1000, "mean_ns": 4000.5, "p50_ns": 5000, "p90_ns": 9000, "p99_ns": 20000, "p99_9_ns": 31000, "max_ns": 49052000}'

# doc HEAD PUTC: a document (HEAD: its keys before runs) whose first run
# has tests.putc PUTC; its second run is a good 1.03 line.
doc() {
	printf '{%s\n "runs": [\n  {"csv": "%s", "tests": {"putc": %s}},\n  {"csv": "%s"}\n ]\n}\n' \
		"$1" "$L198" "$2" "$L103" >"$J"
}
V='"schema_version": 1, "program": "clyde",'

# bad WANT: exit 2, one line that starts with the file and holds WANT,
# nothing on stdout.
bad() {
	expect_one_line 2 "clyde-report: $J:1: $1" "$R" txt "$J"
}

# The good document is read, its percentiles shown by html.
doc "$V" "$(putc "$LAT")"
expect_status 0 "$R" txt "$J"
[ -s "$WORK/err" ] && fail "good document: $(cat "$WORK/err")"
cp "$WORK/out" "$WORK/good.txt"
expect_status 0 "$R" html "$J"
grep -q 'p99&nbsp;20us' "$WORK/out" || fail "good document: no p99 of 20us"

# schema_version: the number 1, nothing else.
doc '"schema_version": 2, "program": "clyde",' "$(putc "$LAT")"
bad 'schema_version 2: clyde-report reads version 1'
doc '"schema_version": "1",' "$(putc "$LAT")"
bad 'schema_version "1": clyde-report reads version 1'
doc '"schema_version": 1.0,' "$(putc "$LAT")"
bad 'schema_version 1.0: clyde-report reads version 1'
doc '"program": "clyde",' "$(putc "$LAT")"
bad 'no schema_version: not a clyde result document'
doc '"schema_version": 1, "program": "fio",' "$(putc "$LAT")"
bad 'program "fio": not a clyde result document'

# Percentiles: a whole number of nanoseconds, nothing else.
for v in '"x"' -5 1e300 null '[]' 2.5 '{}' true 1000000000000000001; do
	doc "$V" "$(putc "$(echo "$LAT" | sed "s/\"p99_ns\": 20000/\"p99_ns\": $v/")")"
	bad "runs[0].tests.putc.latency.p99_ns $v is not a latency"
done
doc "$V" "$(putc "$(echo "$LAT" | sed 's/"p99_ns": 20000, //')")"
bad 'runs[0].tests.putc.latency has no p99_ns'
for k in p50_ns p90_ns p99_9_ns min_ns max_ns; do
	doc "$V" "$(putc "$(echo "$LAT" | sed "s/\"$k\": [0-9]*/\"$k\": \"1ms\"/")")"
	bad "runs[0].tests.putc.latency.$k \"1ms\" is not a latency"
done
doc "$V" "$(putc "$(echo "$LAT" | sed 's/"mean_ns": 4000.5/"mean_ns": -1/')")"
bad 'runs[0].tests.putc.latency.mean_ns -1 is not a latency'

# The count of operations.
for v in -1 '"10"' 1.5 null; do
	doc "$V" "$(putc "$(echo "$LAT" | sed "s/\"count\": 10/\"count\": $v/")")"
	bad "runs[0].tests.putc.latency.count $v is not a count"
done
doc "$V" "$(putc '"latency": [1, 2]')"
bad 'runs[0].tests.putc.latency [1,2] is not an object'

# Rates, %CP, the worst latency, the status.
doc "$V" "$(putc "$LAT" | sed 's/"rate": 604.5/"rate": "fast"/')"
bad 'runs[0].tests.putc.rate "fast" is not a rate'
doc "$V" "$(putc "$LAT" | sed 's/"rate": 604.5/"rate": -3/')"
bad 'runs[0].tests.putc.rate -3 is not a rate'
for v in -1 1.5 '"96"' 2147483648; do
	doc "$V" "$(putc "$LAT" | sed "s/\"cpu_percent\": 96/\"cpu_percent\": $v/")"
	bad "runs[0].tests.putc.cpu_percent $v is not a %CP"
done
for v in -1 '"49ms"' 4.5; do
	doc "$V" "$(putc "$LAT" | sed "s/\"max_latency_ns\": 49052000/\"max_latency_ns\": $v/")"
	bad "runs[0].tests.putc.max_latency_ns $v is not a latency"
done
for v in '"done"' 7 null; do
	doc "$V" "$(putc "$LAT" | sed "s/\"status\": \"ok\"/\"status\": $v/")"
	bad "runs[0].tests.putc.status $v is not a status"
done

# A test's write-cache cliff: found, with each of its figures, or not,
# with why; each figure a number from 0 up, the sustained rate under the
# burst. A good one is shown in the Write cache section.
CLIFF='"found": true, "intervals": 40, "method": "m", "burst_bytes_per_s": 5e8, "sustained_bytes_per_s": 2e7, "burst_sd": 1e7, "sustained_sd": 1e5, "drop_seconds": 0.2, "absorbed_bytes": 1e8, "burst_intervals": 10, "sustained_intervals": 29'
doc "$V" "$(putc "$LAT, \"cliff\": {$CLIFF}")"
expect_status 0 "$R" txt "$J"
grep -q '^vm  *putc  *476\.8  *19\.1  *95\.4 MiB  *0\.20 s$' "$WORK/out" ||
	fail "cliff: $(cat "$WORK/out")"
doc "$V" "$(putc "$LAT, \"cliff\": {\"found\": false, \"intervals\": 3, \"why\": \"too few\"}")"
expect_status 0 "$R" txt "$J"
grep -q '^vm  *putc  *no cliff: too few$' "$WORK/out" || fail "no cliff: $(cat "$WORK/out")"
doc "$V" "$(putc "$LAT, \"cliff\": 5")"
bad 'runs[0].tests.putc.cliff 5 is not a cliff: expected an object'
doc "$V" "$(putc "$LAT, \"cliff\": {\"found\": false, \"intervals\": 3}")"
bad 'runs[0].tests.putc.cliff.why (missing) is not why no cliff was found'
doc "$V" "$(putc "$LAT, \"cliff\": {$(echo "$CLIFF" | sed 's/"absorbed_bytes": 1e8, //')}")"
bad 'runs[0].tests.putc.cliff has no absorbed_bytes'
doc "$V" "$(putc "$LAT, \"cliff\": {$(echo "$CLIFF" | sed 's/"drop_seconds": 0.2/"drop_seconds": "x"/')}")"
bad 'runs[0].tests.putc.cliff.drop_seconds "x" is not a cliff'"'"'s figure'
doc "$V" "$(putc "$LAT, \"cliff\": {$(echo "$CLIFF" | sed 's/"sustained_bytes_per_s": 2e7/"sustained_bytes_per_s": 6e8/')}")"
bad 'runs[0].tests.putc.cliff.sustained_bytes_per_s 600000000.0 is not a sustained rate: expected it under the burst'
doc "$V" "$(putc "$LAT, \"cliff\": {$(echo "$CLIFF" | sed 's/"intervals": 40/"intervals": 39/')}")"
bad 'runs[0].tests.putc.cliff.intervals 39 is not the intervals looked at'

# The containers.
doc "$V" '"fast"'
bad 'runs[0].tests.putc "fast" is not an object'
printf '{%s "runs": [{"csv": "%s", "tests": [1]}]}\n' "$V" "$L103" >"$J"
bad 'runs[0].tests [1] is not an object'
printf '{%s "runs": [{"csv": 5}]}\n' "$V" >"$J"
bad 'runs[0] has no csv line'

# A long value is cut short in the message.
doc "$V" "$(putc "$(echo "$LAT" | sed "s/\"p99_ns\": 20000/\"p99_ns\": \"$(printf '%0300d' 0)\"/")")"
bad 'runs[0].tests.putc.latency.p99_ns "0000'
[ "$(wc -c <"$WORK/err")" -lt 300 ] || fail "a long value shown whole: $(cat "$WORK/err")"

# --skip-bad: the bad run a warning, the good run shown; a document that
# is not one of ours a warning, the other inputs shown.
doc "$V" "$(putc "$(echo "$LAT" | sed 's/"p99_ns": 20000/"p99_ns": "x"/')")"
printf '%s\n' "$L103" >"$WORK/l103.csv"
"$R" txt "$WORK/l103.csv" >"$WORK/l103.txt" || fail "txt l103"
expect_status 0 "$R" --skip-bad txt "$J"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "--skip-bad: $(cat "$WORK/err")"
grep -qF "clyde-report: warning: $J:1: runs[0].tests.putc.latency.p99_ns \"x\" is not a latency" "$WORK/err" ||
	fail "--skip-bad: $(cat "$WORK/err")"
cmp -s "$WORK/out" "$WORK/l103.txt" || fail "--skip-bad: not the good run: $(cat "$WORK/out")"
doc '"schema_version": 2,' "$(putc "$LAT")"
expect_status 0 "$R" --skip-bad txt "$J" "$WORK/l103.csv"
grep -qF "clyde-report: warning: $J:1: schema_version 2" "$WORK/err" ||
	fail "--skip-bad, version 2: $(cat "$WORK/err")"
cmp -s "$WORK/out" "$WORK/l103.txt" || fail "--skip-bad, version 2: $(cat "$WORK/out")"
exit 0
