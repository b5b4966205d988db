# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2154
# Helpers shared by the scripts in contrib/bench; sourced, not run. The
# caller sets prog (its name, for messages), clyde (the binary) and, for
# add, an associative array vals.

die_usage() {
	printf '%s: %s\n' "$prog" "$1" >&2
	exit 2
}

die() {
	printf '%s: %s\n' "$prog" "$1" >&2
	exit 1
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

show_err() {
	sed 's/^/    /' "$1" >&2
}

add() { vals[$1]+="${vals[$1]:+ }$2"; }

# A rebuild during the run would mix two binaries across the repeats.
fingerprint() { cksum <"$clyde" 2>/dev/null || echo missing; }

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
