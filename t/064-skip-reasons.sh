#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The end of make check names each skipped test with its reason
# (t/skipped.sh, from the logs and .trs files the harness leaves): the
# last "SKIP: " line a test printed, else its last line, else "no reason
# given"; a test that passed or failed, or whose files are missing, is
# not named; the order is the run's; it never fails. Under
# CLYDE_NO_SKIPS=1 (CI) it fails, naming each skip, unless the test
# skipped for a configure option (lib.sh's skip_build).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

# (CI runs this under CLYDE_NO_SKIPS=1: its cases say when they want it.)
unset CLYDE_NO_SKIPS

S=$T_SRCDIR/skipped.sh
[ -f "$S" ] || fail "no $S"

# result NAME RESULT OUTPUT: NAME.log and NAME.trs as the harness's
# test-driver writes them for a test that printed OUTPUT.
result() {
	printf '%s' "$3" >"$WORK/$1.log"
	printf '%s %s (exit status: %s)\n' "$2" "$1" \
		"$(case $2 in PASS) echo 0 ;; SKIP) echo 77 ;; *) echo 1 ;; esac)" \
		>>"$WORK/$1.log"
	printf ':test-result: %s\n:global-test-result: %s\n:recheck: no\n:copy-in-global-log: yes\n' \
		"$2" "$2" >"$WORK/$1.trs"
}

result 046-mpi.sh SKIP 'SKIP: clyde was not built with MPI (configure --with-mpi)
SKIP-KIND: build
'
result 001-run.sh PASS 'SKIP: not this one
'
result 027-zcav-loop-file.sh SKIP 'a line before
SKIP: needs root (losetup)
a cleanup message after
'
result check_probe SKIP 'Running suite(s): probe
no /dev/fuse here

'
result 099-quiet.sh SKIP ''
result 010-report-html.sh FAIL 'FAIL: SKIP: not a skip
'
result 011-report-html-chromium.sh SKIP 'SKIP: chromium not installed
'
rm "$WORK/011-report-html-chromium.sh.trs"

cd "$WORK" || fail "cd $WORK"
out=$(sh "$S" 046-mpi.sh.log 001-run.sh.log 027-zcav-loop-file.sh.log \
	check_probe.log 099-quiet.sh.log 010-report-html.sh.log \
	011-report-html-chromium.sh.log missing.sh.log) ||
	fail "skipped.sh exited $?"
want='SKIP: 046-mpi.sh: clyde was not built with MPI (configure --with-mpi)
SKIP: 027-zcav-loop-file.sh: needs root (losetup)
SKIP: check_probe: no /dev/fuse here
SKIP: 099-quiet.sh: no reason given'
[ "$out" = "$want" ] || fail "got:
$out
expected:
$want"

# Logs named with a directory (a VPATH build's, or TESTS=dir/x.sh).
mkdir sub || fail "mkdir sub"
mv 046-mpi.sh.log 046-mpi.sh.trs sub/ || fail "mv to sub/"
out=$(sh "$S" sub/046-mpi.sh.log) || fail "skipped.sh exited $?"
[ "$out" = "SKIP: 046-mpi.sh: clyde was not built with MPI (configure --with-mpi)" ] ||
	fail "sub/: $out"

# Nothing skipped, or nothing named: nothing said, exit 0.
out=$(sh "$S" 001-run.sh.log) || fail "skipped.sh exited $?"
[ -z "$out" ] || fail "a passed test named: $out"
out=$(sh "$S") || fail "skipped.sh with no logs exited $?"
[ -z "$out" ] || fail "no logs: $out"

# Under CLYDE_NO_SKIPS=1: a skip for a configure option passes, named as
# ever; any other fails the run, with a FAIL line for each.
mv sub/046-mpi.sh.log sub/046-mpi.sh.trs . || fail "mv from sub/"
out=$(CLYDE_NO_SKIPS=1 sh "$S" 046-mpi.sh.log 001-run.sh.log) ||
	fail "CLYDE_NO_SKIPS=1, a skip for a configure option: exit $?: $out"
[ "$out" = "SKIP: 046-mpi.sh: clyde was not built with MPI (configure --with-mpi)" ] ||
	fail "CLYDE_NO_SKIPS=1, 046: $out"
out=$(CLYDE_NO_SKIPS=1 sh "$S" 046-mpi.sh.log 027-zcav-loop-file.sh.log check_probe.log)
st=$?
[ $st = 1 ] || fail "CLYDE_NO_SKIPS=1, two skips for a missing thing: exit $st"
want='SKIP: 046-mpi.sh: clyde was not built with MPI (configure --with-mpi)
SKIP: 027-zcav-loop-file.sh: needs root (losetup)
FAIL: 027-zcav-loop-file.sh skipped under CLYDE_NO_SKIPS=1 (only a skip for a configure option may)
SKIP: check_probe: no /dev/fuse here
FAIL: check_probe skipped under CLYDE_NO_SKIPS=1 (only a skip for a configure option may)'
[ "$out" = "$want" ] || fail "CLYDE_NO_SKIPS=1, got:
$out
expected:
$want"

# make check runs it after the summary, on the run's logs.
grep -q 'skipped\.sh.*\$(TEST_LOGS)' "$T_SRCDIR/Makefile.am" ||
	fail "t/Makefile.am does not run skipped.sh on \$(TEST_LOGS)"
exit 0
