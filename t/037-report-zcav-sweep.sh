#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report reads clyde-zcav and clyde-sweep documents: txt prints
# byte for byte what the program printed for the run (zcav's lines of one
# pass, of three, of two targets; sweep's table and CSV lines), in input
# order among bonnie++ lines and clyde documents; json writes a document
# again as its program wrote it (equal under jq -S but for converted_by)
# and refuses one beside other inputs; a bad document (schema_version 2,
# a negative byte count, another program) is one line naming the file
# and key and exit 2, or with --skip-bad a warning; html, compare and
# plot refuse a document in one line, exit 2, and leave no file.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
command -v jq >/dev/null 2>&1 || skip "jq not installed"

L103='convm004,16G,51346,98,134822,56,69414,17,58651,97,251779,23,758.8,1,512,20048,91,259694,99,5846,18,18707,84,338671,99,2935,9'
L198='1.98,2.00a,vm,1,1795989744,2G,,8192,5,604,96,449755,71,821393,62,571,96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,4453us,51836us,2357us,4282us,105us,2501us'
printf '%s\n' "$L198" >"$WORK/a.csv"
printf '{"schema_version": 1, "program": "clyde", "runs": [{"csv": "%s"}]}\n' \
	"$L103" >"$WORK/c.json"
head -c $((20 * 1048576)) /dev/urandom >"$WORK/f20" || fail "making data"
head -c $((8 * 1048576)) /dev/urandom >"$WORK/f8" || fail "making data"

# same WHAT WANT: clyde-report's stdout ($WORK/out) is WANT's bytes.
same() {
	cmp -s "$WORK/out" "$2" ||
		fail "$1: printed $(cat "$2"); clyde-report txt: $(cat "$WORK/out")"
}

# The runs, their documents and what they printed on stdout.
expect_status 0 "$ZCAV" -b 4 --json="$WORK/z1.json" "$WORK/f20"
cp "$WORK/out" "$WORK/z1.out"
expect_status 0 "$ZCAV" -b 4 -c 3 --json="$WORK/z3.json" "$WORK/f20"
cp "$WORK/out" "$WORK/z3.out"
grep -q '^#loops: 3' "$WORK/z3.out" || fail "-c 3: $(cat "$WORK/z3.out")"
# Two targets, the second's lines in its log.
expect_status 0 "$ZCAV" -b 4 --json="$WORK/z2.json" "$WORK/f20" \
	-l "$WORK/f8.log" "$WORK/f8"
cat "$WORK/out" "$WORK/f8.log" >"$WORK/z2.out"
mkdir "$WORK/d"
expect_status 0 "$SWEEP" -s 4m -B 4k,64k --json="$WORK/s.json" "$WORK/d"
cp "$WORK/out" "$WORK/s.out"
grep -q '^target  *op' "$WORK/s.out" || fail "sweep: no table: $(cat "$WORK/s.out")"

# txt: what each program printed, byte for byte.
for k in z1 z3 z2 s; do
	expect_status 0 "$R" txt "$WORK/$k.json"
	[ -s "$WORK/err" ] && fail "txt $k: $(cat "$WORK/err")"
	same "txt $k" "$WORK/$k.out"
done
# Standard input too.
"$R" txt <"$WORK/z3.json" >"$WORK/out" 2>"$WORK/err" || fail "txt -: $(cat "$WORK/err")"
same "txt of standard input" "$WORK/z3.out"

# Mixed inputs in input order: the rows between two documents are one
# set of tables, as the same rows alone print them.
"$R" txt "$WORK/a.csv" "$WORK/c.json" >"$WORK/ac.txt" || fail "txt a.csv c.json"
"$R" txt "$WORK/c.json" >"$WORK/c.txt" || fail "txt c.json"
"$R" txt "$WORK/a.csv" >"$WORK/a.txt" || fail "txt a.csv"
cat "$WORK/ac.txt" "$WORK/z1.out" "$WORK/c.txt" "$WORK/s.out" \
	"$WORK/z3.out" "$WORK/a.txt" >"$WORK/want"
expect_status 0 "$R" txt "$WORK/a.csv" "$WORK/c.json" "$WORK/z1.json" \
	"$WORK/c.json" "$WORK/s.json" "$WORK/z3.json" "$WORK/a.csv"
same "mixed inputs" "$WORK/want"

