#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# skipped.sh LOG...: the skipped tests among LOG... (make check's logs,
# each with its .trs beside it), one line each with the reason, for the
# end of make check: "SKIP: NAME: REASON". The reason is the last line
# the test printed that starts "SKIP: " (lib.sh's skip), else the last
# line it printed at all. Nothing for a run that skipped none; a missing
# or unreadable file is passed over.
#
# Under CLYDE_NO_SKIPS=1 (CI, where every package the tests use is
# installed and the run is root's) a skip is a failure: the run fails,
# naming each, unless the test skipped for what the build left out by a
# configure option (lib.sh's skip_build: 046 without --with-mpi). A
# truth test that skips for want of its rig must not pass as "all
# passed". Otherwise this never fails the run.
bad=0
for log in "$@"; do
	trs=${log%.log}.trs
	if [ ! -r "$trs" ] || [ ! -r "$log" ]; then
		continue
	fi
	grep -q '^:test-result: SKIP' "$trs" 2>/dev/null || continue
	name=${log%.log}
	name=${name##*/}
	# The driver's own last line ("SKIP NAME (exit status: 77)") is
	# not the test's.
	reason=$(awk '
		prev != "" && !/^[ \t]*$/ { last = prev }
		!/^[ \t]*$/ { prev = $0 }
		/^SKIP: / { said = substr($0, 7); saw = 1 }
		END {
			if (prev !~ /^SKIP .* \(exit status: [0-9]+\)$/)
				last = prev
			if (saw)
				last = said
			print (last ~ /^[ \t]*$/ ? "no reason given" : last)
		}' "$log" 2>/dev/null) || continue
	printf 'SKIP: %s: %s\n' "$name" "$reason"
	if [ "${CLYDE_NO_SKIPS:-0}" = 1 ] &&
		! grep -qx 'SKIP-KIND: build' "$log" 2>/dev/null; then
		printf 'FAIL: %s skipped under CLYDE_NO_SKIPS=1 (only a skip for a configure option may)\n' "$name"
		bad=1
	fi
done
exit $bad
