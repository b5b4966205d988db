# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the shell tests: a private work directory removed on every
# exit path, and small assertions that say what they expected.
set -u

# The programs: as make check names them; else this tree's, clyde in its
# folder (src/clyde/clyde), the others in src/. Given CLYDE alone (an
# installed set), a script finds the others beside it.
if [ -z "${CLYDE:-}" ]; then
	t_top=$(cd "$(dirname "$0")/.." && pwd)
	CLYDE=$t_top/src/clyde/clyde
	CLYDE_REPORT=${CLYDE_REPORT:-$t_top/src/clyde-report}
	CLYDE_ZCAV=${CLYDE_ZCAV:-$t_top/src/clyde-zcav}
	CLYDE_SWEEP=${CLYDE_SWEEP:-$t_top/src/clyde-sweep}
	CLYDE_CURVE=${CLYDE_CURVE:-$t_top/src/clyde-curve}
	CLYDE_PGSCAN=${CLYDE_PGSCAN:-$t_top/src/clyde-pgscan}
fi
HELD=${HELD:-$(cd "$(dirname "$0")" && pwd)/held}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/clyde-t.XXXXXX") || exit 99
CLEANUPS=""

# Run "$@" at exit, newest first (mounts before the directories under them).
at_exit() {
	CLEANUPS="$*; $CLEANUPS"
}

# umount_wait DIR: unmount DIR, waiting while it is busy (up to 60 s),
# as it is while a loop device over a file in it lets go of that file,
# which a probe of the just freed device (udev's) can hold up; lazily
# at last, so that no mount is left behind. Nothing when not mounted.
umount_wait() {
	uw_i=0
	until umount "$1" 2>/dev/null; do
		mountpoint -q "$1" || return 0
		uw_i=$((uw_i + 1))
		[ $uw_i -lt 600 ] || { umount -l "$1"; return; }
		sleep 0.1
	done
}

