#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# file-tests.sh: clyde's file tests (-n) against bonnie++'s, how clyde's
# create rate holds up as the file count grows, and clyde's peak memory
# for a million files and for a 4 GiB data file.
#
# A benchmark, not a test: it prints numbers, and PASS/FAIL against the
# bars below, but its exit status never depends on a speed or a size.
#
# Part 1 runs clyde and bonnie++ alternately within each repeat (clyde,
# bonnie++, clyde, bonnie++ ...): on a VM whose speed drifts over tens of
# seconds, back-to-back pairs see the same machine, where running all of
# one tool first would not. Part 2 interleaves its sizes the same way.
#
# On tmpfs a file test of -n 64 (65536 files) mostly ends in under 0.5 s,
# and both tools then print +++++ instead of a rate; such a figure is a
# lower bound (over 2*num*1024 files/s), so part 1 also runs a size where
# every test takes long enough to be measured (-N).
#
# Everything lives in one private directory under -d, removed on every
# way out.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-d DIR] [-r N] [-N NUM] [-C CLYDE] [-h]

clyde's file tests next to bonnie++'s (-n 64 and -n NUM), clyde's create
rate at -n 16 and -n 256, and clyde's peak RSS at -n 1024 and -s 4g.

  -d DIR     where to work; meant for tmpfs (default: /dev/shm)
  -r N       repeats; the median of each figure is shown (default: 5)
  -N NUM     the part 1 size at which every test should give a rate,
             as -n NUM, i.e. NUM*1024 files (default: 512)
  -C CLYDE   the clyde binary (default: src/clyde/clyde in this source tree)
  -h         this text

A figure of +++++ means the test took under 0.5 s, so no rate was given;
it is a bound (faster than NUM*1024/0.5 files/s), and ratios against it
are bounds (> or <).
EOF
}

dir=/dev/shm
repeats=5
big_n=512
clyde=

while getopts ':d:r:N:C:h' opt; do
	case $opt in
	d) dir=$OPTARG ;;
	r) repeats=$OPTARG ;;
	N) big_n=$OPTARG ;;
	C) clyde=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"