# json: the document again, as its program wrote it.
for k in z1 z3 z2 s; do
	expect_status 0 "$R" json "$WORK/$k.json"
	jq -e '.converted_by | startswith("clyde-report ")' "$WORK/out" \
		>/dev/null || fail "json $k: no converted_by"
	jq -S 'del(.converted_by)' "$WORK/out" >"$WORK/again"
	jq -S . "$WORK/$k.json" >"$WORK/orig"
	cmp -s "$WORK/again" "$WORK/orig" ||
		fail "json $k: $(diff "$WORK/orig" "$WORK/again" | head -20)"
	# And read again, it prints the same.
	cp "$WORK/out" "$WORK/$k.again.json"
	expect_status 0 "$R" txt "$WORK/$k.again.json"
	same "txt of json $k" "$WORK/$k.out"
done

# bad WANT: txt of $B exits 2 with one line, "clyde-report: $B" and
# WANT, and nothing on stdout.
bad() {
	expect_one_line 2 "clyde-report: $B$1" "$R" txt "$B"
}
B="$WORK/bad.json"
jq '.schema_version = 2' "$WORK/z1.json" >"$B"
bad ': schema_version 2: clyde-report reads version 1'
jq '.schema_version = 2' "$WORK/s.json" >"$B"
bad ': schema_version 2: clyde-report reads version 1'
jq '.targets[0].blocks[1].bytes = -5' "$WORK/z1.json" >"$B"
bad ': targets[0].blocks[1].bytes -5 is not'
jq '.targets[0].summary[0].bytes = -1' "$WORK/z3.json" >"$B"
bad ': targets[0].summary[0].bytes -1 is not a byte count'
jq '.stages[0].cells[2].bytes = -1' "$WORK/s.json" >"$B"
bad ': stages[0].cells[2].bytes -1 is not a byte count'
jq '.version = 5' "$WORK/z1.json" >"$B"
bad ': version 5 is not a version'
# Another program's reader refuses what it does not find.
jq '.program = "clyde-sweep"' "$WORK/z1.json" >"$B"
bad ': settings.target (missing) is not a name'
jq '.program = "clyde-zcav"' "$WORK/s.json" >"$B"
bad ': settings.operation (missing) is not one of read, write'
jq '.program = "fio"' "$WORK/z1.json" >"$B"
bad ':1: a JSON document without a runs array: not a clyde result'
# --skip-bad: a warning, and the other inputs shown.
jq '.targets[0].blocks[1].bytes = -5' "$WORK/z1.json" >"$B"
expect_status 0 "$R" --skip-bad txt "$B" "$WORK/s.json"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "--skip-bad: $(cat "$WORK/err")"
grep -qF "clyde-report: warning: $B: targets[0].blocks[1].bytes -5" "$WORK/err" ||
	fail "--skip-bad: $(cat "$WORK/err")"
same "--skip-bad" "$WORK/s.out"

# refused WANT CMD...: exit 2, one line holding WANT, nothing in $WORK/o.
mkdir "$WORK/o"
refused() {
	expect_one_line 2 "$@"
	assert_empty "$WORK/o"
}
for k in z1 s; do
	prog=$(jq -r .program "$WORK/$k.json")
	for cmd in html compare; do
		refused "clyde-report: $WORK/$k.json: a $prog document; $cmd reads clyde and bonnie++ results" \
			"$R" $cmd -o "$WORK/o/out" "$WORK/a.csv" "$WORK/$k.json"
	done
	if command -v gnuplot >/dev/null 2>&1; then
		refused "clyde-report: $WORK/$k.json: a $prog document; plot reads clyde and bonnie++ results" \
			"$R" plot -o "$WORK/o/p.png" --script="$WORK/o/p.gp" "$WORK/$k.json"
	else
		expect_status 2 "$R" plot -o "$WORK/o/p.png" "$WORK/$k.json"
		assert_empty "$WORK/o"
	fi
	refused "clyde-report: $WORK/$k.json: a $prog document beside other inputs" \
		"$R" json -o "$WORK/o/j.json" "$WORK/a.csv" "$WORK/$k.json"
done
refused "clyde-report: $WORK/z1.json: a clyde-zcav document beside other inputs" \
	"$R" json -o "$WORK/o/j.json" "$WORK/z1.json" "$WORK/s.json"
refused "clyde-report: $WORK/z1.json: a clyde-zcav document beside other inputs" \
	"$R" json -o "$WORK/o/j.json" "$WORK/z1.json" "$WORK/z3.json"
assert_empty "$WORK/d"
exit 0