finish() {
	status=$?
	eval "$CLEANUPS" >/dev/null 2>&1
	rm -rf "$WORK"
	exit $status
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# skip_build WHY: skip for what this build left out by a configure option
# (--with-mpi), not for a package or a privilege missing. Under
# CLYDE_NO_SKIPS=1 (CI) such a skip is the only kind t/skipped.sh lets
# pass; it knows it by the second line.
skip_build() {
	echo "SKIP: $*" >&2
	echo "SKIP-KIND: build" >&2
	exit 77
}

# assert_empty DIR: a run left nothing in DIR.
assert_empty() {
	left=$(find "$1" -mindepth 1 | head -5)
	[ -z "$left" ] || fail "left behind in $1: $left"
}

# files DIR: ls -A of DIR, as one line.
files() {
	(cd "$1" && ls -A | tr '\n' ' ')
}

# fields LINE: the number of comma-separated fields.
fields() {
	printf '%s\n' "$1" | awk -F, '{ print NF }'
}

# expect_status WANT CMD...: run CMD, capture out/err in $WORK.
expect_status() {
	want=$1
	shift
	"$@" >"$WORK/out" 2>"$WORK/err"
	got=$?
	[ "$got" = "$want" ] ||
		fail "'$*' exited $got, expected $want; stderr: $(cat "$WORK/err")"
}

# expect_one_line WANT_STATUS TEXT CMD...: CMD exits WANT_STATUS with
# one line on stderr that holds TEXT, and nothing on stdout.
expect_one_line() {
	eol_status=$1 eol_text=$2
	shift 2
	expect_status "$eol_status" "$@"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "'$*': not one line: $(cat "$WORK/err")"
	grep -qF -- "$eol_text" "$WORK/err" ||
		fail "'$*': expected '$eol_text': $(cat "$WORK/err")"
	[ -s "$WORK/out" ] && fail "'$*' wrote to stdout: $(head -3 "$WORK/out")"
	return 0
}

# expect_refused PATTERN CMD...: CMD exits 2 with exactly one line on
# stderr, and that line matches PATTERN (grep); out and err stay in $WORK.
expect_refused() {
	er_pat=$1
	shift
	expect_status 2 "$@"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "'$*': not one line: $(cat "$WORK/err")"
	grep -q -- "$er_pat" "$WORK/err" ||
		fail "'$*': expected '$er_pat' in: $(cat "$WORK/err")"
}

# wait_until LOOKS WHAT CMD...: back once CMD succeeds, tried every
# 0.05 s; after LOOKS tries, $pid (the run in the background) is killed
# and the test fails with "WHAT: " and the run's stderr.
wait_until() {
	wu_looks=$1 wu_what=$2 wu_i=0
	shift 2
	until "$@"; do
		wu_i=$((wu_i + 1))
		[ $wu_i -lt "$wu_looks" ] || { kill -9 $pid; fail "$wu_what: $(cat "$WORK/err")"; }
		sleep 0.05
	done
}

# in_file PATTERN FILE: FILE exists and has a line matching PATTERN.
in_file() {
	grep -q -- "$1" "$2" 2>/dev/null
}

# start_writing LOOKS DIR CLYDE-ARGS...: clyde -d DIR in the background
# ($pid; out and err in $WORK), back once block output is under way (a
# data file of over 64 KiB in DIR); the test fails, clyde killed, when
# it is not after LOOKS looks 0.05 s apart.
start_writing() {
	sw_looks=$1 sw_dir=$2
	shift 2
	"$CLYDE" -d "$sw_dir" "$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until "$sw_looks" "block output never started" data_written
}

# data_written: a data file of over 64 KiB in $sw_dir (start_writing).
data_written() {
	[ -n "$(find "$sw_dir" -name data -size +64k 2>/dev/null)" ]
}

# stop_expect VICTIM PATTERN WHAT: SIGSTOP VICTIM (a process of the
# run in the background as $pid), which must then end with exit 1 and a
# line of $WORK/err matching PATTERN (grep); WHAT names the case.
stop_expect() {
	kill -STOP "$1"
	wait $pid
	se_st=$?
	[ "$se_st" = 1 ] || fail "$3: exit $se_st: $(cat "$WORK/err")"
	grep -q "$2" "$WORK/err" || fail "$3: $(cat "$WORK/err")"
}

# term_after SECONDS CMD...: CMD in the background (out and err in
# $WORK), SIGTERM after SECONDS; its exit status in $st.
term_after() {
	ta_secs=$1
	shift
	"$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	sleep "$ta_secs"
	kill -TERM $pid
	wait $pid
	st=$?
}

# over_fsize BLOCKS CMD...: CMD under a file size limit of BLOCKS (1 KiB
# blocks, ulimit -f) with SIGXFSZ ignored, so that a write past it fails
# instead of killing CMD; stderr in $WORK/err, the exit status in
# $status.
over_fsize() {
	of_blocks=$1
	shift
	(
		trap '' XFSZ
		ulimit -f "$of_blocks"
		exec "$@"
	) 2>"$WORK/err"
	status=$?
}

# term_while_drawing CMD...: CMD (which draws with --plot) runs with a
# gnuplot that never finishes, and gets SIGTERM once gnuplot runs. It
# must end within 10 s with 143 and gnuplot killed, not waited for. Its
# stderr is left in $WORK/err.
term_while_drawing() {
	mkdir -p "$WORK/bin"
	printf '#!/bin/sh\ncat >/dev/null\nexec sleep 30\n' >"$WORK/bin/gnuplot"
	chmod +x "$WORK/bin/gnuplot"
	PATH="$WORK/bin:$PATH" "$@" >/dev/null 2>"$WORK/err" &
	tw_pid=$!
	tw_i=0
	until pgrep -x sleep -P $tw_pid >/dev/null 2>&1; do
		tw_i=$((tw_i + 1))
		[ $tw_i -lt 400 ] || fail "gnuplot never started: $(cat "$WORK/err")"
		sleep 0.05
	done
	tw_t0=$(date +%s)
	kill -s TERM $tw_pid
	wait $tw_pid
	tw_st=$?
	[ $(($(date +%s) - tw_t0)) -lt 10 ] ||
		fail "TERM while drawing waited for gnuplot to finish"
	[ $tw_st = 143 ] ||
		fail "TERM while drawing: exit $tw_st, expected 143: $(cat "$WORK/err")"
	pgrep -x sleep -P $tw_pid >/dev/null 2>&1 && fail "gnuplot still runs after TERM"
	:
}

# need_root WHAT TOOL...: skip unless root with every TOOL on PATH.
need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root ($1)"
	shift
	for nr_tool; do
		command -v "$nr_tool" >/dev/null 2>&1 || skip "$nr_tool not installed"
	done
}

