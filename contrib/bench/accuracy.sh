#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# accuracy.sh: how close clyde, fio and bonnie++ come to a device whose
# speed is known, because it is set: a loop device on an image file, ext4
# on it, and a block-I/O cgroup throttling the loop device (cgroup v1
# blkio.throttle.*, else v2 io.max). Every tool runs inside that cgroup.
#
# A benchmark, not a test: it prints each tool's figure next to the cap
# and the error in percent, and never fails on a speed. Each figure is the
# median over the repeats. Within a repeat all tools run one after the
# other under the same caps, so drift in the machine's state spreads
# over all of them alike.
#
# Block output and input run under byte caps only; random reads run under
# a read-IOPS cap only, since with both the tighter one would decide and
# the figure would say nothing about the other.
#
# Root only. The image, the mount point and the tools' output live in one
# private directory; cgroup, mount, loop device and directory are undone
# on every way out.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-R MiB/s] [-W MiB/s] [-I IOPS] [-s SIZE] [-r N] [-C CLYDE] [-h]

Builds an ext4 file system on a loop device capped by a block-I/O cgroup
and measures, inside that cgroup, clyde's, fio's and bonnie++'s block
output, block input (O_DIRECT and buffered) and random reads against the
caps. Needs root, losetup, mkfs.ext4; fio (with jq) and bonnie++ are used
when installed.

  -R MiB/s   read cap for block input (default: 50)
  -W MiB/s   write cap for block output (default: 30)
  -I IOPS    read-IOPS cap for seeks and random reads (default: 250)
  -s SIZE    data size, as clyde's -s: bare number = MiB, k/m/g/t
             suffixes, a whole number of MiB (default: 640m)
  -r N       repeats; the median of each figure is shown (default: 3)
  -C CLYDE   the clyde binary (default: src/clyde/clyde in this source tree)
  -h         this text

The image (default 1600 MiB, more when SIZE needs it) is made in a
private directory under \$TMPDIR (else /tmp). A run of the defaults takes
about 15 minutes: each repeat moves a few GiB through the caps.
EOF
}

rmib=50
wmib=30
riops=250
size_arg=640m
repeats=3
clyde=

while getopts ':R:W:I:s:r:C:h' opt; do
	case $opt in
	R) rmib=$OPTARG ;;
	W) wmib=$OPTARG ;;
	I) riops=$OPTARG ;;
	s) size_arg=$OPTARG ;;
	r) repeats=$OPTARG ;;
	C) clyde=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"

((EUID == 0)) || die_usage "must run as root (loop device, mount, cgroup)"

