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
  -C CLYDE   the clyde binary (default: src/clyde/clyde in this source tree)
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
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"

size_mib "$size_arg" "1g, 512m, 2048"
chunk=$(to_bytes "$chunk_arg" 1) ||
	die_usage "-c '$chunk_arg': not a size (e.g. 8k, 65536)"
((chunk >= 256 && chunk <= 1024 * 1024 && (chunk & (chunk - 1)) == 0)) ||
	die_usage "-c '$chunk_arg': must be a power of two from 256 to 1m"
whole_in -r "$repeats" 1 1000 4
repeats=$((10#$repeats))
writable_dir "$dir"

find_clyde
command -v dd >/dev/null || die "dd: not found"

size_mib=$((size / 1024 / 1024))
size_kib=$((size / 1024))
# The data file is the only big thing here, and only one tool's copy
# exists at a time: each tool removes its own before the next starts.
avail=$(df_free "$dir")
[[ $avail =~ ^[0-9]+$ ]] && ((avail < size + 16 * 1024 * 1024)) &&
	die_usage "-s '$size_arg': only $((avail / 1024 / 1024)) MiB free in '$dir'"

find_bonnie

trap_cleanup
work=$(mktemp -d "${dir%/}/clyde-bench.XXXXXX")

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

# block_run KEY NAME CMD...: one run of CMD; put_block, rewrite and
# get_block (1-based fields 12, 14, 18) of its 1.98 line, each a rate or
# +++++, filed under KEY.<figure>.
block_run() {
	local key=$1 name=$2 figs pb rw gb
	shift 2
	run_or_die "$name failed" "$@"
	figs=$(csv_fields "$work/out" 12 14 18) || {
		echo >&2
		die "$name: no single 1.98 CSV line with block figures"
	}
	read -r pb rw gb <<<"$figs"
	add "$key.put_block" "$pb"
	add "$key.rewrite" "$rw"
	add "$key.get_block" "$gb"
}

fstype=$(stat -f -c %T -- "$dir" 2>/dev/null || echo unknown)
runs_begin

printf '%s: %s in %s (%s), chunk %s bytes, %d repeat(s), load %s\n' \
	"$prog" "$size_arg" "$dir" "$fstype" "$chunk" "$repeats" "$load1" >&2

for ((i = 1; i <= repeats; i++)); do
	printf '  repeat %d/%d: clyde' "$i" "$repeats" >&2
	block_run clyde clyde "${clyde_cmd[@]}"

	printf ', dd' >&2
	# dd reads a file it has just written, fsynced and dropped from the
	# page cache, as clyde's block input does: the same cache state for
	# both (on tmpfs, the default -d, nothing can be dropped for either).
	run_or_die "dd: could not write $ddfile" "${dd_write_cmd[@]}"
	run_or_die "dd: could not drop $ddfile from the page cache" \
		"${dd_evict_cmd[@]}"
	run_or_die "dd: could not read $ddfile" "${dd_read_cmd[@]}"
	rm -f -- "$ddfile"
	kibs=$(dd_kibs "$work/err") || {
		echo >&2
		die "dd: could not parse its summary line"
	}
	add dd.get_block "$kibs"

	if ((${#bonnie_cmd[@]})); then
		printf ', bonnie++' >&2
		block_run bonnie bonnie++ "${bonnie_cmd[@]}"
	fi
	echo >&2
done
runs_end

# The median of each figure; +++++ is a bound: over twice the size in
# KiB per second.
declare -A med=() bound=()
for key in "${!vals[@]}"; do
	read -ra list <<<"${vals[$key]}"
	read -r m b < <(median $((2 * size_kib)) "${list[@]}")
	med[$key]=$m
	bound[$key]=$b
done

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
changed_note

printf '\ncommands (%s is a private directory, removed at exit):\n' "$work"
printf '  %s\n' "$(quote "${clyde_cmd[@]}")"
printf '  %s\n' "$(quote "${dd_write_cmd[@]}")"
printf '  %s\n' "$(quote "${dd_read_cmd[@]}")"
((${#bonnie_cmd[@]} == 0)) || printf '  %s\n' "$(quote "${bonnie_cmd[@]}")"
