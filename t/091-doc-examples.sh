#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example the documents show still runs and still prints what they
# show. An example is a command after "$ " and the output under it, in a
# man page's .nf/.EX block or a markdown block indented by 4 spaces
# (docex.awk). Each runs as its entry in t/docex/<document>.map says:
#
#   == <the example's command, its first line as the document shows it>
#   needs: root fuse disk pg jq   what it cannot run without (any of)
#   run: <shell command>          what runs (may repeat: one script);
#                                 else the command shown
#   sed: <sed expression>         applied to the output (may repeat)
#
# in a scratch directory of its own ($DIR, under /var/tmp, removed after
# it), with this tree's programs first on PATH and $SRC the source tree;
# standard output and error together are held against the document's
# output by docmatch.awk (figures masked, whitespace squeezed, "..."
# any lines). An example without an entry fails, so none goes
# unchecked; one whose needs are missing, or whose run exits 77, is
# skipped with its reason. needs: root is uid 0; fuse, /dev/fuse and
# the faultfs rig; disk, a free loop device (as root); pg, PostgreSQL's
# programs; jq, jq. One line per example with its seconds, then their
# sum. DOC_EXAMPLE=TEXT runs only the examples whose command holds TEXT
# and shows what they printed. The test fails when an example fails and
# is skipped only when every example was.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

# The documents, relative to the source tree; those that do not exist
# are passed over. A markdown document's map drops its .md
# (t/docex/README.map, t/docex/GUIDE.map).
DOCS="README doc/GUIDE.md doc/*.1 doc/*.5"

T=${T_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
SRC=$(cd "$T/.." && pwd)
export SRC

# The programs, copied side by side into one folder first on PATH (so
# that clyde-pgscan finds its clyde beside it, and nobody can run them
# from a tree under /root).
B=$(dirname "$CLYDE")/..
CLYDE_REPORT=${CLYDE_REPORT:-$B/clyde-report}
CLYDE_ZCAV=${CLYDE_ZCAV:-$B/clyde-zcav}
CLYDE_SWEEP=${CLYDE_SWEEP:-$B/clyde-sweep}
CLYDE_PGSCAN=${CLYDE_PGSCAN:-$B/clyde-pgscan}
CLYDE_CURVE=${CLYDE_CURVE:-$B/clyde-curve}
chmod 711 "$WORK"
mkdir "$WORK/bin" "$WORK/ex"
for p in "$CLYDE" "$CLYDE_REPORT" "$CLYDE_ZCAV" "$CLYDE_SWEEP" \
	"$CLYDE_PGSCAN" "$CLYDE_CURVE"; do
	[ -x "$p" ] || fail "$p: not built"
	cp "$p" "$WORK/bin/" || fail "cannot copy $p"
done
chmod 755 "$WORK/bin" "$WORK/bin"/*
PATH=$WORK/bin:$PATH
export PATH

# missing NEED: why an example that needs NEED cannot run here; nothing
# when it can.
missing() {
	case $1 in
	root) [ "$(id -u)" = 0 ] || echo "needs root" ;;
	fuse)
		if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null 2>&1; then
			echo "needs FUSE (/dev/fuse, fusermount3)"
		elif [ ! -x "${FAULTFS:-}" ]; then
			echo "needs the faultfs rig (built with libfuse3)"
		fi ;;
	disk)
		if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1 ||
			! losetup -f >/dev/null 2>&1; then
			echo "needs a free loop device (root)"
		fi ;;
	pg)
		ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 ||
			echo "needs PostgreSQL (initdb)" ;;
	jq) command -v jq >/dev/null 2>&1 || echo "needs jq" ;;
	*) echo "needs '$1', which this test does not know" ;;
	esac
}

# entry MAP KEY: the entry for KEY in MAP as lines "needs ...", "run
# ...", "sed ..."; status 1 when there is none.
entry() {
	KEY=$2 awk '
		function norm(s) { sub(/[ \t]*\\?[ \t]*$/, "", s); return s }
		BEGIN { key = norm(ENVIRON["KEY"]) }
		/^== / { on = norm(substr($0, 4)) == key; if (on) found = 1; next }
		!on || /^#/ || /^[ \t]*$/ { next }
		/^(needs|run|sed):/ {
			w = $0; sub(/:.*/, "", w)
			v = $0; sub(/^[a-z]+:[ \t]?/, "", v)
			print w " " v
			next
		}
		{ printf "%s:%d: not needs:, run: or sed:: %s\n", FILENAME, FNR, $0 > "/dev/stderr"; bad = 1 }
		END { exit bad ? 2 : !found }' "$1"
}

# map_of DOC: its map; a markdown document's name loses its .md there
# (doc/GUIDE.md: t/docex/GUIDE.map).
map_of() {
	mo=$(basename "$1")
	echo "$T/docex/${mo%.md}.map"
}

