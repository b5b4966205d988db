#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input: one line naming the value, exit 2, no crash, no file left.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

D="$WORK/d"
mkdir "$D"

# refused EXPECTED-WORD ARGS...: exit 2, exactly one line naming it.
refused() {
	word=$1
	shift
	expect_refused "$word" "$CLYDE" "$@"
	[ -s "$WORK/out" ] && fail "'$*': wrote to stdout: $(cat "$WORK/out")"
	assert_empty "$D"
}

refused "'12x'" -d "$D" -s 12x
refused "'1000': chunk must be a power of two" -d "$D" -s 1g:1000
refused "'-1'" -d "$D" -x -1
refused "'abc'" -d "$D" -r abc
refused "'-k'" -d "$D" -k
refused "'--bogus'" -d "$D" --bogus
refused "'/nonexistent/x': No such file or directory" -d /nonexistent/x -s 16m
touch "$WORK/file"
refused "not a directory" -d "$WORK/file" -s 16m
rm "$WORK/file"
refused "only .* free" -d "$D" -s 16t -r 0
refused "'1.5': not a whole number" -d "$D" -z 1.5
refused "--csv '9'" -d "$D" --csv=9
# --journal: on another filesystem than every -d, new, one worker on one
# target for one run; --until-killed only with it.
refused "^clyde: --journal '$WORK/j': on the filesystem of a -d" -d "$D" -s 16m --journal="$WORK/j"
refused "^clyde: --journal '/nonexistent/j': its directory is not there" -d "$D" --journal=/nonexistent/j
refused "^clyde: --journal '': expected the path of a journal file" -d "$D" --journal=
refused "^clyde: --until-killed needs --journal" -d "$D" --until-killed
[ -e "$WORK/j" ] && fail "--journal: a refused journal was made"
if [ -d /dev/shm ] && [ -w /dev/shm ] &&
	[ "$(stat -c %d /dev/shm)" != "$(stat -c %d "$D")" ]; then
	JD=$(mktemp -d /dev/shm/clyde-t.XXXXXX) || fail "mktemp in /dev/shm"
	at_exit rm -rf "$JD"
	touch "$JD/old"
	refused "^clyde: --journal '$JD/old': exists; a journal is never overwritten" -d "$D" --journal="$JD/old"
	refused "^clyde: --journal with -c: a journal follows one data file" -d "$D" -c 2 --journal="$JD/j"
	mkdir "$WORK/d2"
	refused "^clyde: --journal with several -d" -d "$D" -d "$WORK/d2" --journal="$JD/j"
	rmdir "$WORK/d2"
	refused "^clyde: --journal with -x" -d "$D" -x 2 --journal="$JD/j"
	refused "^clyde: --sync-size '6k': --journal writes whole 4 KiB blocks" -d "$D" --sync-size=6k --journal="$JD/j"
	[ "$(ls "$JD")" = old ] || fail "--journal: refused runs left $(ls "$JD")"
fi
refused "--only 'nope'" -d "$D" --only=nope
if [ "$(id -u)" = 0 ]; then
	refused "--drop-caches: only root" -d "$D" -s 16m --drop-caches -u 0:0 -g 0
else
	refused "--drop-caches: only root" -d "$D" -s 16m --drop-caches
fi

# A directory the user cannot write: as root, through -u nobody (a
# privilege drop comes before the scratch directory), and a read-only
# mount; as another user, mode 0555.
if [ "$(id -u)" = 0 ]; then
	if id nobody >/dev/null 2>&1; then
		chmod 0755 "$WORK" "$D"
		refused "cannot make a scratch directory: Permission denied" \
			-d "$D" -s 16m -r 0 -u nobody
	fi
	RO="$WORK/ro"
	mkdir "$RO"
	# (Named read-only before any room is counted: t/068.)
	if mount -t tmpfs -o ro,size=4m clyde-t-ro "$RO" 2>/dev/null; then
		at_exit umount_wait "$RO"
		expect_refused "^clyde: -d '$RO': Read-only file system$" "$CLYDE" -d "$RO" -s 0 -r 0
		umount "$RO"
	else
		echo "note: could not mount a read-only tmpfs; that case not run" >&2
	fi
	# ramfs takes no O_DIRECT: -D must be refused before any phase runs.
	RAM="$WORK/ramfs"
	mkdir "$RAM"
	if mount -t ramfs clyde-t-ramfs "$RAM" 2>/dev/null; then
		at_exit umount_wait "$RAM"
		expect_status 2 "$CLYDE" -d "$RAM" -s 16m -r 0 -D
		grep -q "^clyde: -D: '$RAM' does not take O_DIRECT" "$WORK/err" ||
			fail "-D on ramfs: $(cat "$WORK/err")"
		grep -q 'Writing' "$WORK/err" && fail "-D on ramfs: a phase ran"
		assert_empty "$RAM"
		umount "$RAM"
	fi
else
	chmod 0555 "$D"
	expect_status 2 "$CLYDE" -d "$D" -s 16m -r 0
	grep -q "cannot make a scratch directory: Permission denied" "$WORK/err" ||
		fail "read-only dir: $(cat "$WORK/err")"
	chmod 0755 "$D"
fi
assert_empty "$D"
exit 0
