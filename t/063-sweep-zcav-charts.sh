#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the charts of clyde-sweep and clyde-zcav show, read from the
# gnuplot script they save (--plot-script) beside the picture. On a fast
# loop device (its image in RAM where it can be) every sweep cell runs
# under 0.5 s: each is a hatched "+++++" marker of one fixed height,
# never a bar of its measured rate; the %CP panels run from 0 to 100; the
# title names the device, its size, the date and the cell size. On the
# same device capped by a blkio cgroup, clyde-zcav -c 3 draws its blocks
# with a band from the slowest to the fastest pass (filledcurves, one row
# per counted block, slowest <= fastest) and names the device and its
# size. The JSON documents hold the size and the start time the titles
# show. Root only; the loop device and the cgroup are undone on every
# exit path.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
PATH=$PATH:/sbin:/usr/sbin

need_root "loop device, cgroup" losetup truncate gnuplot jq

IMG_DIR=$WORK
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	IMG_DIR=$(mktemp -d /dev/shm/clyde-t.XXXXXX) || IMG_DIR=$WORK
	[ "$IMG_DIR" = "$WORK" ] || at_exit rm -rf "$IMG_DIR"
fi
truncate -s 48M "$IMG_DIR/fast.img"
loop_attach L "$IMG_DIR/fast.img"
mkdir "$WORK/o"

# --- clyde-sweep: all cells under 0.5 s ---
expect_status 0 "$SWEEP" -s 16m -B 1m,4m --destroy-data="$L" \
	--plot "$WORK/o/s.png" --plot-script "$WORK/o/s.gp" \
	--json="$WORK/o/s.json" "$L"
[ -s "$WORK/o/s.png" ] || fail "no sweep picture"
GP=$WORK/o/s.gp
# The cells the CSV says ran under 0.5 s, per operation.
fast_w=$(awk -F, 'NF == 9 && $5 == "write" && $7 < 0.5' "$WORK/out" | wc -l)
fast_r=$(awk -F, 'NF == 9 && $5 == "read" && $7 < 0.5' "$WORK/out" | wc -l)
[ "$fast_w" -gt 0 ] && [ "$fast_r" -gt 0 ] ||
	skip "the loop device was too slow for cells under 0.5 s: $(cat "$WORK/out")"

# rows NAME: the data rows of datablock $NAME in the script.
rows() {
	awk -v n="\$$1" '$1 == n && $2 == "<<" { on = 1; next }
		on && $1 == "EOD" { on = 0 } on' "$GP"
}
# Panels 0 and 2 are writes (MB/s, %CP), 1 and 3 reads.
for p in 0 1 2 3; do
	case $p in 0 | 2) want=$fast_w ;; *) want=$fast_r ;; esac
	n=$(rows "P${p}_FAST" | wc -l)
	[ "$n" = "$want" ] || fail "panel $p: $n markers for $want cells under 0.5 s: $(cat "$GP")"
	# One fixed height for every marker, a small one.
	h=$(rows "P${p}_FAST" | awk '{ print $2 }' | sort -u)
	case $p in
	0 | 1) [ "$h" = "0.0600" ] || fail "panel $p: marker heights '$h'" ;;
	*) [ "$h" = "6.0000" ] || fail "panel $p: marker heights '$h'" ;;
	esac
	# No bar where a marker is, and here no bar at all.
	bars=$(rows "P${p}_S0" | wc -l)
	[ "$bars" = 0 ] || fail "panel $p: $bars bars drawn for cells under 0.5 s: $(rows "P${p}_S0")"
	grep -q "^plot .*\$P${p}_FAST using 1:2 with boxes fs pattern 4 .*'+++++: under 0.5 s, not timed'" "$GP" ||
		fail "panel $p: the markers are not hatched and labelled"
	grep -q "^plot .*\$P${p}_S0 " "$GP" && fail "panel $p plots an empty bar series"
done
# No measured rate of a fast cell is anywhere in the script.
awk -F, 'NF == 9 && $7 < 0.5 { print $8 }' "$WORK/out" | while read -r v; do
	grep -q " $v" "$GP" && fail "the rate $v of a cell under 0.5 s is in the script"
