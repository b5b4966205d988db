#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# clyde-vs-dd-bonnie.sh: side-by-side block I/O figures of clyde, dd and
# bonnie++ on the same directory, data size and chunk, with ratios.
#
# A benchmark, not a test: it prints numbers and never fails on a speed.
# Each repeat runs the three tools one after another (clyde, dd, bonnie++)
# so that drift in the machine's state spreads over all of them alike;
# the table shows the median of each figure over the repeats.
#
# dd only reads here: it is the plain-tool reference for one process
# reading a file in chunk-sized read() calls, as clyde's block input
# does. dd also write()s each chunk to /dev/null, one system call more
# per chunk than clyde, so where system calls are dear (page-table
# isolation, paravirtual guests) clyde should come out ahead of it.
#
# Everything (clyde's and bonnie++'s scratch directories included) lives
# in one private directory under -d, removed on every way out.

set -euo pipefail

# dd's summary line and awk's number formatting must not follow the
# user's locale, or the parsing below breaks on "1,5 s".
export LC_ALL=C

prog=${0##*/}
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-d DIR] [-s SIZE] [-c CHUNK] [-r N] [-C CLYDE] [-h]

Block output, rewrite and block input of clyde next to dd (block input
only) and bonnie++ (when installed), same directory, size and chunk.

  -d DIR     where to work (default: /dev/shm)
  -s SIZE    data file size, as clyde's -s: bare number = MiB, k/m/g/t
             suffixes, a whole number of MiB (default: 1g)
  -c CHUNK   I/O chunk: bare number = bytes, k/m suffixes, a power of
             two from 256 to 1m (default: 8k)
  -r N       repeats; the median of each figure is shown (default: 3)
  -C CLYDE   the clyde binary (default: src/clyde in this source tree)
  -h         this text

A figure of +++++ means the test took under 0.5 s (clyde and bonnie++
then give no rate); ratios against it are bounds (> or <). Use a larger
-s to get a figure.
EOF
}

dir=/dev/shm
size_arg=1g
chunk_arg=8k
repeats=3
clyde=

while getopts ':d:s:c:r:C:h' opt; do
	case $opt in
	d) dir=$OPTARG ;;
	s) size_arg=$OPTARG ;;
	c) chunk_arg=$OPTARG ;;
	r) repeats=$OPTARG ;;
	C) clyde=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	:) die_usage "-$OPTARG needs a value (try -h)" ;;
	*) die_usage "-$OPTARG: unknown option (try -h)" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 0 ]] || die_usage "unexpected argument '$1' (try -h)"

size=$(to_bytes "$size_arg" $((1024 * 1024))) ||
	die_usage "-s '$size_arg': not a size (e.g. 1g, 512m, 2048)"
chunk=$(to_bytes "$chunk_arg" 1) ||
	die_usage "-c '$chunk_arg': not a size (e.g. 8k, 65536)"
((size > 0 && size % (1024 * 1024) == 0)) ||
	die_usage "-s '$size_arg': must be a whole, non-zero number of MiB"
((chunk >= 256 && chunk <= 1024 * 1024 && (chunk & (chunk - 1)) == 0)) ||
	die_usage "-c '$chunk_arg': must be a power of two from 256 to 1m"
