#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkcompletion.sh PROG BINARY: PROG's bash completion on stdout, made
# from `BINARY --dump-options` (the option engine's table of the
# entries --help is written from: opt_dump in src/common/optable.h), so
# the completion offers what the program takes and nothing else. Run at
# build time; the file is installed as bash-completion's
# completions/PROG, which bash loads the first time PROG is completed.
#
# The file holds PROG's table as bash arrays and one function,
# _clyde_complete, alike in every program's file, that reads them:
# options after "-" (clyde-report's by its subcommand, once given), an
# option's value from its words, or a directory, file, user or group
# name, clyde-report's subcommand as its first operand, then files.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: mkcompletion.sh PROG BINARY" >&2
	exit 2
fi
prog=$1
bin=$2
dump=$("$bin" --dump-options) || {
	echo "mkcompletion.sh: $bin --dump-options failed" >&2
	exit 1
}
case $dump in
*option*) ;;
*)
	echo "mkcompletion.sh: $bin --dump-options listed no option" >&2
	exit 1
	;;
esac
id=_$(printf '%s' "$prog" | tr -c 'A-Za-z0-9_' '_')

printf '%s\n' "# bash completion for $prog, made by mkcompletion.sh from" \
	"# \`$prog --dump-options\`: the options its --help lists." \
	"# shellcheck shell=bash disable=SC2207"
printf '%s\n' "$dump" | awk -F '\t' -v id="$id" '
# A word quoted for bash: in single quotes, a quote as '\''.
function q(s) {
	gsub(/\047/, "\047\\\047\047", s)
	return "\047" s "\047"
}
function put(spelt) {
	val = val "\n\t[" q(spelt) "]=" $4
	kind = kind "\n\t[" q(spelt) "]=" q($5)
	tags = tags "\n\t[" q(spelt) "]=" $6
	if ($7 != "-")
		words = words "\n\t[" q(spelt) "]=" q($7)
}
$1 == "option" && NF == 7 {
	if ($2 != "-")
		put($2)
	if ($3 != "-")
		put($3)
	next
}
$1 == "command" && NF == 3 { cmds = cmds "\n\t[" q($2) "]=" $3; next }
$1 == "operands" { operands = 1; next }
{ print "mkcompletion.sh: a line not understood: " $0 > "/dev/stderr"; bad = 1 }
END {
	if (bad)
		exit 1
	print "declare -gA " id "_val=(" val "\n)"
	print "declare -gA " id "_kind=(" kind "\n)"
	print "declare -gA " id "_tags=(" tags "\n)"
	print "declare -gA " id "_words=(" words "\n)"
	print "declare -gA " id "_cmds=(" cmds "\n)"
	print id "_operands=" (operands ? 1 : 0)
}'

cat <<'EOF'

# _clyde_complete ID: COMPREPLY for the word at cword (_init_completion's
# cur, prev, words, cword and split), from the arrays ID_val (an
# option's value: none, required, optional, next), ID_kind (words, dir,
# file, user, group, -), ID_tags (the subcommands taking it, 0: all),
# ID_words, ID_cmds (a subcommand's tag) and ID_operands.
_clyde_complete()
{
	local -n val=${1}_val kind=${1}_kind tags=${1}_tags
	local -n wordsof=${1}_words cmds=${1}_cmds operands=${1}_operands
	local i w cmd="" mask=0 ended=0 o t
	local -a opts=()

	# The subcommand: the first word that is neither an option nor the
	# value of the option before it.
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		if [[ $w == -- ]]; then
			ended=1
			break
		elif [[ $w == -?* ]]; then
			[[ $w != *=* && ${val[$w]-} == required ]] && ((i++))
		else
			if [[ ${cmds[$w]-} ]]; then
				cmd=$w
				mask=${cmds[$w]}
			fi
			break
		fi
	done

	# An option's value: after "--name=" or after an option that
	# needs one.
	if ((!ended)) && [[ ${val[$prev]-} ]] &&
		[[ $split == true || ${val[$prev]} == required ]]; then
		case ${kind[$prev]} in
		words)
			COMPREPLY=($(compgen -W "${wordsof[$prev]}" -- "$cur"))
			[[ " ${COMPREPLY[*]-} " == *": "* ]] && compopt -o nospace
			__ltrim_colon_completions "$cur"
			;;
		dir) _filedir -d ;;
		file) _filedir ;;
		user)
			if [[ $cur == *:* ]]; then
				COMPREPLY=($(compgen -P "${cur%%:*}:" -g -- "${cur#*:}"))
				__ltrim_colon_completions "$cur"
			else
				COMPREPLY=($(compgen -u -- "$cur"))
			fi
			;;
		group) COMPREPLY=($(compgen -g -- "$cur")) ;;
		esac
		return
	fi
	[[ $split == true ]] && return

	if ((!ended)) && [[ $cur == -* || $operands == 0 ]]; then
		for o in "${!val[@]}"; do
			t=${tags[$o]}
			((mask && t && !(t & mask))) && continue
			if [[ $o == --* && ${val[$o]} == required ]]; then
				opts+=("$o=")
			else
				opts+=("$o")
			fi
		done
		COMPREPLY=($(compgen -W "${opts[*]}" -- "$cur"))
		[[ " ${COMPREPLY[*]-} " == *"= "* ]] && compopt -o nospace
		return
	fi
	if ((${#cmds[@]})) && [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "${!cmds[*]}" -- "$cur"))
		return
	fi
	_filedir
}
EOF
cat <<EOF

${id}()
{
	local cur prev words cword split
	_init_completion -s -n : || return
	_clyde_complete ${id}
} &&
	complete -F ${id} ${prog}
EOF