# loop_attach VAR IMAGE [WHY]: a loop device over IMAGE, its name in
# $VAR, detached at exit; the test is skipped, saying WHY (else "no free
# loop device"), when there is none.
loop_attach() {
	la_dev=$(losetup -f --show "$2") || skip "${3:-no free loop device}"
	eval "$1=\$la_dev"
	at_exit losetup -d "$la_dev"
}

# need_blkio_iops: skip unless the blkio (v1) controller caps IOPS.
need_blkio_iops() {
	[ -w /sys/fs/cgroup/blkio/cgroup.procs ] &&
		[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ] ||
		skip "no blkio (v1) cgroup controller"
}

# iops_cgroup: a blkio cgroup of the test's own ($CG), removed at exit
# (and its caps with it), whose operations a second on $DEV (ext4_rig's)
# caps RIOPS WIOPS sets (0: none).
iops_cgroup() {
	CG=/sys/fs/cgroup/blkio/clyde-t.$$
	mkdir "$CG" || skip "cannot make a blkio cgroup"
	at_exit rmdir "$CG"
}
caps() {
	echo "$DEV $1" >"$CG/blkio.throttle.read_iops_device"
	echo "$DEV $2" >"$CG/blkio.throttle.write_iops_device"
}

# in_cgroup CMD...: CMD run in the cgroup $CG (iops_cgroup's).
in_cgroup() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" "$@"
}

# ext4_rig MB: an ext4 of MB MiB in an image file (in /dev/shm when it
# has room for twice that, else $WORK), on a loop device of its own,
# mounted on $WORK/mnt; sets IMG, MNT, LOOP and DEV (major:minor), and
# undoes it all at exit.
ext4_rig() {
	IMG_DIR=$WORK
	if [ -d /dev/shm ] && [ -w /dev/shm ] &&
		[ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt $(($1 * 2048)) ]; then
		IMG_DIR=$(mktemp -d /dev/shm/clyde-t.XXXXXX) || IMG_DIR=$WORK
		[ "$IMG_DIR" = "$WORK" ] || at_exit rm -rf "$IMG_DIR"
	fi
	IMG="$IMG_DIR/rig.img"
	MNT="$WORK/mnt"
	mkdir "$MNT"
	truncate -s "${1}M" "$IMG"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$IMG" || fail "mkfs.ext4"
	loop_attach LOOP "$IMG"
	mount "$LOOP" "$MNT" || fail "mount $LOOP"
	at_exit umount_wait "$MNT"
	DEV=$(cat "/sys/class/block/${LOOP#/dev/}/dev")
}

# loop_ext4 SIZE [MKFS-OPTION...]: an ext4 of SIZE on a loop device over
# $WORK/fs.img ($IMG, $LOOP), mounted at $WORK/mnt ($MNT); all undone at
# exit.
loop_ext4() {
	IMG="$WORK/fs.img"
	MNT="$WORK/mnt"
	mkdir "$MNT"
	truncate -s "$1" "$IMG"
	shift
	mkfs.ext4 -q -F "$@" "$IMG" || fail "mkfs.ext4"
	loop_attach LOOP "$IMG"
	mount "$LOOP" "$MNT" || fail "mount $LOOP"
	at_exit umount_wait "$MNT"
}

# refused_unchanged FILE PATTERN CMD...: CMD exits 2 with one line
# matching PATTERN, and FILE (a device or image) is unchanged.
refused_unchanged() {
	ru_file=$1 ru_pat=$2
	shift 2
	ru_sum=$(cksum <"$ru_file")
	expect_refused "$ru_pat" "$@"
	[ "$(cksum <"$ru_file")" = "$ru_sum" ] || fail "'$*' was refused but changed $ru_file"
}