whole_in -R "$rmib" 1 100000
whole_in -W "$wmib" 1 100000
whole_in -I "$riops" 1 10000000
whole_in -r "$repeats" 1 1000
rmib=$((10#$rmib))
wmib=$((10#$wmib))
riops=$((10#$riops))
repeats=$((10#$repeats))
size_mib "$size_arg" "640m, 1g, 2048"
size_mib=$((size / 1024 / 1024))

find_clyde
# Absolute, so that the commands printed at the end work from anywhere.
clyde=$(cd "$(dirname "$clyde")" && pwd -P)/${clyde##*/}

for tool in losetup mkfs.ext4 mount umount truncate; do
	command -v "$tool" >/dev/null || die "$tool: not found"
done
fio=$(command -v fio || true)
if [[ -n $fio ]] && ! command -v jq >/dev/null; then
	die "jq: not found, needed to read fio's JSON (apt-get install jq)"
fi
find_bonnie

# Seeks use a fixed 512 MiB file (as t/007), so the file system must hold
# it or the data file, whichever is larger, with ext4's overhead on top.
seek_mib=512
big_mib=$((size_mib > seek_mib ? size_mib : seek_mib))
img_mib=1600
((img_mib * 9 / 10 >= big_mib + 128)) || img_mib=$(((big_mib + 128) * 10 / 9 + 1))
tmp=${TMPDIR:-/tmp}
[[ -d $tmp && -w $tmp ]] || die_usage "'$tmp' (TMPDIR): not a writable directory"
avail=$(df_free "$tmp")
[[ $avail =~ ^[0-9]+$ ]] && ((avail < (img_mib + 64) * 1024 * 1024)) &&
	die "only $((avail / 1024 / 1024)) MiB free in '$tmp'; the image needs $img_mib MiB"

# Cleanup: children in the cgroup, caps, cgroup, mount, loop device and
# the private directory, newest first; each step forgets itself once done
# so a second call (signal, then EXIT) does nothing twice.

loop=
mounted=
cg=
cgv=
dev=

cg_procs() {
	[[ -n $cg && -r $cg/cgroup.procs ]] && cat "$cg/cgroup.procs" 2>/dev/null
	return 0
}

cleanup() {
	local pid i
	stop_child
	# A tool's own children (bonnie++'s seekers) may outlive it, and keep
	# the cgroup and the mount busy.
	for i in 1 2 3 4 5 6 7 8 9 10; do
		pid=$(cg_procs)
		[[ -n $pid ]] || break
		# shellcheck disable=SC2086
		if ((i < 6)); then kill -TERM $pid 2>/dev/null; else kill -KILL $pid 2>/dev/null; fi || true
		sleep 0.5
	done
	if [[ -n $cg ]]; then
		caps 0 0 0 2>/dev/null || true
		rmdir "$cg" 2>/dev/null || printf '%s: could not remove cgroup %s\n' "$prog" "$cg" >&2
		cg=
	fi
	if [[ -n $mounted ]]; then
		for i in 1 2 3 4 5; do
			umount "$mounted" 2>/dev/null && break
			sleep 1
		done
		if mountpoint -q "$mounted" 2>/dev/null; then
			printf '%s: could not unmount %s\n' "$prog" "$mounted" >&2
		else
			mounted=
		fi
	fi
	if [[ -n $loop && -z $mounted ]]; then
		losetup -d "$loop" 2>/dev/null || printf '%s: could not detach %s\n' "$prog" "$loop" >&2
		loop=
	fi
	[[ -n $mounted ]] || remove_work
}

# A stop ends the progress line first.
signal_eol=1
trap_cleanup
trap 'on_signal 129' HUP

work=$(mktemp -d "${tmp%/}/clyde-accuracy.XXXXXX")
img=$work/rig.img
mnt=$work/mnt
mkdir "$mnt"
truncate -s "${img_mib}M" "$img"
# Lazy init would write inode tables in the background during the runs.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" ||
	die "mkfs.ext4 failed"
loop=$(losetup -f --show "$img") || die "no free loop device"
mount "$loop" "$mnt" || die "cannot mount $loop"
mounted=$mnt
dev=$(cat "/sys/class/block/${loop#/dev/}/dev")

# cap_lines: the shell lines that set the current caps, for the report.
declare -a cap_lines=()

# caps WBPS RBPS RIOPS: bytes/s and reads/s on the loop device, 0 = none.
caps() {
	local v
	cap_lines=()
	if [[ $cgv == 1 ]]; then
		for v in "write_bps_device $1" "read_bps_device $2" "read_iops_device $3"; do
			echo "$dev ${v#* }" >"$cg/blkio.throttle.${v%% *}"
			cap_lines+=("echo '$dev ${v#* }' > $cg/blkio.throttle.${v%% *}")
		done
	else
		v="$dev wbps=$(nomax "$1") rbps=$(nomax "$2") riops=$(nomax "$3")"
		echo "$v" >"$cg/io.max"
		cap_lines+=("echo '$v' > $cg/io.max")
	fi
}
nomax() { if [[ $1 == 0 ]]; then echo max; else echo "$1"; fi; }

if [[ -w /sys/fs/cgroup/blkio/cgroup.procs ]] &&
	[[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]]; then
	cgv=1
	cg=/sys/fs/cgroup/blkio/clyde-accuracy.$$
	mkdir "$cg" || { cg= && die "cannot make a blkio cgroup"; }
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	cgv=2
	grep -qw io /sys/fs/cgroup/cgroup.subtree_control ||
		echo +io >/sys/fs/cgroup/cgroup.subtree_control ||
		die "cannot enable the io controller"
	cg=/sys/fs/cgroup/clyde-accuracy.$$
	mkdir "$cg" || { cg= && die "cannot make a cgroup"; }
else
	die "no blkio (cgroup v1) or io (cgroup v2) controller"
fi

wbps=$((wmib * 1024 * 1024))
rbps=$((rmib * 1024 * 1024))
caps "$wbps" "$rbps" 0
bytes_caps=("${cap_lines[@]}")
caps 0 0 "$riops"
iops_caps=("${cap_lines[@]}")
caps "$wbps" "$rbps" 0

# capped OUT ERR CMD...: CMD inside the cgroup, in the background so that
# INT/TERM are handled now rather than when a long run ends.
capped() {
	# shellcheck disable=SC2016
	run "$1" "$2" sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		sh "$cg" "${@:3}"
}
wrapper="sh -c 'echo \$\$ >\"\$1/cgroup.procs\" && shift && exec \"\$@\"' sh $cg"

# The page cache outside the tool's control (fio's reads, and the image's
# pages on the host side) must not answer a read test.
drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# A leftover file would shrink the room for the next tool, and means a
# tool did not clean up after itself.
assert_clean() {
	local left
	left=$(find "$mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | head -3)
	[[ -z $left ]] || die "$1 left behind: $left"
}

# csv_field FILE N: 1-based field N of the one 1.98 CSV line in FILE,
# a number or +++++.
csv_field() { csv_fields -d "$1" "$2"; }

# fio_fig FILE DDIR KEY: .jobs[0].DDIR.KEY of fio's JSON, bw_bytes in
# KiB/s (two decimals), iops as is.
fio_fig() {
	local v
	v=$(jq -er ".jobs[0].$2.$3" "$1") || return 1
	[[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] || return 1
	if [[ $3 == bw_bytes ]]; then
		awk -v b="$v" 'BEGIN { printf "%.2f\n", b / 1024 }'
	else
		awk -v b="$v" 'BEGIN { printf "%.2f\n", b }'
	fi
}

declare -A vals=()

out=$work/out
err=$work/err

# Commands, built once so the report shows exactly what ran.
clyde_block=("$clyde" -d "$mnt" -r 0 -q -n 0 -f -s "$size_arg:1m"
	"--only=put_block,get_block")
clyde_seeks=("$clyde" -d "$mnt" -r 0 -q -n 0 -f -s 512m:4k:2500:5 --only=seeks)
fio_data=$mnt/fio.data
fio_common=(--filename="$fio_data" --bs=1m --size="${size_mib}m"
	--ioengine=psync --numjobs=1 --output-format=json --output="$out")
fio_wd=("$fio" --name=seqwrite --rw=write --direct=1 "${fio_common[@]}")
fio_rd=("$fio" --name=seqread --rw=read --direct=1 --invalidate=1 "${fio_common[@]}")
fio_wb=("$fio" --name=seqwrite --rw=write --direct=0 --end_fsync=1 "${fio_common[@]}")
fio_rb=("$fio" --name=seqread --rw=read --direct=0 --invalidate=1 "${fio_common[@]}")
fio_rand=("$fio" --name=randread --rw=randread --direct=1 --bs=4k
	--filename="$fio_data" --size="${seek_mib}m" --number_ios=2500
	--ioengine=psync --numjobs=1 --output-format=json --output="$out")
bonnie_d=("$bonnie" -d "$mnt" -s "$size_mib:1048576" -r 0 -n 0 -f -q -u root -D)
bonnie_b=("$bonnie" -d "$mnt" -s "$size_mib:1048576" -r 0 -n 0 -f -q -u root)

# run_clyde KEY ARGS...: clyde's block figures, or its seeks with --only=seeks.
run_clyde() {
	local key=$1 v
	shift
	capped "$out" "$err" "$@" || { show_err "$err"; die "clyde failed: $*"; }
	assert_clean clyde
	if [[ " $* " == *" --only=seeks "* ]]; then
		v=$(csv_field "$out" 20) || die "clyde: no seeks figure in: $(cat "$out")"
		add "clyde.$key.seeks" "$v"
	else
		v=$(csv_field "$out" 12) || die "clyde: no put_block figure in: $(cat "$out")"
		add "clyde.$key.write" "$v"
		v=$(csv_field "$out" 18) || die "clyde: no get_block figure in: $(cat "$out")"
		add "clyde.$key.read" "$v"
	fi
}

# run_fio KEY FIGURE DDIR FIELD CMD...
run_fio() {
	local key=$1 fig=$2 ddir=$3 field=$4 v
	shift 4
	capped "$work/fio.stdout" "$err" "$@" || {
		show_err "$work/fio.stdout"
		show_err "$err"
		die "fio failed: $*"
	}
	v=$(fio_fig "$out" "$ddir" "$field") || die "fio: no $ddir.$field in its JSON"
	add "fio.$key.$fig" "$v"
}

# run_bonnie KEY CMD...
run_bonnie() {
	local key=$1 v
	shift
	capped "$out" "$err" "$@" || { show_err "$err"; die "bonnie++ failed: $*"; }
	assert_clean bonnie++
	v=$(csv_field "$out" 12) || die "bonnie++: no put_block figure in: $(cat "$out")"
	add "bonnie.$key.write" "$v"
	v=$(csv_field "$out" 18) || die "bonnie++: no get_block figure in: $(cat "$out")"
	add "bonnie.$key.read" "$v"
	v=$(csv_field "$out" 20) || v=-
	add "bonnie.$key.seeks_bytecap" "$v"
}

runs_begin
printf '%s: ext4 on %s (%d MiB image in %s), cgroup v%s %s\n' \
	"$prog" "$loop" "$img_mib" "$work" "$cgv" "$cg" >&2
printf '%s: caps write %d MiB/s, read %d MiB/s, read %d IOPS; -s %s; %d repeat(s); load %s\n' \
	"$prog" "$wmib" "$rmib" "$riops" "$size_arg" "$repeats" "$load1" >&2

for ((i = 1; i <= repeats; i++)); do
	printf '  repeat %d/%d: clyde -D' "$i" "$repeats" >&2
	caps "$wbps" "$rbps" 0
	run_clyde direct "${clyde_block[@]}" -D
	printf ', clyde' >&2
	run_clyde buffered "${clyde_block[@]}"

	if [[ -n $fio ]]; then
		printf ', fio direct' >&2
		run_fio direct write write bw_bytes "${fio_wd[@]}"
		drop_caches
		run_fio direct read read bw_bytes "${fio_rd[@]}"
		rm -f -- "$fio_data"
		printf ', fio buffered' >&2
		run_fio buffered write write bw_bytes "${fio_wb[@]}"
		drop_caches
		run_fio buffered read read bw_bytes "${fio_rb[@]}"
		rm -f -- "$fio_data"
		assert_clean fio
	fi

	if [[ -n $bonnie ]]; then
		printf ', bonnie++ -D' >&2
		run_bonnie direct "${bonnie_d[@]}"
		printf ', bonnie++' >&2
		run_bonnie buffered "${bonnie_b[@]}"
	fi

	caps 0 0 "$riops"
	printf ', seeks: clyde -D' >&2
	run_clyde direct "${clyde_seeks[@]}" -D
	printf ', clyde' >&2
	run_clyde buffered "${clyde_seeks[@]}"
	if [[ -n $fio ]]; then
		printf ', fio' >&2
		run_fio direct seeks read iops "${fio_rand[@]}"
		rm -f -- "$fio_data"
		assert_clean fio
	fi
	caps "$wbps" "$rbps" 0
	echo >&2
done
runs_end

# med_of KEY: the median of KEY's figures, two decimals, or +++++ when
# it touches one; - when there are none.
med_of() {
	local -a list
	[[ -n ${vals[$1]:-} ]] || { echo -; return; }
	read -ra list <<<"${vals[$1]}"
	printf '%s\n' "${list[@]}" | awk "$median_awk"'
		END {
			middle()
			if (lo == -1 || hi == -1)
				print "+++++"
			else
				printf "%.2f\n", (lo + hi) / 2
		}'
}

row_fmt='%-9s %-9s %-18s %15s %10s %9s\n'

# row TOOL MODE FIGURE KEY CAP: one line of the table.
row() {
	local m e
	m=$(med_of "$4")
	case $m in
	-) e=- m="not run" ;;
	+++++) e=- m="not measurable" ;;
	*) e=$(awk -v g="$m" -v w="$5" 'BEGIN { printf "%+.2f", (g - w) / w * 100 }') ;;
	esac
	# shellcheck disable=SC2059
	printf "$row_fmt" "$1" "$2" "$3" "$m" "$5" "$e"
}

wcap=$((wmib * 1024))
rcap=$((rmib * 1024))

printf '\n'
# shellcheck disable=SC2059
printf "$row_fmt" tool mode figure measured cap "error %"
for mode in direct buffered; do
	label=$mode
	[[ $mode == direct ]] && label=O_DIRECT
	row clyde "$label" "block write KiB/s" "clyde.$mode.write" "$wcap"
	row clyde "$label" "block read KiB/s" "clyde.$mode.read" "$rcap"
	row clyde "$label" "seeks /s" "clyde.$mode.seeks" "$riops"
done
if [[ -n $fio ]]; then
	for mode in direct buffered; do
		label=$mode
		[[ $mode == direct ]] && label=O_DIRECT
		row fio "$label" "seq write KiB/s" "fio.$mode.write" "$wcap"
		row fio "$label" "seq read KiB/s" "fio.$mode.read" "$rcap"
	done
	row fio O_DIRECT "rand 4k read IOPS" fio.direct.seeks "$riops"
fi
if [[ -n $bonnie ]]; then
	for mode in direct buffered; do
		label=$mode
		[[ $mode == direct ]] && label=O_DIRECT
		row bonnie++ "$label" "block write KiB/s" "bonnie.$mode.write" "$wcap"
		row bonnie++ "$label" "block read KiB/s" "bonnie.$mode.read" "$rcap"
		# shellcheck disable=SC2059
		printf "$row_fmt" bonnie++ "$label" "seeks /s" n/a "$riops" -
	done
fi

printf '\nmedian of %d; per repeat:\n' "$repeats"
for key in $(printf '%s\n' "${!vals[@]}" | sort); do
	printf '  %-30s %s\n' "$key" "${vals[$key]}"
done

printf '\nnotes:\n'
printf '  caps: block figures under write %d MiB/s and read %d MiB/s only;\n' "$wmib" "$rmib"
printf '  seeks and random reads under %d read IOPS only.\n' "$riops"
printf '  error %% = (measured - cap) / cap * 100. "not measurable": +++++,\n'
printf '  the test took under 0.5 s, so the tool gave no rate.\n'
# Biases of the rig itself, so that a figure a little off the cap is not
# taken for a tool's fault; sizes from the commands below.
printf '  The throttle lets about one slice (~100 ms) of I/O through at once\n'
printf '  when a run starts: block input of %d MiB up to %s%% fast, 2500\n' \
	"$size_mib" "$(awk -v m="$size_mib" -v r="$rmib" 'BEGIN { printf "+%.2f", r * 0.1 / m * 100 }')"
printf '  random reads up to %s%% (fio shows it too); a larger -s shrinks it.\n' \
	"$(awk -v i="$riops" 'BEGIN { printf "+%.2f", i * 0.1 / 2500 * 100 }')"
printf '  Buffered seeks also pick chunks at random with repeats: of 2500 in\n'
printf '  a %d MiB file about %d land on a chunk read before, which the page\n' \
	"$seek_mib" $((2500 * 2500 / (2 * seek_mib * 256)))
printf '  cache answers (-D goes to the device every time).\n'
printf '  buffered reads: clyde evicts its file from the page cache itself;\n'
printf '  fio reads after sync + drop_caches and with invalidate=1.\n'
printf '  fio buffered write: its write() calls fill the page cache while the\n'
printf '  device idles; only end_fsync sends the data, so it reads low.\n'
if [[ -n $bonnie ]]; then
	printf '  bonnie++ 2.00a opens with O_DIRECT (-D) only when it creates the\n'
	printf '  file; rewrite, block input and seeks reopen it without, and it\n'
	printf '  never evicts it, so its block input reads RAM in both modes.\n'
	printf '  bonnie++ seeks n/a: they too read a file its block input left in\n'
	printf '  the page cache, so no cap applies (it has no way to run them\n'
	printf '  alone either); they ran under the byte caps, shown per repeat as\n'
	printf '  bonnie.*.seeks_bytecap, not comparable with the IOPS cap.\n'
else
	printf '  bonnie++ not installed: its rows skipped.\n'
fi
[[ -n $fio ]] || printf '  fio not installed: its rows skipped.\n'
printf '  load average (1 min) at start %s, at end %s (%d CPUs).\n' \
	"$load1" "$load2" "$(nproc 2>/dev/null || echo 0)"
changed_note

printf '\ncommands (%s is a private directory, removed at exit;\n' "$work"
printf 'each tool ran as: %s TOOL ARGS...):\n' "$wrapper"
printf '  truncate -s %dM %s\n' "$img_mib" "$img"
printf '  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 %s\n' "$img"
printf '  losetup -f --show %s   # %s, device %s\n' "$img" "$loop" "$dev"
printf '  mount %s %s\n' "$loop" "$mnt"
printf '  mkdir %s\n' "$cg"
printf ' byte caps:\n'
printf '  %s\n' "${bytes_caps[@]}"
printf '  %s\n' "$(quote "${clyde_block[@]}" -D)"
printf '  %s\n' "$(quote "${clyde_block[@]}")"
if [[ -n $fio ]]; then
	printf '  %s\n' "$(quote "${fio_wd[@]}")"
	printf '  sync; echo 3 > /proc/sys/vm/drop_caches\n'
	printf '  %s\n' "$(quote "${fio_rd[@]}")"
	printf '  %s\n' "$(quote "${fio_wb[@]}")"
	printf '  sync; echo 3 > /proc/sys/vm/drop_caches\n'
	printf '  %s\n' "$(quote "${fio_rb[@]}")"
fi
if [[ -n $bonnie ]]; then
	printf '  %s\n' "$(quote "${bonnie_d[@]}")"
	printf '  %s\n' "$(quote "${bonnie_b[@]}")"
fi
printf ' IOPS cap:\n'
printf '  %s\n' "${iops_caps[@]}"
printf '  %s\n' "$(quote "${clyde_seeks[@]}" -D)"
printf '  %s\n' "$(quote "${clyde_seeks[@]}")"
[[ -z $fio ]] || printf '  %s\n' "$(quote "${fio_rand[@]}")"
