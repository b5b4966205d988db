#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doc/ARCHITECTURE.md stays one page that is true of the tree: every
# file or folder it names in backquotes (a span such as `lib/`,
# `src/clyde/phase.h` or `t/check_*.c`, or a bare file name such as
# `figures.h`) exists in the source tree; every folder under src/, lib/,
# t/ and contrib/ that holds source (.c, .h, .sh, Makefile.am) is named
# in it, as `DIR` or `DIR/`; and it has at most 300 lines. Spans inside
# ``` blocks and spans with a placeholder (`src/clyde/phase_<key>.c`)
# are not names; and its invariant that the runner and main name no
# phase holds (below). Run from the source tree or an unpacked tarball;
# ARCHITECTURE=FILE checks another page against the same tree.
T_SRCDIR=${T_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
. "$T_SRCDIR/lib.sh"

top=$(cd "$T_SRCDIR/.." && pwd) || fail "no source tree"
page=${ARCHITECTURE:-$top/doc/ARCHITECTURE.md}
[ -f "$page" ] || fail "no $page"
MAX_LINES=300

lines=$(wc -l <"$page")
[ "$lines" -le $MAX_LINES ] ||
	echo "$page has $lines lines; one page is at most $MAX_LINES" >>"$WORK/bad"

# The backquoted spans outside fenced blocks, a span that runs over a
# line break included, one per line.
awk '/^[ \t]*```/ { fence = !fence; next } !fence' "$page" | tr '\n' ' ' |
	awk -F'`' '{ for (i = 2; i <= NF; i += 2) print $i }' | sort -u \
	>"$WORK/spans"

# The names among them: path characters only (a glob's too), and a slash
# or a source file's ending.
grep -E '^[A-Za-z0-9._][]A-Za-z0-9._*?/[-]*$' "$WORK/spans" |
	grep -E '/|\.([ch]|sh|am|ac|md|[15])$' >"$WORK/names"
[ -s "$WORK/names" ] || fail "no file or folder named in $page"

exists() {
	case $1 in
	*/*)
		for m in "$top"/$1; do
			case $1 in
			*/) [ -d "$m" ] && return 0 ;;
			*) [ -e "$m" ] && return 0 ;;
			esac
		done
		return 1 ;;
	*)
		[ -n "$(find "$top" -name .git -prune -o -name "$1" -print |
			head -1)" ] ;;
	esac
}

while read -r name; do
	exists "$name" || echo "it names \`$name\`, which is not in the tree"
done <"$WORK/names" >>"$WORK/bad"

# The source folders, and whether the page names each.
(cd "$top" && find src lib t contrib -name '.?*' -prune -o -type f \
	\( -name '*.[ch]' -o -name '*.sh' -o -name Makefile.am \) -print) |
	sed 's|/[^/]*$||' | sort -u >"$WORK/folders"
[ -s "$WORK/folders" ] || fail "no source folders found under $top"
while read -r dir; do
	grep -qxF -e "$dir" -e "$dir/" "$WORK/names" ||
		echo "the source folder $dir/ is not in it"
done <"$WORK/folders" >>"$WORK/bad"

# Its invariant "the runner and main name no phase, nor do the sizing
# and the live view": no key of lib/figures.h's figures in a string of
# theirs, and no RT_<key>. A list of tests a message gives comes from
# the phases' flags (runner_flag_names), so that it cannot go stale.
keys=$(sed -n 's/^[ \t]*X(\([a-z_]*\),.*/\1/p' "$top/lib/figures.h" | paste -sd '|' -)
[ -n "$keys" ] || fail "no figure keys in lib/figures.h"
(cd "$top" && grep -nE "\"[^\"]*\\b($keys)\\b[^\"]*\"|\\bRT_($keys)\\b" \
	src/clyde/runner*.c src/clyde/main.c src/clyde/autosize.c src/clyde/live.c) |
	sed 's/^/it says the runner, main, the sizing and the live view name no phase, but: /' \
	>>"$WORK/bad"

[ ! -s "$WORK/bad" ] ||
	fail "$page does not match the tree:
$(cat "$WORK/bad")"
exit 0