# For figures measured on a rig shared with the rest of the machine (the
# tests with a blkio cap): a figure that misses is measured once more,
# and the test fails only when the same figure misses both times. Other
# load may put the rig off once; a program that reports a wrong figure
# is off every time. When the same figure missed twice and the machine
# was busy meanwhile (some task waited for a CPU over 5% of the time,
# /proc/pressure/cpu), up to two more tries are taken: a busy machine
# can keep a rig off for a while, a wrong figure stays wrong.
#   missed_figure WHAT GOT PCT WANT   note that WHAT was GOT, not
#                                     within PCT% of WANT
#   measure_again                     true when a figure of the run just
#                                     checked missed, to be measured
#                                     again: while measure_again; do
#                                     run and check again; done
#   judge_figures                     fail for a figure that missed
#                                     the last two tries; start afresh
missed_figure() {
	if [ "$T_SANITIZED" = 1 ]; then
		echo "$1: $2, not judged: a sanitized build measures its own cost" >&2
		return 0
	fi
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$WORK/missed"
}
# A sanitized build (CI's third part) runs several times slower, so that
# a figure of it is its own cost as much as the device's: its figures
# are said, not judged (the plain build's run of the same tests judges
# them).
T_SANITIZED=0
ldd "$CLYDE" 2>/dev/null | grep -q 'libasan\|libubsan' && T_SANITIZED=1

# psi_mark: now (ns) and the CPU's stall so far (us, /proc/pressure/cpu;
# 0 without PSI), for busy_since.
psi_mark() {
	pm_stall=$(sed -n 's/^some .*total=//p' /proc/pressure/cpu 2>/dev/null)
	echo "$(date +%s%N) ${pm_stall:-0}"
}

# busy_since MARK: the percentage of the time since MARK (psi_mark) in
# which some task waited for a CPU.
busy_since() {
	awk -v now="$(psi_mark)" -v m="$1" 'BEGIN {
		split(now, n, " "); split(m, a, " ")
		if (n[1] > a[1]) printf "%.0f", (n[2] - a[2]) * 1000 / (n[1] - a[1]) * 100
		else print 0
	}'
}

# cpu_busy: busy_since the last call (or since lib.sh was read).
cpu_busy() {
	busy_since "$cb_mark"
	cb_mark=$(psi_mark)
}
cb_mark=$(psi_mark)
ma_tries=0

# The figures that missed both in missed.1 and in missed, one line.
missed_twice() {
	[ -e "$WORK/missed.1" ] && [ -e "$WORK/missed" ] || return 0
	awk -F '\t' 'NR == FNR { first[$1] = $2; next }
		$1 in first { printf "%s%s: %s, then %s, not within %s%% of %s", sep, $1, first[$1], $2, $3, $4; sep = "; " }' \
		"$WORK/missed.1" "$WORK/missed"
}

measure_again() {
	ma_busy=$(cpu_busy)
	[ -s "$WORK/missed" ] || return 1
	ma_tries=$((ma_tries + 1))
	if [ $ma_tries -gt 1 ]; then
		ma_twice=$(missed_twice)
		[ -n "$ma_twice" ] && [ $ma_tries -lt 4 ] && [ "$ma_busy" -gt 5 ] ||
			return 1
		echo "missed twice, with the CPU busy $ma_busy% of the time: $ma_twice; once more" >&2
	else
		echo "missed: $(cut -f1 "$WORK/missed" | paste -sd,); once more" >&2
	fi
	mv "$WORK/missed" "$WORK/missed.1"
}

judge_figures() {
	twice=$(missed_twice)
	rm -f "$WORK/missed" "$WORK/missed.1"
	ma_tries=0
	[ -z "$twice" ] || fail "$twice"
}

# near WHAT GOT WANT PCT: GOT within PCT% of WANT, else noted as missed.
near() {
	echo "$1: $2 against $3 ($(awk -v g="$2" -v w="$3" 'BEGIN { printf "%+.2f%%", (g - w) / w * 100 }'))" >&2
	awk -v g="$2" -v w="$3" -v p="$4" 'BEGIN { d = (g - w) / w * 100; exit !(d <= p && d >= -p) }' ||
		missed_figure "$1" "$2" "$4" "$3"
}