done
[ "$(grep -c '^set yrange \[0:100.0000\]' "$GP")" = 2 ] || fail "%CP panels not on 0..100: $(grep yrange "$GP")"
grep -q "^set yrange \[0:" "$GP" || fail "an axis not from 0"
grep -q '^set logscale' "$GP" && fail "a log axis"
# The title: the device, its size, the date of the run, the cell size.
title=$(grep '^set multiplot layout 4,1 title ' "$GP") || fail "no title"
when=$(jq -r .start_time "$WORK/o/s.json")
day=${when%T*}
clock=${when#*T}
clock=${clock%Z}
case $title in
*"'clyde-sweep: $L (48M)'.\"\\n\".'run $day $clock UTC, 16M per cell; hatched +++++: under 0.5 s, not timed'"*) ;;
*) fail "sweep title: $title (start_time $when)" ;;
esac
# A loop device has no model.
jq -e '.size_bytes == 50331648 and .model == null' "$WORK/o/s.json" >/dev/null ||
	fail "sweep document: $(cat "$WORK/o/s.json")"

# The saved script draws the chart again, to --plot's own name.
grep -q "^set output '$WORK/o/s.png'" "$GP" || fail "the script does not draw to the picture"
rm "$WORK/o/s.png"
(cd "$WORK" && gnuplot "$GP") || fail "gnuplot on the saved script"
[ -s "$WORK/o/s.png" ] || fail "the saved script drew nothing"

# --- clyde-zcav -c 3 on the device capped at 24 MiB/s: 0.67 s a block ---
DEV=$(cat "/sys/class/block/${L#/dev/}/dev")
if [ -w /sys/fs/cgroup/blkio/cgroup.procs ] &&
	[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
	CG=/sys/fs/cgroup/blkio/clyde-chart-t.$$
	mkdir "$CG" || skip "cannot make a blkio cgroup"
	at_exit rmdir "$CG"
	echo "$DEV $((24 * 1048576))" >"$CG/blkio.throttle.read_bps_device"
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	CG=/sys/fs/cgroup/clyde-chart-t.$$
	echo +io >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir "$CG" || skip "cannot make a cgroup"
	at_exit rmdir "$CG"
	echo "$DEV rbps=$((24 * 1048576))" >"$CG/io.max"
else
	skip "no blkio (v1) or io (v2) cgroup controller"
fi
sleep 0.3
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
	"$ZCAV" -b 16 -c 3 --plot "$WORK/o/z.png" --plot-script "$WORK/o/z.gp" \
	--json="$WORK/o/z.json" "$L" >"$WORK/out" 2>"$WORK/err" ||
	fail "clyde-zcav -c 3: $(cat "$WORK/err")"
[ -s "$WORK/o/z.png" ] || fail "no zcav picture"
GP=$WORK/o/z.gp
counted=$(awk '/^#block offset/ { m = 1; next } m && /^[0-9]/' "$WORK/out" | wc -l)
[ "$counted" -gt 0 ] || fail "no counted block under the cap: $(cat "$WORK/out")"
band=$(rows d0b)
[ "$(printf '%s\n' "$band" | grep -c .)" = "$counted" ] ||
	fail "band rows '$band' for $counted counted blocks"
printf '%s\n' "$band" | awk 'NF != 3 || $2 > $3 || $2 <= 0 { exit 1 }' ||
	fail "a band row is not slowest <= fastest: $band"
grep -q "^plot \$d0b using 1:2:3 with filledcurves .*slowest to fastest of 3 passes'" "$GP" ||
	fail "no band in the plot: $(grep '^plot' "$GP")"
when=$(jq -r .start_time "$WORK/o/z.json")
day=${when%T*}
clock=${when#*T}
clock=${clock%Z}
title=$(grep '^set title ' "$GP") || fail "no zcav title"
case $title in
*"trimmed mean of 3 passes'.\"\\n\".'$L (48M)'.\"\\n\".'run $day $clock UTC'"*) ;;
*) fail "zcav title: $title (start_time $when)" ;;
esac
jq -e '.targets[0].size_bytes == 50331648 and .targets[0].model == null' \
	"$WORK/o/z.json" >/dev/null || fail "zcav document: $(cat "$WORK/o/z.json")"

# The document read back keeps them (clyde-report json writes it again).
"${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}" json "$WORK/o/z.json" >"$WORK/again.json" ||
	fail "clyde-report json"
grep -q '"size_bytes": 50331648' "$WORK/again.json" || fail "size_bytes lost: $(cat "$WORK/again.json")"
exit 0
