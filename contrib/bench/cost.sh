#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cost.sh: clyde's own cost against its anchors, where the CPU is the
# limit (tmpfs) and the tool's cost shows: block output and rewrite
# against bonnie++, sequential create, random create and random stat
# against bonnie++, and 4k random reads at depth 32 against fio's
# io_uring, buffered on tmpfs and with -D (fio --direct=1) on a disk.
#
# A benchmark, not a test: it prints figures and ratios, never fails on
# them. The method, which a noisy VM needs:
#   - the memory is touched once first: a file of most of the free RAM
#     is written to the tmpfs and removed (on a fresh guest a page
#     written the first time costs several times one written again, so
#     the first runs of a series would be slower than the rest);
#   - as root, the guest's free page reporting (virtio-balloon) is held
#     off for the series and restored after: with it on, pages a run
#     frees are handed back to the host within seconds, and the next run
#     to take them pays the host's faults again. On the 2-core VM this
#     made every other 3 GiB tmpfs write run three times slower
#     (a plain write() loop: 758k, 2,789k, 758k ... KiB/s), so that in
#     an interleaved series one tool always drew the slow turn;
#   - every run is pinned to one CPU (taskset -c, -P), so that neither
#     tool wanders between CPUs while the other does not;
#   - the runs interleave (clyde, anchor, clyde, anchor ...), so drift
#     over minutes falls on both alike;
#   - each figure is the median of -r runs (at least 7 for a claim),
#     given with its min-max spread, and the ratio is clyde's median
#     over the anchor's.
# Everything lives in private directories under -d and -D, removed on
# every way out.
#
# clyde's own cost per operation (part "own") is measured with the
# system call taken out: block output with an LD_PRELOAD shim (built
# here with cc) that returns at once from each write() to the data
# file, so that what is timed is clyde's loop alone (the content, the
# latency record, the clock, the live count), in ns per 8 KiB write,
# by default, with --no-latency and with --data=zero; and the user CPU
# time per I/O of the random reads, clyde's and fio's (their figures'
# runs, from their JSON: the kernel counts user time in ticks, so take
# it as a guide).

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	cat <<EOF
usage: $prog [-d DIR] [-D DIR] [-r N] [-P CPU] [-s SIZE] [-n NUM]
       [-T SECONDS] [-p PARTS] [-S] [-C CLYDE] [-h]

clyde's own cost against bonnie++ and fio, pinned, interleaved, median
of N runs with the min-max spread.

  -d DIR      the tmpfs directory (default /dev/shm)
  -D DIR      the disk directory for random reads with -D (default
              /var/tmp)
  -r N        runs of each tool per figure (default 7)
  -P CPU      the CPU every run is pinned to, or none (default 1)
  -s SIZE     block output's file size, as clyde's -s (default 3g)
  -n NUM      the file tests' size, as -n NUM (NUM*1024 files; default
              512)
  -T SECONDS  each random-read run's length (default 5)
  -p PARTS    which parts, comma-separated: block, files, ranread
              (tmpfs), ranread-D (disk), own (clyde's loop with the
              writes taken out); default all five
  -S          skip touching the memory first
  -C CLYDE    the clyde binary (default: this tree's src/clyde/clyde)
  -h          this text
EOF
}

dir=/dev/shm disk=/var/tmp runs=7 cpu=1 size_arg=3g num=512 secs=5
parts=block,files,ranread,ranread-D,own touch=1 clyde=
while getopts ':d:D:r:P:s:n:T:p:SC:h' opt; do
	case $opt in
	d) dir=$OPTARG ;;
	D) disk=$OPTARG ;;
	r) runs=$OPTARG ;;
	P) cpu=$OPTARG ;;
	s) size_arg=$OPTARG ;;
	n) num=$OPTARG ;;
	T) secs=$OPTARG ;;
	p) parts=$OPTARG ;;
	S) touch=0 ;;
	C) clyde=$OPTARG ;;
	*) opt_other "$opt" ;;
	esac
done
no_operands "${@:OPTIND}"
whole_in -r "$runs" 1 99
whole_in -n "$num" 1 100000
whole_in -T "$secs" 1 3600
size_mib "$size_arg" "3g, 1024m, 2048"
pin_cpu "$cpu"
for p in ${parts//,/ }; do
	case $p in
	block | files | ranread | ranread-D | own) ;;
	*) die_usage "-p '$p': not a part (block, files, ranread, ranread-D, own)" ;;
	esac
done
want() { [[ ,$parts, == *,$1,* ]]; }
writable_dir "$dir"
! want ranread-D || writable_dir "$disk"
find_clyde
find_bonnie
if want block || want files; then
	[[ -n $bonnie ]] || die_usage "needs bonnie++ (apt-get install bonnie++)"