# Leading zeros would make bash read the digits as octal.
whole_in -r "$repeats" 1 1000 4
repeats=$((10#$repeats))
whole_in -N "$big_n" 1 16384 5
big_n=$((10#$big_n))
writable_dir "$dir"

find_clyde
find_bonnie
[[ -n $bonnie ]] || die "bonnie++: not found (Debian package bonnie++)"
timer=/usr/bin/time
[[ -x $timer ]] || die "$timer: not found (Debian package time)"

# The sizes of the bars. Part 2 falls back to the first of the middle
# sizes whose creates take long enough to be measured (see below).
cmp_small=64
scale_small=16
scale_mid=(32 64 128)
scale_big=256
mem_files=1024
mem_data=4g
mem_data_bytes=$((4 * 1024 * 1024 * 1024))
mem_files_bar_kib=$((64 * 1024))
mem_data_bar_kib=$((16 * 1024))
scale_floor=0.70
# -n 16 is over in a fraction of a second, so it gets several runs per
# repeat: more samples for its median at little cost.
small_runs=3

df_ifree() { df -P -i -- "$dir" | awk 'NR == 2 { print $4 }'; }

# Part 1's largest size must fit before anything starts; part 3's needs
# are checked when it comes, and it is skipped, with the reason, when
# they do not fit.
ifree=$(df_ifree)
[[ ! $ifree =~ ^[0-9]+$ ]] || ((ifree == 0)) ||
	((ifree >= big_n * 1024 + 1024)) ||
	die_usage "-N $big_n: needs $((big_n * 1024)) inodes, '$dir' has $ifree"

trap_cleanup
work=$(mktemp -d "${dir%/}/clyde-files.XXXXXX")

tests=(seq_create seq_stat seq_del ran_create ran_stat ran_del)

# files_figures FILE: the six file-test rates (1-based fields 27, 29 ...
# 37) of the one 1.98 CSV line in FILE; each a number or +++++.
files_figures() { csv_fields "$1" 27 29 31 33 35 37; }

declare -A vals=()

# tool_run KEY NAME CMD...: run one file-test command and file its six
# rates under KEY.<test>.
tool_run() {
	local key=$1 name=$2 figs t i=0
	local -a f
	shift 2
	run_or_die "$name failed: $(quote "$@")" "$@"
	figs=$(files_figures "$work/out") || {
		echo >&2
		show_err "$work/out"
		die "$name: no single 1.98 CSV line with file-test figures"
	}
	read -ra f <<<"$figs"
	for t in "${tests[@]}"; do
		add "$key.$t" "${f[i]}"
		i=$((i + 1))
	done
}

declare -A med=() bound=()

# summarise KEY FILES_NUM: medians of KEY.<test> for -n FILES_NUM.
summarise() {
	local key=$1 n=$2 t m b
	local -a list
	for t in "${tests[@]}"; do
		[[ -n ${vals[$key.$t]:-} ]] || continue
		read -ra list <<<"${vals[$key.$t]}"
		read -r m b < <(median $((2 * n * 1024)) "${list[@]}")
		med[$key.$t]=$m
		bound[$key.$t]=$b
	done
}

# floor_verdict RATIO FLOOR: PASS when RATIO (maybe a > or < bound) is
# known to be at least FLOOR, FAIL when known to be below it, else n/a.
floor_verdict() {
	awk -v r="$1" -v fl="$2" 'BEGIN {
		if (r ~ /^>/)
			print (substr(r, 2) + 0 >= fl) ? "PASS" : "n/a"
		else if (r ~ /^</)
			print (substr(r, 2) + 0 < fl) ? "FAIL" : "n/a"
		else if (r ~ /^[0-9.]+$/)
			print (r + 0 >= fl) ? "PASS" : "FAIL"
		else
			print "n/a"
	}'
}

clyde_files_cmd() { printf '%s\n' "$clyde" -d "$work" -s 0 -r 0 -q -n "$1"; }
bonnie_files_cmd() {
	printf '%s\n' "$bonnie" -d "$work" -s 0 -r 0 -n "$1" -q "${bonnie_user[@]}"
}

fstype=$(stat -f -c %T -- "$dir" 2>/dev/null || echo unknown)
runs_begin
started=$SECONDS

printf '%s: %s (%s), %d repeat(s), load %s, %s CPUs\n' "$prog" "$dir" \
	"$fstype" "$repeats" "$load1" "$(nproc 2>/dev/null || echo '?')" >&2

commands=()
declare -A noted=()
note_cmd() {
	local c
	c=$(quote "$@")
	[[ -n ${noted[$c]:-} ]] || commands+=("$c")
	noted[$c]=1
}

# Part 1: clyde against bonnie++.

cmp_sizes=("$cmp_small")
((big_n == cmp_small)) || cmp_sizes+=("$big_n")

for n in "${cmp_sizes[@]}"; do
	mapfile -t ccmd < <(clyde_files_cmd "$n")
	mapfile -t bcmd < <(bonnie_files_cmd "$n")
	note_cmd "${ccmd[@]}"
	note_cmd "${bcmd[@]}"
	for ((i = 1; i <= repeats; i++)); do
		printf '  part 1, -n %d, repeat %d/%d: clyde' "$n" "$i" \
			"$repeats" >&2
		tool_run "p1.$n.clyde" clyde "${ccmd[@]}"
		printf ', bonnie++' >&2
		tool_run "p1.$n.bonnie" bonnie++ "${bcmd[@]}"
		echo >&2
	done
	summarise "p1.$n.clyde" "$n"
	summarise "p1.$n.bonnie" "$n"
done

# Part 2: clyde's create rate against the file count. At -n 16 the
# 16384 creates take well under 0.5 s on tmpfs, so there is often no
# rate to compare; one untimed probe per middle size picks the smallest
# whose creates last at least 0.7 s, far enough above 0.5 s that the
# repeats still give rates when the machine speeds up.

creates=(seq_create ran_create)

# slow_enough FILE N: both create rates in FILE are real and took >= 0.7 s.
slow_enough() {
	local figs
	local -a f
	figs=$(files_figures "$1") || return 1
	read -ra f <<<"$figs"
	[[ ${f[0]} =~ ^[0-9]+$ && ${f[3]} =~ ^[0-9]+$ ]] || return 1
	((f[0] * 7 <= $2 * 1024 * 10 && f[3] * 7 <= $2 * 1024 * 10))
}

mid_n=
mid_probe=
for n in "${scale_mid[@]}"; do
	mapfile -t ccmd < <(clyde_files_cmd "$n")
	note_cmd "${ccmd[@]}"
	printf '  part 2, probe -n %d' "$n" >&2
	run_or_die "clyde failed: $(quote "${ccmd[@]}")" "${ccmd[@]}"
	if slow_enough "$work/out" "$n"; then
		mid_probe="chose -n $n: its creates took >= 0.7 s"
		mid_n=$n
	fi
	echo >&2
	[[ -z $mid_n ]] || break
done
if [[ -z $mid_n ]]; then
	mid_n=${scale_mid[-1]}
	mid_probe="no middle size took >= 0.7 s to create; using -n $mid_n"
fi

scale_sizes=("$scale_small" "$mid_n" "$scale_big")
for n in "${scale_sizes[@]}"; do
	mapfile -t ccmd < <(clyde_files_cmd "$n")
	note_cmd "${ccmd[@]}"
done
for ((i = 1; i <= repeats; i++)); do
	printf '  part 2, repeat %d/%d:' "$i" "$repeats" >&2
	for n in "${scale_sizes[@]}"; do
		runs=1
		((n != scale_small)) || runs=$small_runs
		mapfile -t ccmd < <(clyde_files_cmd "$n")
		for ((k = 0; k < runs; k++)); do
			printf ' -n %d' "$n" >&2
			tool_run "p2.$n" clyde "${ccmd[@]}"
		done
	done
	echo >&2
done
for n in "${scale_sizes[@]}"; do
	summarise "p2.$n" "$n"
done

# Part 3: peak RSS. One run each: the peak depends on what clyde
# allocates, not on the machine's speed.

# peak_kib FILE: "Maximum resident set size (kbytes)" of time -v.
peak_kib() {
	awk -F': *' '/Maximum resident set size/ { v = $2 }
		END { if (v !~ /^[0-9]+$/) exit 1; print v }' "$1"
}

mem_avail_kib() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }

declare -A mem_kib=() mem_why=()

# mem_run KEY CMD...: clyde under time -v; peak RSS into mem_kib[KEY].
mem_run() {
	local key=$1
	shift
	local -a tcmd=("$timer" -v -o "$work/time" "$@")
	note_cmd "${tcmd[@]}"
	child_timed=1
	run_or_die "clyde failed: $(quote "${tcmd[@]}")" "${tcmd[@]}"
	mem_kib[$key]=$(peak_kib "$work/time") || {
		echo >&2
		die "$timer: no 'Maximum resident set size' line"
	}
}

# tmpfs keeps its files in RAM and this VM may have no swap, so a tmpfs
# run also needs that much memory free besides the filesystem's room.
room_for() {
	local bytes=$1 free avail
	free=$(df_free "$dir")
	[[ $free =~ ^[0-9]+$ ]] || free=0
	if ((free > 0 && free < bytes)); then
		printf '%s has %d MiB free, needs %d MiB' "$dir" \
			$((free / 1048576)) $((bytes / 1048576))
		return 1
	fi
	case $fstype in
	tmpfs | ramfs)
		avail=$(mem_avail_kib)
		if [[ $avail =~ ^[0-9]+$ ]] && ((avail * 1024 < bytes)); then
			printf 'RAM: %d MiB available, %s needs %d MiB' \
				$((avail / 1024)) "$fstype" $((bytes / 1048576))
			return 1
		fi
		;;
	esac
	printf '%s: %d MiB free, %d MiB needed' "$dir" \
		$((free / 1048576)) $((bytes / 1048576))
}

mem_files_cmd=("$clyde" -d "$work" -s 0 -r 0 -q -n "$mem_files")
mem_data_cmd=("$clyde" -d "$work" -s "$mem_data" -r 0 -q -n 0 -f)

ifree=$(df_ifree)
if [[ $ifree =~ ^[0-9]+$ ]] && ((ifree > 0 && ifree < mem_files * 1024 + 1024)); then
	mem_why[files]="$dir has $ifree free inodes, needs $((mem_files * 1024))"
else
	printf '  part 3, -n %d under time -v' "$mem_files" >&2
	mem_run files "${mem_files_cmd[@]}"
	echo >&2
fi

# The data file plus a margin for clyde's scratch directory.
if room=$(room_for $((mem_data_bytes + 64 * 1048576))); then
	mem_room=$room
	printf '  part 3, -s %s under time -v (%s)' "$mem_data" "$room" >&2
	mem_run data "${mem_data_cmd[@]}"
	echo >&2
else
	mem_why[data]=$room
fi

runs_end

# The report.

printf '\n== 1. clyde against bonnie++: file tests, files/s\n'
printf '   median of %d; clyde and bonnie++ alternate within each repeat\n' \
	"$repeats"
for n in "${cmp_sizes[@]}"; do
	printf '\n-n %d (%d files; +++++ = under 0.5 s = over %d files/s)\n' \
		"$n" $((n * 1024)) $((2 * n * 1024))
	printf '%-11s %10s %10s %15s\n' test clyde bonnie++ clyde/bonnie++
	for t in "${tests[@]}"; do
		printf '%-11s %10s %10s %15s\n' "$t" \
			"$(cell "p1.$n.clyde.$t")" "$(cell "p1.$n.bonnie.$t")" \
			"$(ratio "${med[p1.$n.clyde.$t]}" "${bound[p1.$n.clyde.$t]}" \
				"${med[p1.$n.bonnie.$t]}" "${bound[p1.$n.bonnie.$t]}")"
	done
done
printf '\nbar: none for this part; a ratio under 1 means clyde was slower.\n'
p1_plus=
for t in "${tests[@]}"; do
	for tool in clyde bonnie; do
		[[ ${med[p1.$big_n.$tool.$t]} != "+++++" ]] || p1_plus=1
	done
done
[[ -z $p1_plus ]] ||
	printf 'NOTE: -n %d still shows +++++; use a larger -N for rates.\n' \
		"$big_n"

printf '\n== 2. scale: clyde creates/s against the file count\n'
printf '   median of %d (-n %d: %d runs per repeat); sizes alternate within\n' \
	"$repeats" "$scale_small" "$small_runs"
printf '   each repeat; %s\n\n' "$mid_probe"
printf '%-8s %9s %11s %11s\n' size files seq_create ran_create
for n in "${scale_sizes[@]}"; do
	printf '%-8s %9d %11s %11s\n' "-n $n" $((n * 1024)) \
		"$(cell "p2.$n.seq_create")" "$(cell "p2.$n.ran_create")"
done
printf '\nbar: creates/s at -n %d at least %s x those at the smaller size\n' \
	"$scale_big" "$scale_floor"
printf '     (at most 30%% slower; a faster -n %d is no miss)\n\n' \
	"$scale_big"
printf '%-16s %-11s %11s %8s\n' comparison test "-n $scale_big/small" verdict
small_plus=
over_band=
for n in "$scale_small" "$mid_n"; do
	for t in "${creates[@]}"; do
		r=$(ratio "${med[p2.$scale_big.$t]}" "${bound[p2.$scale_big.$t]}" \
			"${med[p2.$n.$t]}" "${bound[p2.$n.$t]}")
		printf '%-16s %-11s %11s %8s\n' "-n $scale_big vs -n $n" "$t" \
			"$r" "$(floor_verdict "$r" "$scale_floor")"
		[[ $n != "$scale_small" || ${med[p2.$n.$t]} != "+++++" ]] ||
			small_plus=1
		if [[ $r =~ ^[0-9.]+$ ]] &&
			awk -v r="$r" 'BEGIN { exit !(r > 1.30) }'; then
			over_band=1
		fi
	done
done
if [[ -n $small_plus ]]; then
	printf '\nNOTE: -n %d gives +++++: its %d creates take under 0.5 s, so\n' \
		"$scale_small" $((scale_small * 1024))
	printf '      its rate is only known to exceed %d/s and a ratio against\n' \
		$((2 * scale_small * 1024))
	printf '      it is an upper bound (n/a); -n %d vs -n %d decides the bar.\n' \
		"$scale_big" "$mid_n"
fi
# Read as a two-sided band, a much faster -n 256 would miss too; say so
# rather than hide it.
if [[ -n $over_band ]]; then
	printf '\nNOTE: a ratio over 1.30: -n %d ran over 30%% faster per file;\n' \
		"$scale_big"
	printf '      fixed costs weigh more on a short run. Only a reading of\n'
	printf '      "within 30%%" in both directions would call that a miss.\n'
fi

printf '\n== 3. memory: clyde peak RSS (/usr/bin/time -v, Maximum resident set size)\n\n'
printf '%-44s %10s %8s %8s\n' run "peak RSS" bar verdict
mem_row() {
	local key=$1 label=$2 bar=$3 kib v
	if [[ -n ${mem_kib[$key]:-} ]]; then
		kib=${mem_kib[$key]}
		v=FAIL
		((kib > bar)) || v=PASS
		printf '%-44s %6d KiB %4d MiB %8s\n' "$label" "$kib" \
			$((bar / 1024)) "$v"
	else
		printf '%-44s %10s %4d MiB %8s\n' "$label" - $((bar / 1024)) \
			skipped
		printf '  skipped: %s\n' "${mem_why[$key]}"
	fi
}
mem_row files "-s 0 -n $mem_files ($((mem_files * 1024)) files of size 0)" \
	"$mem_files_bar_kib"
mem_row data "-s $mem_data -n 0 -f (a 4 GiB data file)" "$mem_data_bar_kib"
[[ -z ${mem_room:-} ]] || printf '  room checked first: %s\n' "$mem_room"

printf '\nnotes:\n'
case $fstype in
tmpfs | ramfs) printf '  %s: no device; figures are CPU and kernel cost.\n' \
	"$fstype" ;;
*) printf '  %s is %s, not tmpfs: figures include the device.\n' \
	"$dir" "$fstype" ;;
esac
printf '  load average (1 min) at start %s, at end %s; %d s in all.\n' \
	"$load1" "$load2" $((SECONDS - started))
changed_note

printf '\nper repeat (files/s):\n'
for n in "${cmp_sizes[@]}"; do
	for t in "${tests[@]}"; do
		printf '  1 -n %-5s %-10s clyde    %s\n' "$n" "$t" \
			"${vals[p1.$n.clyde.$t]}"
		printf '  1 -n %-5s %-10s bonnie++ %s\n' "$n" "$t" \
			"${vals[p1.$n.bonnie.$t]}"
	done
done
for n in "${scale_sizes[@]}"; do
	for t in "${creates[@]}"; do
		printf '  2 -n %-5s %-10s clyde    %s\n' "$n" "$t" \
			"${vals[p2.$n.$t]}"
	done
done

printf '\ncommands (%s is a private directory, removed at exit):\n' "$work"
printf '  %s\n' "${commands[@]}"
