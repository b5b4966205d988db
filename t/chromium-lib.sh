# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the tests that look at clyde-report's page in a real
# browser (t/011, t/062): headless Chromium (Debian package chromium)
# renders a page to a PNG, netpbm's pngtopnm and ppmhist count its
# colours. Sourced after lib.sh; skips when either is missing.

command -v chromium >/dev/null || skip "chromium not installed (apt-get install chromium)"
command -v pngtopnm >/dev/null && command -v ppmhist >/dev/null ||
	skip "netpbm not installed (apt-get install netpbm)"

# shot PAGE PNG WIDTH HEIGHT: the page as Chromium draws it in a window
# of that size. Chromium runs in a session of its own, so every process
# it starts can be found and ended; its profile, caches and temporary
# files stay in $WORK, which lib.sh removes.
shot() {
	sh_home=$WORK/home.$(basename "$2" .png)
	mkdir "$sh_home" || fail "mkdir $sh_home"
	setsid sh -c 'echo $$ >"$1/chromium.pgid"; shift; exec "$@"' sh "$sh_home" \
		env HOME="$sh_home" TMPDIR="$sh_home" XDG_CONFIG_HOME="$sh_home" \
		XDG_CACHE_HOME="$sh_home" \
		chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$sh_home/profile" --screenshot="$2" \
		--window-size="$3,$4" "file://$1" \
		>"$sh_home/chromium.log" 2>&1 &
	sh_pid=$!
	at_exit "kill -KILL -\$(cat '$sh_home/chromium.pgid') 2>/dev/null"
	# A browser that hangs is stopped after two minutes.
	sh_n=0
	while kill -0 $sh_pid 2>/dev/null; do
		sh_n=$((sh_n + 1))
		[ $sh_n -gt 240 ] && fail "chromium still running after 2 minutes: $(tail -5 "$sh_home/chromium.log")"
		sleep 0.5
	done
	wait $sh_pid
	sh_status=$?
	[ "$sh_status" = 0 ] || fail "chromium exited $sh_status: $(tail -5 "$sh_home/chromium.log")"
	[ -s "$2" ] || fail "no screenshot: $(tail -5 "$sh_home/chromium.log")"
	kill -KILL -"$(cat "$sh_home/chromium.pgid")" 2>/dev/null
	return 0
}

# hist PNG WIDTH HEIGHT: the picture's colours into $WORK/hist (ppmhist:
# "r g b lum count" a line), after checking its size.
hist() {
	pngtopnm "$1" >"$WORK/shot.ppm" 2>"$WORK/err" ||
		fail "pngtopnm: not a PNG: $(cat "$WORK/err")"
	head -c 20 "$WORK/shot.ppm" | tr '\n' ' ' | grep -q "^P6 $2 $3 " ||
		fail "not a $2x$3 picture: $(head -c 20 "$WORK/shot.ppm")"
	ppmhist -noheader "$WORK/shot.ppm" >"$WORK/hist" || fail "ppmhist failed"
}

# px R G B: how many pixels of that colour the last hist saw.
px() {
	awk -v r=$1 -v g=$2 -v b=$3 '$1 == r && $2 == g && $3 == b { n = $5 } END { print n + 0 }' "$WORK/hist"
}
