#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --data: what the data file holds. Under -y p (a prompt before each
# test) the data file block output wrote is copied before block input
# runs, and measured: random: zlib keeps over 99% of it and no 4 KiB
# block or 512-byte sector repeats; compress:50: zlib's ratio over the
# file within 45-55%; dedupe:30: about 30% of its 4 KiB blocks repeat
# (27-33%); zero: all zeros. settings.data names the mode and
# runs[].data_compress_ratio agrees with the file within 3 points. A bad
# mode: one line, exit 2, nothing made. The CSV line is the same.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
command -v python3 >/dev/null || skip "python3 not installed"
command -v mkfifo >/dev/null || skip "mkfifo not installed"

D="$WORK/d"
mkdir "$D"

# measure FILE: "ratio repeated_blocks repeated_sectors nonzero_bytes".
measure() {
	python3 - "$1" <<'PY'
import sys, zlib
d = open(sys.argv[1], 'rb').read()
blocks = [d[i:i + 4096] for i in range(0, len(d), 4096)]
sectors = [d[i:i + 512] for i in range(0, len(d), 512)]
print("%.4f %.4f %d %d" % (len(zlib.compress(d, 6)) / len(d),
      1 - len(set(blocks)) / len(blocks), len(sectors) - len(set(sectors)),
      len(d) - d.count(0)))
PY
}

# copy_run MODE: clyde --data=MODE over 16 MiB under -y p; the data file
# as block output left it in $WORK/copy, the JSON in $WORK/d.json.
copy_run() {
	rm -f "$WORK/fifo" "$WORK/copy"
	mkfifo "$WORK/fifo"
	"$CLYDE" -d "$D" -s 16m -r 0 -n 0 -f -z 5 --data="$1" -y p \
		--only=put_block,get_block --json="$WORK/d.json" \
		<"$WORK/fifo" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	exec 3>"$WORK/fifo"
	wait_for() {
		wf_i=0
		until [ "$(grep -c "^[0-9]*:$" "$WORK/out")" -ge "$1" ]; do
			wf_i=$((wf_i + 1))
			[ $wf_i -lt 600 ] || { kill $pid; fail "$2: no prompt $1: $(cat "$WORK/err")"; }
			sleep 0.05
		done
	}
	wait_for 1 "$1"
	echo >&3
	wait_for 2 "$1"
	cp "$(find "$D" -name data -type f)" "$WORK/copy" || fail "$1: no data file"
	echo >&3
	exec 3>&-
	wait $pid || fail "$1: exit $?: $(cat "$WORK/err")"
	assert_empty "$D"
	[ "$(jq -r .settings.data "$WORK/d.json")" = "$1" ] ||
		fail "$1: settings.data $(jq -c .settings.data "$WORK/d.json")"
	grep '^1\.98,' "$WORK/out" | cut -d, -f1-4,6- >"$WORK/csv.$1"
}

# near JSON_RATIO FILE_RATIO: within 0.03.
near() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 0.03 && d > -0.03) }'
}

# zlib_in MODE LO HI: the file's zlib ratio ($1 of measure) from LO to
# HI, and the JSON's within 3 points of it.
zlib_in() {
	awk -v r="$ratio" -v lo="$2" -v hi="$3" 'BEGIN { exit !(r >= lo && r <= hi) }' ||
		fail "$1: zlib ratio $ratio"
	near "$(jq .runs[0].data_compress_ratio "$WORK/d.json")" "$ratio" ||
		fail "$1: JSON ratio $(jq .runs[0].data_compress_ratio "$WORK/d.json") against $ratio"
}

copy_run random
set -- $(measure "$WORK/copy")
ratio=$1
echo "random: zlib ratio $1, repeated blocks $2, sectors $3" >&2
zlib_in random 0.99 2
[ "$2" = 0.0000 ] && [ "$3" = 0 ] || fail "random: repeated blocks $2, sectors $3"

copy_run compress:50
set -- $(measure "$WORK/copy")
ratio=$1
echo "compress:50: zlib ratio $1" >&2
zlib_in compress:50 0.45 0.55

copy_run dedupe:30
set -- $(measure "$WORK/copy")
echo "dedupe:30: repeated blocks $2" >&2
awk -v r="$2" 'BEGIN { exit !(r >= 0.27 && r <= 0.33) }' || fail "dedupe:30: repeated blocks $2"

copy_run zero
set -- $(measure "$WORK/copy")
[ "$4" = 0 ] || fail "zero: $4 bytes not zero"

# The CSV line does not change with the mode (but for its seed field).
for m in compress:50 dedupe:30 zero; do
	[ "$(cut -d, -f1-5 "$WORK/csv.$m")" = "$(cut -d, -f1-5 "$WORK/csv.random")" ] ||
		fail "$m: CSV labels differ: $(cat "$WORK/csv.$m")"
done

# Bad modes: one line naming the value, exit 2, nothing made.
for bad in compress:150 foo dedupe:0 random:5; do
	expect_status 2 "$CLYDE" -d "$D" -s 16m -r 0 --data="$bad"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "--data=$bad: not one line: $(cat "$WORK/err")"
	grep -q "^clyde: --data '$bad': " "$WORK/err" || fail "--data=$bad: $(cat "$WORK/err")"
	assert_empty "$D"
done
exit 0