if ! [[ $repeats =~ ^[0-9]{1,4}$ ]] ||
	((10#$repeats < 1 || 10#$repeats > 1000)); then
	die_usage "-r '$repeats': must be a whole number from 1 to 1000"
fi
repeats=$((10#$repeats))
[[ -d $dir ]] || die_usage "-d '$dir': not a directory"
[[ -w $dir ]] || die_usage "-d '$dir': not writable"

if [[ -z $clyde ]]; then
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
	clyde=$root/src/clyde
	[[ -x $clyde ]] ||
		die_usage "$clyde: not built (run make in $root, or give -C)"
fi
[[ -f $clyde && -x $clyde ]] || die_usage "-C '$clyde': not an executable"
command -v dd >/dev/null || die "dd: not found"

size_mib=$((size / 1024 / 1024))
size_kib=$((size / 1024))
# The data file is the only big thing here, and only one tool's copy
# exists at a time: each tool removes its own before the next starts.
avail=$(df -P -B1 -- "$dir" | awk 'NR == 2 { print $4 }')
[[ $avail =~ ^[0-9]+$ ]] && ((avail < size + 16 * 1024 * 1024)) &&
	die_usage "-s '$size_arg': only $((avail / 1024 / 1024)) MiB free in '$dir'"

bonnie=$(command -v bonnie++ || true)
[[ -n $bonnie ]] || [[ ! -x /usr/sbin/bonnie++ ]] || bonnie=/usr/sbin/bonnie++

# Cleanup: one private directory, and whatever child is running.

work=
child=

cleanup() {
	if [[ -n $child ]]; then
		kill -TERM "$child" 2>/dev/null || true
		# Wait, so that rm does not race the child's own cleanup.
		wait "$child" 2>/dev/null || true
		child=
	fi
	if [[ -n $work ]]; then
		rm -rf -- "$work"
		work=
	fi
}

on_signal() {
	trap - INT TERM
	cleanup
	exit "$1"
}

trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

work=$(mktemp -d "${dir%/}/clyde-bench.XXXXXX")

# run OUT ERR CMD...: run in the background and wait, so INT/TERM are
# handled now rather than when a long child finishes.
run() {
	local out=$1 err=$2 rc=0
	shift 2
	"$@" >"$out" 2>"$err" &
	child=$!
	wait "$child" || rc=$?
	child=
	return "$rc"
}

# csv_figures FILE: put_block, rewrite and get_block (0-based fields 11,
# 13, 17) of the one 1.98 line in FILE; each a rate or +++++.
csv_figures() {
	awk -F, '
		function ok(x) { return x ~ /^[0-9]+$/ || x == "+++++" }
		$1 == "1.98" && NF == 50 {
			n++
			if (ok($12) && ok($14) && ok($18))
				line = $12 " " $14 " " $18
		}
		END {
			if (n != 1 || line == "")
				exit 1
			print line
		}' "$1"
}

# dd_kibs ERRFILE: KiB/s from dd's "N bytes (...) copied, T s, ..." line.
dd_kibs() {
	awk '
		/ bytes .* copied, / {
			bytes = $1
			for (i = 1; i < NF; i++)
				if ($(i + 1) == "s," || $(i + 1) == "s")
					secs = $i
		}
		END {
			if (bytes == "" || secs == "" || secs + 0 <= 0)
				exit 1
			printf "%d\n", bytes / 1024 / secs
		}' "$1"
}

bonnie_user=()
((EUID != 0)) || bonnie_user=(-u root)

clyde_cmd=("$clyde" -d "$work" -s "$size_arg:$chunk" -r 0 -q -f)
ddfile=$work/dd.data
dd_write_cmd=(dd if=/dev/urandom "of=$ddfile" bs=1M "count=$size_mib"
	iflag=fullblock conv=fsync status=none)
# GNU dd's "iflag=nocache count=0" drops the whole file from the page
# cache, as clyde does before block input.
dd_evict_cmd=(dd "if=$ddfile" iflag=nocache count=0 status=none)
dd_read_cmd=(dd "if=$ddfile" of=/dev/null "bs=$chunk")
bonnie_cmd=()
[[ -z $bonnie ]] ||
	bonnie_cmd=("$bonnie" -d "$work" -s "$size_mib:$chunk" -r 0 -n 0 -f -q
		"${bonnie_user[@]}")

figures=(put_block rewrite get_block)
declare -A vals=()

fstype=$(stat -f -c %T -- "$dir" 2>/dev/null || echo unknown)
# Other work on the machine skews every figure here; say how busy it was.
read -r load1 _ </proc/loadavg || load1=unknown
clyde_sum=$(fingerprint)

printf '%s: %s in %s (%s), chunk %s bytes, %d repeat(s), load %s\n' \
	"$prog" "$size_arg" "$dir" "$fstype" "$chunk" "$repeats" "$load1" >&2

for ((i = 1; i <= repeats; i++)); do
	printf '  repeat %d/%d: clyde' "$i" "$repeats" >&2
	run "$work/out" "$work/err" "${clyde_cmd[@]}" || {
		echo >&2
		show_err "$work/err"
		die "clyde failed"
	}
	figs=$(csv_figures "$work/out") || {
		echo >&2
		die "clyde: no single 1.98 CSV line with block figures"
	}
	read -r pb rw gb <<<"$figs"
	add clyde.put_block "$pb"
	add clyde.rewrite "$rw"
	add clyde.get_block "$gb"

	printf ', dd' >&2
	# dd reads a file it has just written, fsynced and dropped from the
	# page cache, as clyde's block input does: the same cache state for
	# both (on tmpfs, the default -d, nothing can be dropped for either).
	run "$work/out" "$work/err" "${dd_write_cmd[@]}" || {
		echo >&2
		show_err "$work/err"
		die "dd: could not write $ddfile"
	}
	run "$work/out" "$work/err" "${dd_evict_cmd[@]}" || {
		echo >&2
		show_err "$work/err"
		die "dd: could not drop $ddfile from the page cache"
	}
	run "$work/out" "$work/err" "${dd_read_cmd[@]}" || {
		echo >&2
		show_err "$work/err"
		die "dd: could not read $ddfile"
	}
	rm -f -- "$ddfile"
	kibs=$(dd_kibs "$work/err") || {
		echo >&2
		die "dd: could not parse its summary line"
	}
	add dd.get_block "$kibs"

	if ((${#bonnie_cmd[@]})); then
		printf ', bonnie++' >&2
		run "$work/out" "$work/err" "${bonnie_cmd[@]}" || {
			echo >&2
			show_err "$work/err"
			die "bonnie++ failed"
		}
		figs=$(csv_figures "$work/out") || {
			echo >&2
			die "bonnie++: no single 1.98 CSV line with block figures"
		}
		read -r pb rw gb <<<"$figs"
		add bonnie.put_block "$pb"
		add bonnie.rewrite "$rw"
		add bonnie.get_block "$gb"
	fi
	echo >&2
done
[[ $(fingerprint) == "$clyde_sum" ]] || clyde_changed=1
read -r load2 _ </proc/loadavg || load2=unknown

# median VALUES: prints "VALUE BOUND". +++++ (under 0.5 s) is faster than
# any measured rate at this size, so it sorts above them all; BOUND is
# what the median is known to exceed when it is +++++ itself.
median() {
	printf '%s\n' "$@" | awk -v fast=$((2 * size_kib)) '
		{ v[++n] = ($1 == "+++++") ? -1 : $1 + 0 }
		END {
			# Insertion sort, with -1 (+++++) above every number.
			for (i = 2; i <= n; i++) {
				x = v[i]
				for (j = i - 1; j >= 1 && gt(v[j], x); j--)
					v[j + 1] = v[j]
				v[j + 1] = x
			}
			lo = v[int((n + 1) / 2)]
			hi = v[int(n / 2) + 1]
			if (hi != -1)
				printf "%d %d\n", (lo + hi) / 2, (lo + hi) / 2
			else if (lo != -1)
				printf "+++++ %d\n", (lo + fast) / 2
			else
				printf "+++++ %d\n", fast
		}
		function gt(a, b) { return a == -1 ? b != -1 : (b != -1 && a > b) }'
}

# ratio A A_BOUND B B_BOUND: A/B, or a bound on it when either is +++++.
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

declare -A med=() bound=()
for key in "${!vals[@]}"; do
	read -ra list <<<"${vals[$key]}"
	read -r m b < <(median "${list[@]}")
	med[$key]=$m
	bound[$key]=$b
done

cell() { printf '%s' "${med[$1]:--}"; }

printf '\n'
printf '%-10s %12s %12s %14s %9s %14s\n' figure "clyde KiB/s" "dd KiB/s" \
	"bonnie++ KiB/s" clyde/dd clyde/bonnie++
for f in "${figures[@]}"; do
	printf '%-10s %12s %12s %14s %9s %14s\n' "$f" \
		"$(cell "clyde.$f")" "$(cell "dd.$f")" "$(cell "bonnie.$f")" \
		"$(ratio "${med[clyde.$f]:-}" "${bound[clyde.$f]:-}" \
			"${med[dd.$f]:-}" "${bound[dd.$f]:-}")" \
		"$(ratio "${med[clyde.$f]:-}" "${bound[clyde.$f]:-}" \
			"${med[bonnie.$f]:-}" "${bound[bonnie.$f]:-}")"
done

printf '\nmedian of %d; per repeat:\n' "$repeats"
for f in "${figures[@]}"; do
	for t in clyde dd bonnie; do
		[[ -n ${vals[$t.$f]:-} ]] || continue
		printf '  %-10s %-8s %s\n' "$f" "${t/bonnie/bonnie++}" \
			"${vals[$t.$f]}"
	done
done

printf '\nnotes:\n'
if [[ " ${med[*]} " == *" +++++ "* ]]; then
	printf '  +++++: under 0.5 s, i.e. faster than %d KiB/s at this size;\n' \
		$((2 * size_kib))
	printf '         ratios with > or < are bounds. Use a larger -s.\n'
fi
case $fstype in
tmpfs | ramfs)
	printf '  %s: every read comes from RAM, for all three tools.\n' \
		"$fstype"
	;;
*)
	printf '  no cache drop: each tool reads a file it has just written and\n'
	printf '  fsynced, so reads are cached up to what RAM holds; use -s of\n'
	printf '  at least twice the RAM for device figures.\n'
	;;
esac
[[ -n $bonnie ]] || printf '  bonnie++ not installed: its columns skipped.\n'
printf '  dd measures block input only.\n'
printf '  load average (1 min) at start %s, at end %s (%d CPUs).\n' \
	"$load1" "$load2" "$(nproc 2>/dev/null || echo 0)"
[[ -z ${clyde_changed:-} ]] ||
	printf '  WARNING: %s changed during the run; figures mix builds.\n' \
		"$clyde"

printf '\ncommands (%s is a private directory, removed at exit):\n' "$work"
printf '  %s\n' "$(quote "${clyde_cmd[@]}")"
printf '  %s\n' "$(quote "${dd_write_cmd[@]}")"
printf '  %s\n' "$(quote "${dd_read_cmd[@]}")"
((${#bonnie_cmd[@]} == 0)) || printf '  %s\n' "$(quote "${bonnie_cmd[@]}")"