fi
if want ranread || want ranread-D; then
	command -v fio >/dev/null || die_usage "needs fio (apt-get install fio)"
fi
if want own; then
	command -v cc >/dev/null || die_usage "-p own needs a C compiler (apt-get install gcc)"
fi
if want ranread || want ranread-D || want own; then
	command -v jq >/dev/null || die_usage "needs jq (apt-get install jq)"
fi
size_mib=$((size / 1024 / 1024))

works=()
reporting=/sys/module/page_reporting/parameters/page_reporting_order
reporting_was=
cleanup() {
	stop_child
	for w in "${works[@]}"; do rm -rf -- "$w"; done
	[[ -z $reporting_was ]] || echo "$reporting_was" >"$reporting"
}
trap_cleanup
work=$(mktemp -d "${dir%/}/clyde-cost.XXXXXX")
works+=("$work")
dwork=
if want ranread-D; then
	dwork=$(mktemp -d "${disk%/}/clyde-cost.XXXXXX")
	works+=("$dwork")
fi

declare -A vals=()

# touch_memory: a file of most of what the tmpfs and the RAM have free,
# written and removed.
touch_memory() {
	local avail mem mib
	avail=$(($(df_free "$dir") / 1048576 - 1024))
	mem=$(awk '/^MemAvailable:/ { print int($2 / 1024) - 2048 }' /proc/meminfo)
	mib=$((avail < mem ? avail : mem))
	((mib > 0)) || return 0
	printf '  touching %d MiB of memory in %s\n' "$mib" "$dir" >&2
	run_or_die "dd: could not touch the memory" dd if=/dev/zero \
		of="$work/touch" bs=1M count="$mib" status=none
	rm -f -- "$work/touch"
}

# bonnie_like KEY NAME FIELDS CMD...: one pinned run of CMD; the 1-based
# FIELDS (space-separated) of its 1.98 line filed under KEY.<field>.
bonnie_like() {
	local key=$1 name=$2 fields=$3 figs f i=0
	shift 3
	run_or_die "$name failed" "${pin[@]}" "$@"
	# shellcheck disable=SC2086
	figs=$(csv_fields "$work/out" $fields) ||
		die "$name: no single 1.98 CSV line with its figures"
	for f in $figs; do
		i=$((i + 1))
		add "$key.$(cut -d' ' -f"$i" <<<"$fields")" "$f"
	done
}

# clyde_ran DIR DIRECT: one pinned run of clyde's ran_read; its IOPS and
# its user CPU ns per I/O.
clyde_ran() {
	local d=() w=$1/c
	[[ $2 == 1 ]] && d=(-D)
	mkdir -p "$w"
	run "$work/out" "$work/err" "${pin[@]}" "$clyde" -d "$w" -s 1g -r 0 \
		-n 0 -f -q --only=ran_read --iodepth=32 --ran-bs=4k \
		--ran-time="$secs" --ran-ops=1099511627776 "${d[@]}" \
		--json="$work/c.json" || { show_err "$work/err"; die "clyde failed"; }
	rm -rf -- "$w"
	jq -r '.runs[0].tests.ran_read | "\(.rate) \(.user * 1e9 / .work)"' \
		"$work/c.json"
}

# fio_ran DIR DIRECT: one pinned run of fio's randread, io_uring, depth
# 32, on a file laid out afresh (unpinned, untimed); its IOPS and its
# user CPU ns per I/O.
fio_ran() {
	rm -f -- "$1/fio.dat"
	fio --name=layout --filename="$1/fio.dat" --size=1g --rw=write \
		--bs=1m --direct="$2" --output=/dev/null || die "fio: cannot lay out $1/fio.dat"
	run "$work/f.json" "$work/err" "${pin[@]}" fio --name=ranread \
		--filename="$1/fio.dat" --size=1g --rw=randread --bs=4k \
		--ioengine=io_uring --iodepth=32 --direct="$2" --invalidate=1 \
		--runtime="$secs" --time_based --output-format=json ||
		{ show_err "$work/err"; die "fio failed"; }
	rm -f -- "$1/fio.dat"
	jq -r '.jobs[0] | "\(.read.iops) \(.usr_cpu / 100 * .job_runtime *
		1e6 / .read.total_ios)"' "$work/f.json"
}

