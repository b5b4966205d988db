#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An I/O error in each of clyde's data-file tests in turn (per-char
# output, block output, rewrite, per-char input, block input, random
# seeks, synchronous write; per-char stdio and syscall, and -D), injected
# by the fault rig at a fixed offset or call: clyde exits 1 with one line
# naming the test, the call, the file and the real error, prints no CSV
# line and leaves nothing behind. With the rig's --cache, a read fault
# fires only because clyde's eviction reached the filesystem.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
. "${T_SRCDIR:-$(dirname "$0")}/fault-lib.sh"

ff_setup

# expect_fault TITLE CALL ERROR RULE CLYDE-ARGS...: ff_expect_clyde on a
# file anywhere in the scratch directory.
expect_fault() {
	ff_expect_clyde '' "$@"
}

# stdio per-char unless a case asks for syscall (a later --per-char wins):
# the default's 1-byte calls over the whole 8 MiB would be a FUSE request
# each. bonnie++'s 8192 seeks, given: the write fault fires after 1024
# of them.
D="-s 8m::8192 -n 0 --per-char=stdio"
# Nothing but the tested phase reads (the untimed preparation of the
# data file only writes), so a read fault at 4 MiB hits that phase.
expect_fault 'per-char output' write "$EIO" 'fail write EIO off=4m' $D --only=putc
expect_fault 'per-char output' write "$EIO" 'fail write EIO off=8k' $D --only=putc \
	--per-char=syscall -f 16k
expect_fault 'block output' write "$EIO" 'fail write EIO off=4m' $D --only=put_block
expect_fault 'block output' write 'No space left on device' \
	'fail write ENOSPC off=4m' $D --only=put_block
expect_fault 'block output' fsync "$EIO" 'fail fsync EIO' $D --only=put_block
expect_fault rewrite read "$EIO" 'fail read EIO off=4m' $D --only=rewrite
# The preparation writes 4 MiB once, rewrite a second time.
expect_fault rewrite write "$EIO" 'fail write EIO off=4m after=1' $D --only=rewrite
expect_fault 'per-char input' read "$EIO" 'fail read EIO off=4m' $D --only=getc
expect_fault 'per-char input' read "$EIO" 'fail read EIO off=8k' $D --only=getc \
	--per-char=syscall -f 16k
expect_fault 'block input' read "$EIO" 'fail read EIO off=4m' $D --only=get_block
expect_fault 'random seeks' read "$EIO" 'fail read EIO' $D --only=seeks
# The preparation makes 1024 writes of 8 KiB; then one seek in ten writes.
expect_fault 'random seeks' write "$EIO" 'fail write EIO after=1024' $D --only=seeks
# sync_write's file: made, written whole and fsynced first (untimed), so
# its first fsync is the preparation's and the second the test's own.
expect_fault 'synchronous write' fdatasync "$EIO" \
	'fail fsync EIO path=*/sync_write after=1' $D --only=sync_write
expect_fault 'synchronous write' fsync "$EIO" \
	'fail fsync EIO path=*/sync_write after=1' $D --only=sync_write --sync-method=fsync
expect_fault 'synchronous write' write "$EIO" \
	'fail write EIO path=*/sync_write off=0 after=1' $D --only=sync_write -D --sync-method=dsync
# O_DIRECT (the -D probe passes through the rig).
expect_fault 'block output' write "$EIO" 'fail write EIO off=4m' $D -D --only=put_block
expect_fault rewrite read "$EIO" 'fail read EIO off=4m' $D -D --only=rewrite
expect_fault 'block input' read "$EIO" 'fail read EIO off=4m' $D -D --only=get_block
expect_fault 'random seeks' read "$EIO" 'fail read EIO' $D -D --only=seeks
# A whole run: rewrite and per-char input read 4 MiB first, block
# input third.
expect_fault 'block input' read "$EIO" 'fail read EIO off=4m after=2' $D

# --cache: the written data stays cached until clyde evicts it, so the
# fault fires only if clyde's POSIX_FADV_DONTNEED reached the rig; and
# clyde's own check (mincore) finds nothing left.
ff_umount
ff_mount "$B" "$M" --cache
expect_fault 'block input' read "$EIO" 'fail read EIO off=4m' $D --only=get_block
expect_fault 'per-char input' read "$EIO" 'fail read EIO off=4m' $D --only=getc
if command -v jq >/dev/null 2>&1; then
	ff_cmd clear
	"$CLYDE" -d "$M" -r 0 -q $D --only=get_block,getc --json="$WORK/r.json" \
		>/dev/null 2>"$WORK/err" || fail "--cache run: $(cat "$WORK/err")"
	[ "$(jq '.runs[0].cache_left' "$WORK/r.json")" = 0 ] ||
		fail "--cache: cache_left $(jq '.runs[0].cache_left' "$WORK/r.json")"
	assert_empty "$B"
fi
exit 0
