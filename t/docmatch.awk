# SPDX-License-Identifier: GPL-2.0-or-later
# docmatch.awk: does a run's output have the shape a document shows?
#
#   awk -f docmatch.awk EXPECTED ACTUAL
#
# Exit 0 when it does; else 1, after printing the first expected line
# that no actual line met and the actual line it was held against.
#
# Lines are compared after whitespace runs are squeezed to one space
# (leading and trailing whitespace dropped) and every number is masked
# in both: digits with optional decimal parts and a unit after them (K
# M G T P, KiB, MB, MiB/s, k/s, ms, us, ns, s, %...). A number inside a
# word (p99, qd16, sda1) is part of the word and compared as written.
# Commas are not part of a number: they separate a CSV line's fields,
# which are counted. Where EXPECTED has a number ACTUAL may have
# bonnie++'s marks of a test too fast to time (+++++ ++++ +++), not the
# other way round. An EXPECTED line that is exactly "..." stands for
# any number of lines, none included. Trailing blank lines of either
# file are dropped.

function mask(s) {
	gsub(/[ \t]+/, " ", s)
	sub(/^ /, "", s)
	sub(/ $/, "", s)
	# A number starts where no letter, digit or underscore stands
	# before it (so p99 stays p99); \002 keeps that mark in the text.
	s = " " s
	while (match(s, /[^A-Za-z0-9_.\001][-+]?[0-9]+(\.[0-9]+)*([KMGTPkmgtp]i?[Bb]?(\/s)?|[mun]?s|%|B\/s|B|x)?/)) {
		pre = substr(s, 1, RSTART)
		rest = substr(s, RSTART + RLENGTH)
		# A unit is only a unit when the word ends after it: 3rd,
		# 4kn and 2nd keep their letters.
		if (rest ~ /^[A-Za-z]/ && substr(s, RSTART + 1, RLENGTH - 1) ~ /[A-Za-z%]$/) {
			m = substr(s, RSTART + 1, RLENGTH - 1)
			sub(/[A-Za-z%\/]+$/, "", m)
			rest = substr(s, RSTART + 1 + length(m))
		}
		s = pre "\001" rest
	}
	return substr(s, 2)
}

# Does actual line a meet expected line e (both masked)?
function meets(e, a,    i, j, le, la, c, k) {
	le = length(e)
	la = length(a)
	i = 1
	j = 1
	while (i <= le && j <= la) {
		c = substr(e, i, 1)
		if (c == "\001" && substr(a, j, 1) == "+") {
			k = j
			while (k <= la && substr(a, k, 1) == "+")
				k++
			if (k - j < 3 || k - j > 5)
				return 0
			i++
			j = k
			continue
		}
		if (c != substr(a, j, 1))
			return 0
		i++
		j++
	}
	return i > le && j > la
}

function load(file, raw, mk,    n, line, last) {
	n = 0
	last = 0
	while ((getline line < file) > 0) {
		raw[++n] = line
		mk[n] = mask(line)
		if (mk[n] != "")
			last = n
	}
	close(file)
	return last
}

BEGIN {
	if (ARGC != 3) {
		print "usage: awk -f docmatch.awk EXPECTED ACTUAL" > "/dev/stderr"
		exit 2
	}
	ne = load(ARGV[1], eraw, emk)
	na = load(ARGV[2], araw, amk)

	# Wildcard matching over lines, "..." as the star: on a miss, go
	# back to the last "..." and let it take one line more.
	i = 1
	j = 1
	star = 0
	far_i = 0
	while (j <= na) {
		if (i <= ne && emk[i] == "...") {
			star = i
			mark = j
			i++
			continue
		}
		if (i <= ne && meets(emk[i], amk[j])) {
			i++
			j++
			continue
		}
		if (i > far_i) {
			far_i = i
			far_j = j
		}
		if (!star)
			break
		i = star + 1
		mark++
		j = mark
	}
	while (j > na && i <= ne && emk[i] == "...")
		i++
	if (i > ne && j > na)
		exit 0
	if (i > far_i) {
		far_i = i
		far_j = j
	}
	if (far_i <= ne)
		printf "expected line %d: %s\n", far_i, eraw[far_i]
	else
		printf "expected: no more lines\n"
	if (far_j <= na)
		printf "actual line %d:   %s\n", far_j, araw[far_j]
	else
		printf "actual: no more lines (%d in all)\n", na
	exit 1
}
