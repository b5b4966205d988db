#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bonnie++'s own converters accept clyde's lines (Debian package
# bonnie++; .ci/run installs it).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v bon_csv2txt >/dev/null && command -v bon_csv2html >/dev/null ||
	skip "bon_csv2txt/bon_csv2html not installed (apt-get install bonnie++)"

D="$WORK/d"
mkdir "$D"
expect_status 0 "$CLYDE" -d "$D" -s 16m -r 0 -q -m cb -n 1 -f 1m
line=$(cat "$WORK/out")

printf '%s\n' "$line" | bon_csv2txt >"$WORK/txt" 2>"$WORK/txt.err" ||
	fail "bon_csv2txt failed: $(cat "$WORK/txt.err")"
[ -s "$WORK/txt.err" ] && fail "bon_csv2txt complained: $(cat "$WORK/txt.err")"
grep -q "^cb " "$WORK/txt" || fail "bon_csv2txt lost the row: $(cat "$WORK/txt")"
grep -q '^Latency ' "$WORK/txt" || fail "bon_csv2txt: no latency row"

printf '%s\n' "$line" | bon_csv2html >"$WORK/html" 2>"$WORK/html.err" ||
	fail "bon_csv2html failed: $(cat "$WORK/html.err")"
[ -s "$WORK/html.err" ] && fail "bon_csv2html complained: $(cat "$WORK/html.err")"
grep -q ">cb<" "$WORK/html" || fail "bon_csv2html lost the row"
# The figures bon_csv2html shows are clyde's: block output KiB/s / 1024.
put_block=$(printf '%s\n' "$line" | cut -d, -f12)
if [ "$put_block" != "+++++" ]; then
	grep -q "<td>$((put_block / 1024))</td>" "$WORK/html" ||
		fail "bon_csv2html does not show block output $put_block"
fi
# And the file-test rates, which bon_csv2html shows unchanged.
for f in 27 29 31 33 35 37; do
	v=$(printf '%s\n' "$line" | cut -d, -f$f)
	case $v in
	+++++) ;;
	'' | *[!0-9]*) fail "field $f is '$v'" ;;
	*) grep -q "<td>$v</td>" "$WORK/html" || fail "bon_csv2html does not show $v (field $f)" ;;
	esac
done
assert_empty "$D"
exit 0
