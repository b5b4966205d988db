#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-report html in a real browser: headless Chromium (Debian package
# chromium) renders the page of every fixture to a PNG, and the picture
# must show something: many colours, and the pure green and pure red of
# the best and worst cells. netpbm's pngtopnm and ppmhist read the PNG.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

R=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
DATA=${T_SRCDIR:-$(dirname "$0")}/data

command -v chromium >/dev/null || skip "chromium not installed (apt-get install chromium)"
command -v pngtopnm >/dev/null && command -v ppmhist >/dev/null ||
	skip "netpbm not installed (apt-get install netpbm)"

"$R" html --title='clyde-report in Chromium' "$DATA/r198.csv" "$DATA/r197.csv" \
	"$DATA/r103.csv" "$DATA/run.json" >"$WORK/page.html" ||
	fail "clyde-report html failed"

# Chromium runs in a session of its own, so every process it starts can
# be found and ended; its profile, caches and temporary files stay in
# $WORK, which lib.sh removes.
mkdir "$WORK/home"
setsid sh -c 'echo $$ >"$1/chromium.pgid"; shift; exec "$@"' sh "$WORK" \
	env HOME="$WORK/home" TMPDIR="$WORK/home" XDG_CONFIG_HOME="$WORK/home" \
	XDG_CACHE_HOME="$WORK/home" \
	chromium --headless --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$WORK/home/profile" --screenshot="$WORK/shot.png" \
	--window-size=1400,900 "file://$WORK/page.html" \
	>"$WORK/chromium.log" 2>&1 &
pid=$!
at_exit 'kill -KILL -$(cat "$WORK/chromium.pgid") 2>/dev/null'
# A browser that hangs is stopped after two minutes.
n=0
while kill -0 $pid 2>/dev/null; do
	n=$((n + 1))
	[ $n -gt 240 ] && fail "chromium still running after 2 minutes: $(tail -5 "$WORK/chromium.log")"
	sleep 0.5
done
wait $pid
status=$?
[ "$status" = 0 ] || fail "chromium exited $status: $(tail -5 "$WORK/chromium.log")"
[ -s "$WORK/shot.png" ] || fail "no screenshot: $(tail -5 "$WORK/chromium.log")"

pngtopnm "$WORK/shot.png" >"$WORK/shot.ppm" 2>"$WORK/err" ||
	fail "pngtopnm: not a PNG: $(cat "$WORK/err")"
head -c 20 "$WORK/shot.ppm" | tr '\n' ' ' | grep -q '^P6 1400 900 ' ||
	fail "not a 1400x900 picture: $(head -c 20 "$WORK/shot.ppm")"
# ppmhist: "r g b lum count" per colour.
ppmhist -noheader "$WORK/shot.ppm" >"$WORK/hist" || fail "ppmhist failed"
colours=$(wc -l <"$WORK/hist")
[ "$colours" -ge 100 ] || fail "a blank page: $colours colours"
# The best cells (#00FF00) and the worst (#FF0000) cover some area, and
# white (the page) is not all of it.
px() {
	awk -v r=$1 -v g=$2 -v b=$3 '$1 == r && $2 == g && $3 == b { print $5 }' "$WORK/hist"
}
green=$(px 0 255 0)
red=$(px 255 0 0)
white=$(px 255 255 255)
[ "${green:-0}" -ge 2000 ] || fail "hardly any green: ${green:-0} pixels"
[ "${red:-0}" -ge 2000 ] || fail "hardly any red: ${red:-0} pixels"
[ "${white:-0}" -lt $((1400 * 900 * 9 / 10)) ] || fail "the page is nearly all white"
echo "screenshot: $colours colours, $green green, $red red, ${white:-0} white pixels"
exit 0