# ran_pair KEY DIR DIRECT: a run of clyde's random reads and one of
# fio's; their IOPS filed under clyde.KEY and fio.KEY, their user CPU
# per I/O under clyde.KEY.usr and fio.KEY.usr.
ran_pair() {
	local tool v u
	for tool in clyde fio; do
		read -r v u < <("${tool}_ran" "$2" "$3")
		add "$tool.$1" "$v"
		add "$tool.$1.usr" "$u"
	done
}

# shim_build: the write shim of part "own" in $work/shim.so: write() to
# the last file opened O_CREAT|O_EXCL (the data file) returns at once.
shim_build() {
	cat >"$work/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>
#include <unistd.h>

static int data_fd = -1;

int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	mode_t mode = 0;
	va_list ap;
	int fd;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (!real)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT,
								   "openat");
	fd = real(dirfd, path, flags, mode);
	if (fd >= 0 && (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		data_fd = fd;
	return fd;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (fd == data_fd)
		return (ssize_t)n;
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT,
								     "write");
	return real(fd, buf, n);
}
EOF
	run_or_die "cc: could not build the write shim" cc -O2 -shared -fPIC \
		-o "$work/shim.so" "$work/shim.c" -ldl
}

# own_loop KEY OPTS...: one pinned run of block output under the shim
# (nothing is written: the size need only fit what is free); its ns per
# write filed under KEY.
own_loop() {
	local key=$1 ns
	shift
	run "$work/out" "$work/err" env LD_PRELOAD="$work/shim.so" "${pin[@]}" \
		"$clyde" -d "$work" -s "${own_mib}m:8192" -r 0 -n 0 -f -q \
		--only=put_block --json="$work/o.json" "$@" ||
		{ show_err "$work/err"; die "clyde under the write shim failed"; }
	ns=$(jq -r '.runs[0].tests.put_block | .elapsed * 1e9 / (.work / 8192)' \
		"$work/o.json") || die "clyde under the write shim: no JSON figure"
	add "$key" "$ns"
}

# stats KEY: "median min max" of KEY's runs (+++++ sorts as the fastest).
stats() {
	# shellcheck disable=SC2086
	printf '%s\n' ${vals[$1]:-} | awk '
		{ v[++n] = ($1 == "+++++") ? -1 : $1 + 0 }
		END {
			if (!n) { print "- - -"; exit }
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && (v[j-1] == -1 || (v[j] != -1 && v[j] < v[j-1])); j--) {
					t = v[j]; v[j] = v[j-1]; v[j-1] = t
				}
			m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] == -1 || v[n / 2 + 1] == -1 ? -1 : (v[n / 2] + v[n / 2 + 1]) / 2)
			f = "%.0f"
			printf f " " f " " f "\n", m, v[1], v[n]
		}' | sed 's/\(^\| \)-1/\1+++++/g'
}

# row LABEL CKEY AKEY: one line of the table.
row() {
	local cm cl ch am al ah r
	read -r cm cl ch < <(stats "$2")
	read -r am al ah < <(stats "$3")
	r=$(awk -v c="$cm" -v a="$am" 'BEGIN {
		if (c !~ /^[0-9.]+$/ || a !~ /^[0-9.]+$/ || a == 0) print "-"
		else printf "%.2f", c / a }')
	printf '%-30s %11s %19s %11s %19s %6s\n' "$1" "$cm" "($cl-$ch)" \
		"$am" "($al-$ah)" "$r"
}

runs_begin
signal_eol=1
printf '%s: pinned to %s, %d runs of each, interleaved; load %s\n' "$prog" \
	"${pin[*]:-no CPU}" "$runs" "$load1" >&2
# An order above any the allocator has: no free block is reported.
if [[ -w $reporting ]] && was=$(cat "$reporting") && echo 11 >"$reporting"; then
	reporting_was=$was
	printf '  free page reporting held off (page_reporting_order %s -> 11)\n' \
		"$was" >&2
fi
((touch == 0)) || touch_memory
if want own; then
	shim_build
	# 16 GiB of writes (2M), or what the tmpfs has free less 1 GiB.
	own_mib=$(($(df_free "$dir") / 1048576 - 1024))
	((own_mib <= 16384)) || own_mib=16384
	((own_mib >= 1024)) || die_usage "-d $dir: under 2 GiB free, too little for part own"
fi

