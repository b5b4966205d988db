#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completions made at build time (src/completion/) offer what
# each program's --help lists: every option of its help, and no other;
# the words of an option whose value is one of a few (clyde --data=,
# --sync-method, -y; clyde-report --format=), each of which the program
# takes; directories for -d, files for a FILE; clyde-report's
# subcommands as its first operand, then each subcommand's options as
# its usage line in --help has them. A completion with an option left
# out is caught (the check is run on such a copy too). Skips without
# bash-completion (its bash_completion script: BASH_COMPLETION=FILE).
T_SRCDIR=${T_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
. "$T_SRCDIR/lib.sh"

BASH_COMPLETION=${BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}
[ -r "$BASH_COMPLETION" ] ||
	skip "bash-completion is not installed ($BASH_COMPLETION)"
compdir=${T_TOP_BUILDDIR:-$T_SRCDIR/..}/src/completion
set +u
. "$BASH_COMPLETION" || fail "cannot load $BASH_COMPLETION"
set -u

# The function complete calls for each program, as its file says.
declare -A fns

# complete_line LINE: COMPREPLY for LINE completed at its end, one word a
# line in $WORK/got, sorted; readline's words: blanks apart, and each
# '=' or ':' a word of its own.
complete_line() {
	local line=$1 w="" c i fn
	COMP_WORDS=()
	for ((i = 0; i < ${#line}; i++)); do
		c=${line:i:1}
		case $c in
		' ')
			[[ -n $w ]] && COMP_WORDS+=("$w")
			w=""
			;;
		[=:])
			[[ -n $w ]] && COMP_WORDS+=("$w")
			COMP_WORDS+=("$c")
			w=""
			;;
		*) w+=$c ;;
		esac
	done
	[[ -n $w || $line == *' ' ]] && COMP_WORDS+=("$w")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	fn=${fns[${COMP_WORDS[0]}]-}
	[[ -n $fn ]] || fail "no completion for ${COMP_WORDS[0]}"
	set +u
	"$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	set -u
	if ((${#COMPREPLY[@]})); then
		printf '%s\n' "${COMPREPLY[@]}" | sort -u >"$WORK/got"
	else
		: >"$WORK/got"
	fi
}

# strip_eq: $WORK/got's options without the '=' of "--name=".
strip_eq() {
	sed 's/=$//' "$WORK/got" | sort -u >"$WORK/got.tmp"
	mv "$WORK/got.tmp" "$WORK/got"
}

# same WHAT WANT-FILE: $WORK/got holds the lines of WANT-FILE, no more.
same() {
	sort -u "$2" >"$WORK/want"
	if ! cmp -s "$WORK/want" "$WORK/got"; then
		echo "$1: not offered: $(comm -23 "$WORK/want" "$WORK/got" |
			tr '\n' ' ')" >&2
		echo "$1: offered, not wanted: $(comm -13 "$WORK/want" \
			"$WORK/got" | tr '\n' ' ')" >&2
		return 1
	fi
}

# help_options BIN: the options its --help lists (each entry's "-k",
# "--name": its line's first word, and the next after a comma), one a
# line.
help_options() {
	"$1" --help | awk '
		/^  -/ {
			n = $1 ~ /,$/ ? 2 : 1
			for (i = 1; i <= n; i++) {
				sub(/[,=[].*/, "", $i)
				print $i
			}
		}' | sort -u
}

# check_options PROG BIN: "PROG -" offers every option of --help, no other.
check_options() {
	help_options "$2" >"$WORK/help"
	[ "$(wc -l <"$WORK/help")" -gt 5 ] || fail "$1 --help: few options"
	complete_line "$1 -"
	strip_eq
	same "$1 -" "$WORK/help"
}

# The programs as complete knows them (their names), each file loaded.
names="clyde clyde-report clyde-zcav clyde-sweep clyde-pgscan clyde-curve"
bins=("$CLYDE" "$CLYDE_REPORT" "$CLYDE_ZCAV" "$CLYDE_SWEEP" "$CLYDE_PGSCAN"
	"$CLYDE_CURVE")
k=0
for p in $names; do
	[ -f "$compdir/$p" ] || fail "no $compdir/$p (make builds it)"
	. "$compdir/$p" || fail "$compdir/$p does not load"
	fns[$p]=$(complete -p "$p" | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
	check_options "$p" "${bins[k]}" || fail "$p: completion and --help differ"
	k=$((k + 1))
done

# An option left out of a completion is caught: clyde's with --csv gone.
sed "/\['--csv'\]/d" "$compdir/clyde" >"$WORK/clyde-less"
. "$WORK/clyde-less"
check_options clyde "$CLYDE" 2>"$WORK/err" &&
	fail "a completion without --csv passed the check"
grep -q "not offered: --csv $" "$WORK/err" ||
	fail "a missing --csv was not named: $(cat "$WORK/err")"
. "$compdir/clyde"

# taken PROG-BIN OPTION WORD: the program takes WORD as OPTION's value
# (the parse goes on to an unknown option after it, and says so).
taken() {
	local opt=$2 word=$3
	if [[ $opt == --* ]]; then
		"$1" "$opt=$word" --no-such-option >/dev/null 2>"$WORK/err"
	else
		"$1" "$opt" "$word" --no-such-option >/dev/null 2>"$WORK/err"
	fi
	[[ $(<"$WORK/err") == *--no-such-option* ]] ||
		fail "$1 $opt $word: refused: $(cat "$WORK/err")"
}

# Each option with words: completed after "--name=" (or "-k ") with its
# words, each one the program takes (a word ending in ':' is a head).
k=0
n=0
for p in $names; do
	"${bins[k]}" --dump-options | awk -F '\t' '$1 == "option" && $5 == "words"' \
		>"$WORK/words"
	while IFS=$'\t' read -r _ short long _ _ _ words; do
		opt=$long
		line="$p $long="
		if [ "$opt" = - ]; then
			opt=$short
			line="$p $short "
		fi
		printf '%s\n' $words >"$WORK/w"
		complete_line "$line"
		same "$line" "$WORK/w" || fail "$line: not its words"
		for w in $words; do
			case $w in
			*:) ;;
			*) taken "${bins[k]}" "$opt" "$w" ;;
			esac
		done
		n=$((n + 1))
	done <"$WORK/words"
	k=$((k + 1))
done
[ $n -ge 10 ] || fail "only $n options with words"

# clyde --data= offers each of lib/fill.c's modes.
complete_line "clyde --data="
printf '%s\n' random zero compress: dedupe: >"$WORK/w"
same "clyde --data=" "$WORK/w" || fail "clyde --data= offered other words"
complete_line "clyde --sync-method "
printf '%s\n' fdatasync fsync dsync sync >"$WORK/w"
same "clyde --sync-method" "$WORK/w" || fail "--sync-method's words"

# Directories for -d, files for a FILE.
mkdir -p "$WORK/t/sub" && : >"$WORK/t/file"
complete_line "clyde -d $WORK/t/"
echo "$WORK/t/sub" >"$WORK/w"
same "clyde -d" "$WORK/w" || fail "clyde -d: not the directories"
complete_line "clyde --journal=$WORK/t/"
printf '%s\n' "$WORK/t/sub" "$WORK/t/file" >"$WORK/w"
same "clyde --journal=" "$WORK/w" || fail "clyde --journal=: not the files"

# clyde-report: the subcommands first, each one it takes; files after.
complete_line "clyde-report "
printf '%s\n' txt html compare plot json >"$WORK/w"
same "clyde-report" "$WORK/w" || fail "clyde-report: not its subcommands"
for c in $(cat "$WORK/got"); do
	"$CLYDE_REPORT" "$c" "$WORK/none" >/dev/null 2>"$WORK/err"
	[[ $(<"$WORK/err") != *"unknown subcommand"* ]] ||
		fail "clyde-report $c: $(cat "$WORK/err")"
done
complete_line "clyde-report --skip-bad compare $WORK/t/f"
echo "$WORK/t/file" >"$WORK/w"
same "clyde-report compare FILE" "$WORK/w" || fail "compare: not the files"

# A subcommand's options: those of its usage line in --help, each
# option's long name (-o's --output) beside --help and --version.
"$CLYDE_REPORT" --help | sed -n '/^$/q;p' | tr '\n' ' ' |
	sed 's/ *clyde-report /\n/g' >"$WORK/usage"
"$CLYDE_REPORT" --help | awk '/^  -[a-z], --/ {
		sub(/^  /, ""); sub(/[=[ ].*/, "", $2); print $1 $2 }' |
	sed 's/,/ /' >"$WORK/pairs"
for c in txt html compare plot json; do
	grep -E "\] +$c( |\$)" "$WORK/usage" | grep -o '\[--\?[a-z][-a-z]*' |
		tr -d '[' >"$WORK/u"
	[ -s "$WORK/u" ] || fail "no usage line for $c"
	{
		while read -r short long; do
			grep -qx -- "$short" "$WORK/u" && echo "$long"
		done <"$WORK/pairs"
		grep -- '^--' "$WORK/u"
		printf '%s\n' --help --version
	} >"$WORK/w"
	complete_line "clyde-report $c --"
	strip_eq
	same "clyde-report $c --" "$WORK/w" || fail "$c: not its options"
done
complete_line "clyde-report --title=T compare --ti"
[ ! -s "$WORK/got" ] || fail "compare offered $(cat "$WORK/got")"
exit 0
