#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An error in each of clyde's file tests in turn (sequential and random
# create, stat+read and delete), injected by the fault rig on the
# operation the test makes (mkdir, create, close, fsync, write, open,
# read, unlink): clyde exits 1 with one line naming the test, the call,
# the file and the real error, and every file and directory it made is
# gone from the backing directory.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

ff_setup

# expect_fault TITLE CALL ERROR RULE CLYDE-ARGS...: ff_expect_clyde on a
# file below files/.
expect_fault() {
	ff_expect_clyde 'files' "$@"
}

# 1024 files of 4 KiB. --only=X runs X's pass (create, stat, delete);
# the operation picks the phase within it. Before a stat phase clyde's
# eviction opens every file and ignores errors, so an open fault fires
# there too and the phase meets it next.
F="-s 0 -n 1:4k:4k"
expect_fault 'sequential create' mkdir "$EIO" 'fail mkdir EIO path=*/files' $F --only=seq_create
expect_fault 'sequential create' create "$EIO" 'fail create EIO path=*/files/* after=100' \
	$F --only=seq_create
expect_fault 'sequential create' close "$EIO" 'fail flush EIO path=*/files/* after=5' \
	$F --only=seq_create
expect_fault 'sequential stat' open "$EIO" 'fail open EIO path=*/files/*' $F --only=seq_stat
expect_fault 'sequential delete' unlink "$EIO" 'fail unlink EIO path=*/files/* after=10 times=1' \
	$F --only=seq_del
expect_fault 'random create' write 'No space left on device' \
	'fail write ENOSPC path=*/files/* after=50' $F --only=ran_create
expect_fault 'random create' fsync "$EIO" 'fail fsync EIO path=*/files/* after=3' \
	$F -b --only=ran_create
expect_fault 'random stat' read "$EIO" 'fail read EIO path=*/files/*' $F --only=ran_stat
expect_fault 'random delete' unlink "$EIO" 'fail unlink EIO path=*/files/* times=1' \
	$F --only=ran_del
# Files spread over subdirectories.
expect_fault 'sequential create' create "$EIO" 'fail create EIO path=*/files/0000?/* after=5' \
	-s 0 -n 1:4k:4k:3 --only=seq_create
exit 0
