#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -x N: the summary of the runs (per figure n, mean, sd, min, max and the
# 95% CI of the mean) goes to stderr whatever the outputs are: alone,
# under -q, with --json=FILE (which holds it too), with the document on
# stdout, with the older CSV formats and the 1.03 table; never to stdout.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
D="$WORK/d"
mkdir "$D"
HEAD='^test  *unit  *n  *mean  *sd  *min  *max  *CI low  *CI high$'

# summed CLYDE-ARGS...: -x 3 of block output and 500 seeks exits 0 with
# the summary on stderr: its two lines of heading and a line per figure.
summed() {
	expect_status 0 "$CLYDE" -d "$D" -s 16m::500 -n 0 -r 0 --only=put_block,seeks -x 3 "$@"
	grep -qx 'Summary of 3 runs (95% CI: confidence interval of the mean, Student.s t)' "$WORK/err" ||
		fail "$*: no summary on stderr: $(cat "$WORK/err")"
	grep -q "$HEAD" "$WORK/err" || fail "$*: no summary heading: $(cat "$WORK/err")"
	for t in put_block seeks; do
		grep -q "^$t  *[^ ]*  *3  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *-\{0,1\}[0-9.]*  *[0-9.]*$" "$WORK/err" ||
			fail "$*: no summary line of $t: $(cat "$WORK/err")"
	done
	grep -q 'Summary of' "$WORK/out" && fail "$*: summary on stdout"
	return 0
}

summed
summed -q
summed --json="$WORK/x.json"
jq -e '.summary.put_block.n == 3 and .summary.seeks.n == 3' "$WORK/x.json" >/dev/null ||
	fail "--json=FILE: the document's summary: $(jq -c .summary "$WORK/x.json")"
summed -q --json="$WORK/x.json"
summed --json
jq -e '.summary.seeks.n == 3' "$WORK/out" >/dev/null || fail "--json: stdout is not the document"
summed --csv=1.97
summed --csv=1.03 --format=1.03
assert_empty "$D"
exit 0
