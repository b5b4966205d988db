# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2154,SC2034
# Helpers shared by the scripts in contrib/bench; sourced, not run. The
# caller sets clyde (the binary, or empty for this tree's) and, for add
# and cell, the associative arrays vals and med; several helpers set
# variables for the caller (size, bonnie, load1 ...), as each one says.
#
# Sourcing it also sets what every script here wants: errors stop the
# script, and awk's number formatting and the tools' summary lines (dd's
# "1,5 s", fio's JSON, the CSV) do not follow the user's locale.

set -euo pipefail
export LC_ALL=C

# The script's name, for messages.
prog=${0##*/}

die_usage() {
	printf '%s: %s\n' "$prog" "$1" >&2
	exit 2
}

die() {
	printf '%s: %s\n' "$prog" "$1" >&2
	exit 1
}

# opt_other OPT: getopts' -h, a value missing (:) and an unknown option,
# after the script's own options: `*) opt_other "$opt" ;;`.
opt_other() {
	case $1 in
	h)
		usage
		exit 0
		;;
	:) die_usage "-$OPTARG needs a value (try -h)" ;;
	*) die_usage "-$OPTARG: unknown option (try -h)" ;;
	esac
}

# no_operands "${@:OPTIND}": the script takes no arguments after its
# options.
no_operands() {
	[[ $# -eq 0 ]] || die_usage "unexpected argument '$1' (try -h)"
}

# whole_in NAME VALUE MIN MAX [DIGITS]: VALUE as a plain decimal of at
# most DIGITS (9) digits in [MIN, MAX].
whole_in() {
	if ! [[ $2 =~ ^[0-9]{1,${5:-9}}$ ]] || ((10#$2 < $3 || 10#$2 > $4)); then
		die_usage "$1 '$2': must be a whole number from $3 to $4"
	fi
}

# to_bytes STRING PLAIN_UNIT: clyde's size syntax (units_parse_size),
# including decimals such as 1.5g; prints bytes or fails.
to_bytes() {
	local s=$1 plain=$2 whole frac suffix mult num den
	# Six decimals at most keep digits * 2^40 inside bash's 64 bits.
	[[ $s =~ ^([0-9]*)(\.([0-9]{0,6}))?([kKmMgGtTbB]([iI]?[bB])?)?$ ]] ||
		return 1
	whole=${BASH_REMATCH[1]}
	frac=${BASH_REMATCH[3]}
	suffix=${BASH_REMATCH[4]}
	[[ -n $whole || -n $frac ]] || return 1
	case ${suffix:0:1} in
	'') mult=$plain ;;
	[bB]) [[ ${#suffix} -eq 1 ]] || return 1; mult=1 ;;
	[kK]) mult=1024 ;;
	[mM]) mult=$((1024 ** 2)) ;;
	[gG]) mult=$((1024 ** 3)) ;;
	[tT]) mult=$((1024 ** 4)) ;;
	*) return 1 ;;
	esac
	# Leading zeros would make bash read the digits as octal.
	[[ ${#whole} -le 18 ]] || return 1
	whole=$((10#${whole:-0}))
	((whole <= (1 << 62) / mult)) || return 1
	num=0
	den=1
	if [[ -n $frac ]]; then
		num=$((10#$frac))
		den=$((10 ** ${#frac}))
	fi
	(((num * mult) % den == 0)) || return 1
	printf '%d\n' $((whole * mult + num * mult / den))
}

# size_mib ARG EXAMPLES: -s ARG as clyde's -s takes it (a bare number is
# MiB) into size, in bytes: a whole, non-zero number of MiB, or refused
# with EXAMPLES of sizes that are.
size_mib() {
	size=$(to_bytes "$1" $((1024 * 1024))) ||
		die_usage "-s '$1': not a size (e.g. $2)"
	((size > 0 && size % (1024 * 1024) == 0)) ||
		die_usage "-s '$1': must be a whole, non-zero number of MiB"
}

# writable_dir DIR: -d DIR is a directory the script can write in.
writable_dir() {
	[[ -d $1 ]] || die_usage "-d '$1': not a directory"
	[[ -w $1 ]] || die_usage "-d '$1': not writable"
}

# df_free DIR: the bytes free in DIR's filesystem.
df_free() { df -P -B1 -- "$1" | awk 'NR == 2 { print $4 }'; }

# pin_cpu CPU: the array pin, the command prefix that runs a command on
# CPU alone (taskset), or empty for "none"; a CPU this machine lacks, or
# no taskset, is a usage error.
pin_cpu() {
	pin=()
	[[ $1 == none ]] && return
	[[ $1 =~ ^[0-9]+$ && $1 -lt $(nproc) ]] ||
		die_usage "-P '$1': not a CPU of this machine (0 to $(($(nproc) - 1)), or none)"
	command -v taskset >/dev/null || die_usage "-P needs taskset (util-linux), or -P none"
	pin=(taskset -c "$1")
}

# find_clyde: clyde as -C gave it, else src/clyde/clyde of this source tree,
# which must be built; either way an executable.
find_clyde() {
	local root
	if [[ -z $clyde ]]; then
		root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
		clyde=$root/src/clyde/clyde
		[[ -x $clyde ]] ||
			die_usage "$clyde: not built (run make in $root, or give -C)"
	fi
	[[ -f $clyde && -x $clyde ]] || die_usage "-C '$clyde': not an executable"
}

# need_jq: jq on PATH, else a usage error.
need_jq() {
	command -v jq >/dev/null || die_usage "needs jq (apt-get install jq)"
}

# pinned_opt LETTER: an option every pinned benchmark takes (-d DIR,
# -s SIZE, -r RUNS, -C CLYDE, -P CPU) into its variable, from $OPTARG;
# 1 for another letter.
pinned_opt() {
	case $1 in
	d) dir=$OPTARG ;;
	s) size=$OPTARG ;;
	r) runs=$OPTARG ;;
	C) clyde=$OPTARG ;;
	P) cpu=$OPTARG ;;
	*) return 1 ;;
	esac
}

# pinned_bench NAME: the checks of a benchmark that runs clyde -r times,
# pinned to -P's CPU, in -d's directory ($dir, $runs, $clyde, $cpu as
# its options left them), then $work, its folder there (clyde-NAME.*).
pinned_bench() {
	writable_dir "$dir"
	whole_in -r "$runs" 1 99
	find_clyde
	pin_cpu "$cpu"
	need_jq
	work=$(mktemp -d "$dir/clyde-$1.XXXXXX")
}

# find_bonnie: bonnie++ on PATH or in /usr/sbin, else empty; and
# bonnie_user, the -u it needs to run as root.
find_bonnie() {
	bonnie=$(command -v bonnie++ || true)
	[[ -n $bonnie ]] || [[ ! -x /usr/sbin/bonnie++ ]] || bonnie=/usr/sbin/bonnie++
	bonnie_user=()
	((EUID != 0)) || bonnie_user=(-u root)
}

# Cleanup: one private directory (work), and whatever child run started.
# A script with more to undo defines its own cleanup after sourcing this,
# and calls stop_child and remove_work from it.

work=
child=
# Set while the child is /usr/bin/time: it dies of SIGTERM at once and
# leaves its command running, so that is stopped first and time then
# exits by itself.
child_timed=

stop_child() {
	if [[ -n $child ]]; then
		if [[ -n $child_timed ]]; then
			pkill -TERM -P "$child" 2>/dev/null || true
		else
			kill -TERM "$child" 2>/dev/null || true
		fi
		# Wait, so that rm does not race the child's own cleanup.
		wait "$child" 2>/dev/null || true
		child=
	fi
}

remove_work() {
	if [[ -n $work ]]; then
		rm -rf -- "$work"
		work=
	fi
}

cleanup() {
	stop_child
	remove_work
}

# The fault rig of the tests (t/faultfs), single-threaded: one server
# whose every read a rule can delay. rig_start NAME mounts it on $work/m
# over $work/b ($work a new directory clyde-NAME.XXXXXX in $dir) and
# makes $work/m/d; cleanup then unmounts it and stops it too.
rig=
rig_stop() {
	if [[ -n $rig ]]; then
		fusermount3 -u "$work/m" 2>/dev/null || fusermount3 -u -z "$work/m" 2>/dev/null || true
		kill "$rig" 2>/dev/null || true
		wait "$rig" 2>/dev/null || true
		rig=
	fi
}

# capped_loop NAME MB: ext4 on a loop device over an image of MB MiB in
# $work, mounted on $mnt, with the blkio cgroup $cg capping its writes at
# 1000 a second; all undone by cleanup. capped CMD... runs CMD in $cg.
capped_loop() {
	img=$work/img mnt=$work/mnt cg=/sys/fs/cgroup/blkio/clyde-$1.$$
	truncate -s "$2M" "$img"
	mkfs.ext4 -q -F "$img" || die "mkfs.ext4 failed"
	mkdir "$mnt"
	loop=$(losetup -f --show "$img") || die "no free loop device"
	cleanup() {
		stop_child
		umount "$mnt" 2>/dev/null || true
		losetup -d "$loop" 2>/dev/null || true
		rmdir "$cg" 2>/dev/null || true
		remove_work
	}
	mount "$loop" "$mnt" || die "cannot mount $loop"
	mkdir "$cg"
	echo "$(cat "/sys/class/block/${loop#/dev/}/dev") 1000" >"$cg/blkio.throttle.write_iops_device"
}
capped() {
	run_or_die "capped clyde" sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"
}

# rig_bench NAME RUNS ARG...: the options of a benchmark on the fault
# rig (-n RUNS, default RUNS; -d DIR, default /var/tmp; -C CLYDE; -h),
# into $runs, $dir and $clyde, checked; then the rig started (rig_start
# NAME) and $ctl its control file.
rig_bench() {
	local name=$1 opt OPTIND=1
	rig_bench_runs=$2
	runs=$2 dir=/var/tmp clyde=
	shift 2
	usage() {
		cat <<EOF
usage: $prog [-n RUNS] [-d DIR] [-C CLYDE]
  -n RUNS   runs of each kind (default $rig_bench_runs)
  -d DIR    where the rig's backing directory and mount go (default /var/tmp)
  -C CLYDE  the clyde binary (default: this tree's src/clyde/clyde)
EOF
	}
	while getopts n:d:C:h opt; do
		case $opt in
		n) runs=$OPTARG ;;
		d) dir=$OPTARG ;;
		C) clyde=$OPTARG ;;
		*) opt_other "$opt" ;;
		esac
	done
	no_operands "${@:OPTIND}"
	whole_in -n "$runs" 1 1000
	writable_dir "$dir"
	find_clyde
	need_jq
	rig_start "$name"
	ctl=$work/m/.faultfs
}

rig_start() {
	local faultfs i
	faultfs=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../t" && pwd -P)/faultfs
	[[ -x $faultfs ]] || die_usage "$faultfs: not built (run make check, or make -C t faultfs)"
	command -v fusermount3 >/dev/null || die_usage "needs fusermount3 (apt-get install fuse3)"
	work=$(mktemp -d "$dir/clyde-$1.XXXXXX")
	cleanup() {
		stop_child
		rig_stop
		remove_work
	}
	trap_cleanup
	mkdir "$work/b" "$work/m"
	"$faultfs" -f -s "$work/b" "$work/m" 2>"$work/rig.log" &
	rig=$!
	for ((i = 0; i < 100; i++)); do
		[[ -e $work/m/.faultfs ]] && break
		sleep 0.05
	done
	[[ -e $work/m/.faultfs ]] || die "the rig did not mount: $(cat "$work/rig.log")"
	mkdir "$work/m/d"
}

# on_signal STATUS: cleanup, then exit STATUS. With signal_eol set, a
# progress line left open on stderr is ended first.
on_signal() {
	trap - INT TERM HUP
	[[ -z ${signal_eol:-} ]] || echo >&2
	cleanup
	exit "$1"
}

# trap_cleanup: cleanup on every way out, INT and TERM (130, 143) too.
trap_cleanup() {
	trap cleanup EXIT
	trap 'on_signal 130' INT
	trap 'on_signal 143' TERM
}

# run OUT ERR CMD...: run in the background and wait, so INT/TERM are
# handled now rather than when a long child finishes.
run() {
	local out=$1 err=$2 rc=0
	shift 2
	"$@" >"$out" 2>"$err" &
	child=$!
	wait "$child" || rc=$?
	child=
	child_timed=
	return "$rc"
}

show_err() {
	sed 's/^/    /' "$1" >&2
}

# run_or_die WHAT CMD...: run with output in $work/out and $work/err;
# when CMD fails, the progress line is ended, its stderr shown and the
# script stops saying WHAT.
run_or_die() {
	local what=$1
	shift
	run "$work/out" "$work/err" "$@" || {
		echo >&2
		show_err "$work/err"
		die "$what"
	}
}

# csv_fields [-d] FILE FIELD...: the 1-based FIELDs of the one 1.98 CSV
# line in FILE, on one line; each a whole number (with -d, a decimal
# too) or +++++.
csv_fields() {
	local num='^[0-9]+$' file
	if [[ $1 == -d ]]; then
		num='^[0-9]+([.][0-9]+)?$'
		shift
	fi
	file=$1
	shift
	awk -F, -v num="$num" -v want="$*" '
		function ok(x) { return x ~ num || x == "+++++" }
		$1 == "1.98" && NF == 50 {
			n++
			line = ""
			k = split(want, f, " ")
			for (i = 1; i <= k; i++) {
				if (!ok($(f[i])))
					bad = 1
				line = line (i > 1 ? " " : "") $(f[i])
			}
		}
		END {
			if (n != 1 || bad)
				exit 1
			print line
		}' "$file"
}

add() { vals[$1]+="${vals[$1]:+ }$2"; }

# The awk of a median: reads values one a line into v[1..n], +++++ as
# -1, which sorts above every number (under 0.5 s: faster than any rate
# at this size); middle() sorts them and sets lo and hi, the two middle
# values (the same one for an odd count). The caller's END uses them.
# shellcheck disable=SC2016
median_awk='
	{ v[++n] = ($1 == "+++++") ? -1 : $1 + 0 }
	function gt(a, b) { return a == -1 ? b != -1 : (b != -1 && a > b) }
	function middle(    i, j, x) {
		# Insertion sort, with -1 (+++++) above every number.
		for (i = 2; i <= n; i++) {
			x = v[i]
			for (j = i - 1; j >= 1 && gt(v[j], x); j--)
				v[j + 1] = v[j]
			v[j + 1] = x
		}
		lo = v[int((n + 1) / 2)]
		hi = v[int(n / 2) + 1]
	}'

# median FAST VALUES: prints "VALUE BOUND"; BOUND is what the median is
# known to exceed when it is +++++ itself, FAST being the rate of the
# whole test in 0.5 s.
median() {
	local fast=$1
	shift
	printf '%s\n' "$@" | awk -v fast="$fast" "$median_awk"'
		END {
			middle()
			if (hi != -1)
				printf "%d %d\n", (lo + hi) / 2, (lo + hi) / 2
			else if (lo != -1)
				printf "+++++ %d\n", (lo + fast) / 2
			else
				printf "+++++ %d\n", fast
		}'
}

# medians KEY...: med[KEY] the median of each KEY's vals (median 0), the
# runs' list said on stderr ("  KEY: [...]"); a KEY with none passed over.
medians() {
	local k m
	for k; do
		[[ -n ${vals[$k]:-} ]] || continue
		# shellcheck disable=SC2086
		read -r m _ <<<"$(median 0 ${vals[$k]})"
		med[$k]=$m
		echo "  ${k/./ }: [${vals[$k]}]" >&2
	done
}

# ratio A A_BOUND B B_BOUND: A/B, or a bound on it when either is +++++;
# - when either is missing.
ratio() {
	awk -v a="$1" -v ab="$2" -v b="$3" -v bb="$4" 'BEGIN {
		if (a == "" || b == "" || a == "-" || b == "-")
			print "-"
		else if (a == "+++++" && b == "+++++")
			print "both +++++"
		else if (a == "+++++")
			printf ">%.2f\n", ab / b
		else if (b == "+++++")
			printf "<%.2f\n", a / bb
		else
			printf "%.2f\n", a / b
	}'
}

# cell KEY: the median of KEY, or - when there is none.
cell() { printf '%s' "${med[$1]:--}"; }

# A rebuild during the run would mix two binaries across the repeats.
fingerprint() { cksum <"$clyde" 2>/dev/null || echo missing; }

# Other work on the machine skews every figure here: runs_begin notes
# how busy it was (load1) and which clyde ran, runs_end the load after
# (load2) and whether clyde changed; changed_note says so in the notes.
runs_begin() {
	read -r load1 _ </proc/loadavg || load1=unknown
	clyde_sum=$(fingerprint)
}

runs_end() {
	[[ $(fingerprint) == "$clyde_sum" ]] || clyde_changed=1
	read -r load2 _ </proc/loadavg || load2=unknown
}

changed_note() {
	[[ -z ${clyde_changed:-} ]] ||
		printf '  WARNING: %s changed during the run; figures mix builds.\n' \
			"$clyde"
}

# quote ARGS...: a line to paste into a shell; %q only where needed, as it
# escapes harmless commas too.
quote() {
	local a line=
	for a in "$@"; do
		[[ $a =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]] || a=$(printf '%q' "$a")
		line+="${line:+ }$a"
	done
	printf '%s\n' "$line"
}
