#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Refusals of --journal and --verify-only before the first test, each one
# line, exit 2: a second, other --journal (as -z's second value); a
# journal that cannot be made (ENOENT under /proc, EACCES under /sys,
# ENOSPC on a full tmpfs), with nothing left behind; and -u with
# --verify-only, which reads as that user (a root-only kept file is then
# refused, not checked as root).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

need_root "a tmpfs mount and -u" mount umount dd
id nobody >/dev/null 2>&1 || skip "no user nobody"

mkdir "$WORK/d"
run() {
	"$CLYDE" -d "$WORK/d" -s 16m -r 0 -n 0 -f --only=ran_write \
		--ran-time=1 -z 3 "$@"
}

expect_refused "--journal '$WORK/b': given twice with different values ('$WORK/a' first)" \
	run --journal="$WORK/a" --journal="$WORK/b"
[ -e "$WORK/a" ] || [ -e "$WORK/b" ] && fail "a refused --journal was made"

# Past the option checks, after the setup lines: the refusal is the last.
made() {
	m_want=$1
	shift
	expect_status 2 run -q "$@"
	[ "$(grep -c 'clyde: --journal' "$WORK/err")" = 1 ] ||
		fail "$*: not one --journal line: $(cat "$WORK/err")"
	grep -q -- "$m_want" "$WORK/err" || fail "$*: expected '$m_want': $(cat "$WORK/err")"
	assert_empty "$WORK/d"
}
made "'/proc/self/jj': No such file or directory" --journal=/proc/self/jj
made "'/sys/kernel/jj': Permission denied" --journal=/sys/kernel/jj

mkdir "$WORK/full"
mount -t tmpfs -o size=1m tmpfs "$WORK/full" || skip "no tmpfs mount"
at_exit umount_wait "$WORK/full"
dd if=/dev/zero of="$WORK/full/fill" bs=64k 2>/dev/null
made "'$WORK/full/j': No space left on device" --journal="$WORK/full/j"
[ -e "$WORK/full/j" ] && fail "the journal that could not be made is left"

# -u with --verify-only: the check opens the file as nobody.
expect_status 0 run -q --keep --verify
chmod 600 "$WORK/d/clyde-kept.3"
expect_status 0 "$CLYDE" --verify-only="$WORK/d/clyde-kept.3"
expect_refused "--verify-only '$WORK/d/clyde-kept.3': Permission denied" \
	"$CLYDE" -u nobody --verify-only="$WORK/d/clyde-kept.3"
exit 0