# The 1.98 line's fields (1-based): put_block 12, rewrite 14, get_block
# 18; sequential create 27, random create 33, random stat 35.
for ((i = 1; i <= runs; i++)); do
	if want block; then
		printf '\r  block output: run %d/%d ' "$i" "$runs" >&2
		bonnie_like clyde clyde "12 14 18" "$clyde" -d "$work" \
			-s "$size_mib:8192" -r 0 -n 0 -f -q
		bonnie_like bonnie bonnie++ "12 14 18" "$bonnie" -d "$work" \
			-s "$size_mib:8192" -r 0 -n 0 -f -q "${bonnie_user[@]}"
	fi
	if want files; then
		printf '\r  file tests: run %d/%d   ' "$i" "$runs" >&2
		bonnie_like clyde clyde "27 29 31 33 35 37" "$clyde" -d "$work" \
			-s 0 -n "$num" -q
		bonnie_like bonnie bonnie++ "27 29 31 33 35 37" "$bonnie" \
			-d "$work" -s 0 -n "$num" -q "${bonnie_user[@]}"
	fi
	if want ranread; then
		printf '\r  random reads, tmpfs: run %d/%d ' "$i" "$runs" >&2
		ran_pair ranread "$work" 0
	fi
	if want ranread-D; then
		printf '\r  random reads, -D: run %d/%d ' "$i" "$runs" >&2
		ran_pair ranreadD "$dwork" 1
	fi
	if want own; then
		printf '\r  own cost: run %d/%d      ' "$i" "$runs" >&2
		own_loop own.default
		own_loop own.nolat --no-latency
		own_loop own.zero --data=zero
	fi
done
echo >&2
runs_end

if want block || want files || want ranread || want ranread-D; then
	printf '%-30s %11s %19s %11s %19s %6s\n' figure clyde "(min-max)" \
		anchor "(min-max)" ratio
fi
if want block; then
	row "block output KiB/s" clyde.12 bonnie.12
	row "rewrite KiB/s" clyde.14 bonnie.14
	row "block input KiB/s" clyde.18 bonnie.18
fi
if want files; then
	row "sequential create /s" clyde.27 bonnie.27
	row "sequential stat /s" clyde.29 bonnie.29
	row "sequential delete /s" clyde.31 bonnie.31
	row "random create /s" clyde.33 bonnie.33
	row "random stat /s" clyde.35 bonnie.35
	row "random delete /s" clyde.37 bonnie.37
fi
want ranread && row "4k randread qd32 tmpfs IOPS" clyde.ranread fio.ranread
want ranread-D && row "4k randread qd32 -D IOPS" clyde.ranreadD fio.ranreadD
# own_row LABEL KEY: a line of clyde's own cost.
own_row() {
	local m l h
	read -r m l h < <(stats "$2")
	printf '  %-44s %6s ns  (%s-%s)\n' "$1" "$m" "$l" "$h"
}
if want own; then
	printf '\nclyde'"'"'s own cost per operation (median, min-max):\n'
	own_row "block output's loop, a write taken out" own.default
	own_row "  the same with --no-latency" own.nolat
	own_row "  the same with --data=zero (no stamps)" own.zero
fi
if want ranread || want ranread-D; then
	printf '\nuser CPU per I/O of the random reads (median; clyde, fio):\n'
	for k in ranread ranreadD; do
		[[ -n ${vals[clyde.$k.usr]:-} ]] || continue
		printf '  %-9s %6s ns  %6s ns\n' "$k" \
			"$(stats "clyde.$k.usr" | cut -d' ' -f1)" \
			"$(stats "fio.$k.usr" | cut -d' ' -f1)"
	done
fi
printf '\nanchors: %s (block, files), fio %s io_uring (random reads)\n' \
	"bonnie++ $(dpkg-query -W -f '${Version}' bonnie++ 2>/dev/null || echo '?')" \
	"$(fio --version 2>/dev/null)"
printf 'block output -s %s, chunk 8192; files -n %d; random reads 1g, 4k, depth 32, %d s\n' \
	"$size_arg" "$num" "$secs"
printf '%s %s, disk %s %s\n' "$dir" "$(stat -f -c %T "$dir")" \
	"${dwork:+$disk}" "${dwork:+$(stat -f -c %T "$disk")}"
printf 'load average: %s before, %s after\n' "$load1" "$load2"
if [[ -n $reporting_was ]]; then
	printf 'free page reporting: held off for the series\n'
elif [[ -e $reporting ]]; then
	printf 'free page reporting: left on (not root?): figures may alternate\n'
fi
changed_note
printf 'all runs (clyde; anchor):\n'
for k in 12 14 18 27 29 31 33 35 37; do
	[[ -n ${vals[clyde.$k]:-} ]] || continue
	printf '  field %-3s %s; %s\n' "$k" "${vals[clyde.$k]}" "${vals[bonnie.$k]:-}"
done
for k in ranread ranreadD; do
	[[ -n ${vals[clyde.$k]:-} ]] || continue
	printf '  %-9s %s; %s\n' "$k" "${vals[clyde.$k]}" "${vals[fio.$k]:-}"
done