# now: seconds since the epoch, with its fraction.
now() {
	date +%s.%N
}

pass=0 failed=0 skipped=0 total=0
FAILS=""
RUNDIR=""
at_exit '[ -z "$RUNDIR" ] || rm -rf "$RUNDIR"'

# one DOC N LINE KEY: run the Nth example of DOC (line LINE) and judge.
one() {
	doc=$1 n=$2 line=$3 key=$4
	ex=$WORK/ex/$n
	where="$doc:$line"
	map=$(map_of "$doc")
	if [ ! -r "$map" ] || ! entry "$map" "$key" >"$WORK/entry"; then
		failed=$((failed + 1))
		FAILS="$FAILS $where"
		echo "FAIL $where: no map entry in t/docex/${map##*/}: $key"
		return
	fi
	why=""
	for need in $(sed -n 's/^needs //p' "$WORK/entry"); do
		w=$(missing "$need")
		[ -z "$w" ] || why="${why:+$why, }$w"
	done
	if [ -n "$why" ]; then
		skipped=$((skipped + 1))
		echo "SKIP $where: $why: $key"
		return
	fi
	if grep -q '^run ' "$WORK/entry"; then
		sed -n 's/^run //p' "$WORK/entry" >"$WORK/run"
	else
		cp "$ex.cmd" "$WORK/run"
	fi
	sed -n 's/^sed //p' "$WORK/entry" >"$WORK/sed"
	RUNDIR=$(mktemp -d /var/tmp/clyde-docex.XXXXXX) || fail "no scratch directory in /var/tmp"
	chmod 755 "$RUNDIR"
	t0=$(now)
	(cd "$RUNDIR" && DIR=$RUNDIR timeout -k 5 120 sh "$WORK/run") >"$WORK/raw" 2>&1 </dev/null
	st=$?
	t1=$(now)
	rm -rf "$RUNDIR"
	RUNDIR=""
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	SECS=$(awk -v a="$SECS" -v b="$secs" 'BEGIN { print a + b }')
	if [ -s "$WORK/sed" ]; then
		sed -f "$WORK/sed" "$WORK/raw" >"$WORK/got" || fail "$where: the sed: of its entry"
	else
		cp "$WORK/raw" "$WORK/got"
	fi
	if [ -n "${DOC_EXAMPLE:-}" ]; then
		echo "---- $where: $key (exit $st)"
		cat "$WORK/got"
		echo "----"
	fi
	if [ $st = 77 ]; then
		skipped=$((skipped + 1))
		echo "SKIP $where (${secs} s): $(tail -1 "$WORK/raw"): $key"
		return
	fi
	if [ $st = 124 ] || [ $st = 137 ]; then
		failed=$((failed + 1))
		FAILS="$FAILS $where"
		echo "FAIL $where (${secs} s): timed out: $key"
		return
	fi
	if awk -f "$T/docmatch.awk" "$ex.exp" "$WORK/got" >"$WORK/diff"; then
		pass=$((pass + 1))
		echo "ok   $where (${secs} s): $key"
	else
		failed=$((failed + 1))
		FAILS="$FAILS $where"
		echo "FAIL $where (${secs} s, exit $st): $key"
		sed 's/^/    /' "$WORK/diff"
	fi
}

SECS=0
for pat in $DOCS; do
	for path in "$SRC"/$pat; do
		[ -f "$path" ] || continue
		doc=${path#"$SRC"/}
		rm -f "$WORK/ex"/*
		awk -v out="$WORK/ex" -f "$T/docex.awk" "$path" >"$WORK/index" ||
			fail "docex.awk $doc"
		tab=$(printf '\t')
		while IFS=$tab read -r n line key; do
			case $key in
			*"${DOC_EXAMPLE:-}"*) ;;
			*) continue ;;
			esac
			total=$((total + 1))
			one "$doc" "$n" "$line" "$key" </dev/null
		done <"$WORK/index"
		# A map entry no example has is left over from an example
		# that changed or went.
		map=$(map_of "$doc")
		if [ -r "$map" ] && [ -z "${DOC_EXAMPLE:-}" ]; then
			sed -n 's/^== //p' "$map" | while IFS= read -r k; do
				cut -f3 "$WORK/index" | KEY=$k awk '
					function norm(s) { sub(/[ \t]*\\?[ \t]*$/, "", s); return s }
					norm($0) == norm(ENVIRON["KEY"]) { f = 1 } END { exit !f }' ||
					echo "note: $map: an entry no example has: $k"
			done
		fi
	done
done

echo "$total examples: $pass passed, $failed failed, $skipped skipped; $(printf '%.1f' "$SECS") s running them"
[ $failed = 0 ] || fail "examples that no longer run as shown:$FAILS"
[ $pass -gt 0 ] || skip "every example was skipped ($total)"
exit 0
