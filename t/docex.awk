# SPDX-License-Identifier: GPL-2.0-or-later
# docex.awk: the examples of one document, for t/091-doc-examples.sh.
#
#   awk -v out=DIR -f docex.awk DOCUMENT
#
# An example is a command shown after "$ " and the output shown under
# it. In a man page (a name ending in .1 to .9) examples live inside
# .nf/.fi or .EX/.EE: a line starting "$ " begins one, a command line
# ending in a backslash goes on to the next line, and the lines after
# the command up to .fi/.EE or the next "$ " are its output. The roff
# is undone: \- is -, \e and \\ are \, \& is nothing, \(aq \(dq \(ga are
# ' " `, font changes (\fB...) go; other escapes are kept as written;
# requests (lines starting with . or ') are not output.
# Anywhere else (README, markdown) an example is a block indented by
# exactly 4 spaces whose first line starts "$ "; its lines lose those 4
# spaces, a blank line inside the block is output, and the block ends
# at the first line that is not indented. A block whose first line is
# not a "$ " line is a recipe: not an example.
#
# For the Nth example DIR/N.cmd holds the whole command (continuation
# lines included) and DIR/N.exp its output; on standard output one line
# each: N, the example's line in DOCUMENT and the command's first line
# without its trailing backslash (the key of its map entry), tab apart.
# Trailing blank lines of an output are dropped.

BEGIN {
	n = 0
	incmd = 0
	inex = 0
	blk = 0
}

function unroff(s) {
	gsub(/\\f(\[[^]]*\]|\([A-Za-z][A-Za-z]|[A-Za-z1-4])/, "", s)
	gsub(/\\\(aq/, "'", s)
	gsub(/\\\(dq/, "\"", s)
	gsub(/\\\(ga/, "`", s)
	gsub(/\\-/, "-", s)
	gsub(/\\&/, "", s)
	# \e and \\ are a backslash; done last, as one pass, so that the
	# backslash they leave starts no escape of its own.
	gsub(/\\e|\\\\/, "\001", s)
	gsub(/\001/, "\\", s)
	return s
}

function key_of(s) {
	sub(/[ \t]*\\$/, "", s)
	return s
}

# Close the example being read, dropping its trailing blank lines.
function finish() {
	if (!inex)
		return
	for (i = 1; i <= nout; i++)
		if (i <= lastfull)
			print outl[i] > (out "/" n ".exp")
	close(out "/" n ".exp")
	close(out "/" n ".cmd")
	inex = 0
	incmd = 0
}

function start(cmdline, lineno) {
	finish()
	n++
	inex = 1
	nout = 0
	lastfull = 0
	printf "" > (out "/" n ".exp")
	print cmdline > (out "/" n ".cmd")
	printf "%d\t%d\t%s\n", n, lineno, key_of(cmdline)
	incmd = cmdline ~ /\\$/
}

function line_in(s) {
	if (incmd) {
		print s > (out "/" n ".cmd")
		incmd = s ~ /\\$/
		return
	}
	outl[++nout] = s
	if (s !~ /^[ \t]*$/)
		lastfull = nout
}

FNR == 1 {
	roff = FILENAME ~ /\.[1-9]$/
}

roff && /^\.(nf|EX)([ \t]|$)/ {
	finish()
	blk = 1
	next
}
roff && /^\.(fi|EE)([ \t]|$)/ {
	finish()
	blk = 0
	next
}
roff {
	if (!blk || /^[.']/)
		next
	s = unroff($0)
	if (s ~ /^\$ /)
		start(substr(s, 3), FNR)
	else if (inex)
		line_in(s)
	next
}

# Markdown and plain text.
/^    / {
	if (!blk) {
		# A block's first line decides what it is.
		blk = /^    \$ / ? 1 : 2
	}
	if (blk == 2)
		next
	s = substr($0, 5)
	if (!incmd && s ~ /^\$ /)
		start(substr(s, 3), FNR)
	else if (inex)
		line_in(s)
	next
}
/^[ \t]*$/ {
	if (blk == 1 && inex && !incmd)
		line_in("")
	next
}
{
	finish()
	blk = 0
}

END {
	finish()
}
