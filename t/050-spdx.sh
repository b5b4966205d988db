#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source, build, script and man page file of the tree names its
# license (GPL-2.0-or-later) in an SPDX line within its first three
# lines. Run from the source tree or an unpacked tarball.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

top=$(cd "$T_SRCDIR/.." && pwd) || fail "no source tree"
find "$top" \( -name .git -o -name autom4te.cache -o -name '_*' \) -prune -o \
	-type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o \
	-name Makefile.am -o -name configure.ac -o -name bootstrap -o \
	-name quickstart -o -name run -o -name '*.[15]' \) -print |
	grep -v '/config\.h$' >"$WORK/files"
n=$(wc -l <"$WORK/files")
[ "$n" -gt 100 ] || fail "only $n files found under $top"
while read -r f; do
	head -3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2\.0-or-later' ||
		echo "$f"
done <"$WORK/files" >"$WORK/missing"
[ ! -s "$WORK/missing" ] || fail "no SPDX line in: $(cat "$WORK/missing")"
exit 0
