#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The guards on real block devices (root, loop devices of our own):
# clyde-zcav reads a whole device with O_RDONLY alone and covers every
# byte; a write is refused without --destroy-data, with a name for
# another device, on a mounted device (even with --force), on a device
# another process holds exclusively, on a device holding ext4 unless
# --force, and allowed on a blank device named twice. Every refusal is
# exit 2 and leaves the device as it was.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
SWEEP=${CLYDE_SWEEP:-$(dirname "$CLYDE")/clyde-sweep}
PATH=$PATH:/sbin:/usr/sbin

need_root "loop devices, mount" losetup mkfs.ext4 mount umount truncate

# Two blank devices of 200 MiB (the last 48 MiB block is partial: 8 MiB).
truncate -s 200M "$WORK/a.img" "$WORK/b.img"
loop_attach A "$WORK/a.img"
loop_attach B "$WORK/b.img" "no second loop device"

# Reading: the whole device, blocks at 0, 48, ... 192 MiB.
expect_status 0 "$ZCAV" -b 48 "$A"
awk '
/^#loops: 1, version: / || /^#block offset/ { next }
/^# Read 200 megs in [0-9]+ seconds, [0-9]+ megabytes per second\.$/ { sum++; next }
/^#?[0-9]+\.[0-9][0-9] / { sub(/^#/, ""); off[n++] = $1; next }
{ print "unexpected: " $0; exit 1 }
END {
	if (sum != 1 || n != 5) { print "summary " sum ", blocks " n; exit 1 }
	for (i = 0; i < n; i++)
		if (off[i] != sprintf("%.2f", i * 48 / 1024)) { print "offset " off[i]; exit 1 }
}' "$WORK/out" || fail "zcav over $A: $(cat "$WORK/out")"

# refused PATTERN CMD...: exit 2, one line matching, device unchanged.
refused() {
	refused_unchanged "$A" "$@"
}

refused "destroy-data=$A" "$ZCAV" -w -b 48 "$A"
refused "destroy-data=$A" "$SWEEP" -s 16m -B 1m "$A"
refused "names $B, not the target $A" "$ZCAV" -w -b 48 --destroy-data="$B" "$A"
refused "names $B, not the target $A" "$SWEEP" -s 16m -B 1m --destroy-data="$B" "$A"
refused "No such file" "$SWEEP" -s 16m -B 1m --destroy-data=/dev/clyde-no-such "$A"

# ext4 on A: refused unless --force, and the message says what is there.
# Made whole now (no lazy init), so the kernel does not write to it in
# the background while the checks below compare its checksum.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -L data "$A" ||
	fail "mkfs.ext4 $A"
refused "$A holds an ext4 filesystem labelled data" "$ZCAV" -w -b 48 --destroy-data="$A" "$A"
refused "$A holds an ext4 filesystem labelled data" "$SWEEP" -s 16m -B 1m --destroy-data="$A" "$A"

# Mounted: refused even with --force. Read-only, so the filesystem itself
# (its journal) cannot change the device under the checksum.
mkdir "$WORK/mnt"
mount -o ro "$A" "$WORK/mnt" || fail "mount $A"
at_exit umount_wait "$WORK/mnt"
refused "mounted ($A on $WORK/mnt)" "$ZCAV" -w -b 48 --force --destroy-data="$A" "$A"
refused "mounted ($A on $WORK/mnt)" "$SWEEP" -s 16m -B 1m --force --destroy-data="$A" "$A"
umount "$WORK/mnt" || fail "umount"
# Another test's clyde-sweep may have copied that mount into its own
# namespace meanwhile; it lets go when that run ends (see rig/held.c).
"$HELD" "$A" 300 || fail "$A still held 300 s after its umount"

# Held exclusively by another process (as a swap area or a device-mapper
# table would hold it): the kernel's O_EXCL refusal stops it.
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(60)' "$A" >"$WORK/held" &
	holder=$!
	at_exit kill $holder
	# Up to 20 s: python3 behind a version-manager shim on a busy
	# machine can take more than 2 s to start.
	i=0
	while [ ! -s "$WORK/held" ] && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.2
	done
	[ -s "$WORK/held" ] || fail "could not hold $A"
	refused "refused an exclusive open" "$ZCAV" -w -b 48 --force --destroy-data="$A" "$A"
	kill $holder
	wait $holder 2>/dev/null
fi

# With --force: written.
expect_status 0 "$ZCAV" -w -b 48 --force --destroy-data="$A" "$A"
grep -q '^# Wrote 200 megs' "$WORK/out" || fail "-w --force: $(cat "$WORK/out")"

# Blank (B never had anything): allowed with the matching flag alone.
expect_status 0 "$ZCAV" -w -b 48 --destroy-data="$B" "$B"
grep -q '^# Wrote 200 megs' "$WORK/out" || fail "-w on blank $B: $(cat "$WORK/out")"

# Sizes: past the end and bigger than the device are one line, exit 2.
refused "'201'.*past the end of $A" "$ZCAV" -r 201 "$A"
refused "-s '256m': $A holds 200M" "$SWEEP" -s 256m -B 1m --destroy-data="$A" "$A"
refused "not a directory or block device" "$SWEEP" -s 16m /dev/zero
exit 0
