#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rig.sh RULE COMMAND: COMMAND (a shell line) run with $RIG the mount
# point of the test rig (t/faultfs) told RULE ('delay write rate=20m
# cache=16m'), for the examples of doc/GUIDE.md that ran on it (their
# map entries in GUIDE.map). The rig is unmounted and its directories
# removed on every exit path; without root, FUSE or the rig built, it
# skips (77), saying why. COMMAND's status is the script's.
T_SRCDIR=${T_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
FAULTFS=${FAULTFS:-$T_SRCDIR/faultfs}
. "$T_SRCDIR/lib.sh"
. "$T_SRCDIR/fault-lib.sh"

[ $# = 2 ] || fail "usage: rig.sh RULE COMMAND"
[ "$(id -u)" = 0 ] || skip "needs root (a FUSE mount other users may write)"
ff_setup
ff_cmd clear "$1"
RIG=$M
export RIG
sh -c "$2"
