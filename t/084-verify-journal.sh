#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --verify-only=DATA --journal=JOURNAL: the check of a data file after a
# cut against the journal of its run. The files come from t/mkjournal
# (lib/fill's blocks, lib/journal's writer; no run), whose cases have
# known answers: all acknowledged and intact passes; an acknowledged
# write whose block keeps the older generation fails (lost, its offset
# named); a write in flight over old or new content passes, counted; a
# block torn inside a write in flight passes, counted and named; a
# corrupt block outside one, or a byte flipped in an acknowledged one,
# fails with its offset. A journal of another data file (its size) or
# another run (its seed) is refused (exit 2), a cut or damaged journal or
# one that is not a journal is named in one line (exit 1). The --json
# document holds the counts, offsets and verdict, and clyde-report txt
# prints the same report from it, json writes it again. No check ever
# changes either file (checksums and mtimes).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
MKJOURNAL=${MKJOURNAL:-$(cd "$(dirname "$0")" && pwd)/mkjournal}
[ -x "$MKJOURNAL" ] || skip "no $MKJOURNAL (make -C t mkjournal)"
# fill_worker_seed(7, 1) and (8, 1): the content seeds of runs -z 7 and
# -z 8, all 64 bits used.
CS7=11400714819323198482
CS8=11400714819323198493

# mk NAME SEED TWEAK...: $WORK/NAME.d and its journal $WORK/NAME.j (16
# blocks; t/mkjournal.c lists the tweaks), dated in the past, so that a
# write by the check would show in their mtimes.
mk() {
	mk_name=$1 mk_seed=$2
	shift 2
	"$MKJOURNAL" "$WORK/$mk_name.d" "$WORK/$mk_name.j" "$mk_seed" 16 "$@" 2>"$WORK/mkerr" ||
		fail "mkjournal $mk_name: $(cat "$WORK/mkerr")"
	touch -d '2020-01-02 03:04:05' "$WORK/$mk_name.d" "$WORK/$mk_name.j"
}

# sums FILE...: each file's SHA-256 and mtime.
sums() {
	for s_f; do
		printf '%s %s\n' "$(sha256sum <"$s_f")" "$(stat -c %Y "$s_f")"
	done
}

# check WANT DATA JOURNAL [ARG...]: clyde --verify-only=$WORK/DATA.d
# --journal=$WORK/JOURNAL.j exits WANT (out and err in $WORK), and
# neither file changed.
check() {
	c_want=$1 c_d=$WORK/$2.d c_j=$WORK/$3.j
	shift 3
	c_sums=$(sums "$c_d" "$c_j")
	expect_status "$c_want" "$CLYDE" --verify-only="$c_d" --journal="$c_j" "$@"
	[ "$(sums "$c_d" "$c_j")" = "$c_sums" ] || fail "the check of $c_d changed a file"
}

# refused WANT TEXT DATA JOURNAL: one line holding TEXT (after the
# files' names), exit WANT, nothing on stdout, neither file changed.
refused() {
	r_d=$WORK/$3.d r_j=$WORK/$4.j
	r_sums=$(sums "$r_d" "$r_j")
	expect_one_line "$1" "clyde: --verify-only '$r_d' --journal '$r_j': $2" \
		"$CLYDE" --verify-only="$r_d" --journal="$r_j"
	[ "$(sums "$r_d" "$r_j")" = "$r_sums" ] || fail "the refusal of $r_d changed a file"
}

# out_is LINE...: stdout is exactly these lines.
out_is() {
	printf '%s\n' "$@" >"$WORK/want"
	cmp -s "$WORK/want" "$WORK/out" ||
		fail "report: $(diff "$WORK/want" "$WORK/out"; cat "$WORK/err")"
}

heading() { # NAME CLEAN|CUT
	case $2 in
	clean) h_how="the journal ended cleanly" ;;
	*) h_how="the journal was cut before its end" ;;
	esac
	echo "'$WORK/$1.d' against journal '$WORK/$1.j' ($h_how): 16 blocks of 4 KiB, run seed 7, content seed $CS7"
}

LOST="ACKNOWLEDGED BUT LOST: the storage acknowledged a write it did not keep"

# All acknowledged and intact; the last 2 blocks never written.
mk pass 7
check 0 pass pass
out_is "$(heading pass clean)" \
	"          14  acknowledged, intact" \
	"           2  never written by the run" \
	"verdict: PASS"
[ -s "$WORK/err" ] && fail "a pass said: $(cat "$WORK/err")"

# An acknowledged write lost: block 3 keeps generation 1.
mk lost 7 lost
check 1 lost lost
out_is "$(heading lost clean)" \
	"          13  acknowledged, intact" \
	"           1  $LOST; at offset 12288" \
	"           2  never written by the run" \
	"verdict: FAIL (1 acknowledged blocks lost, 0 corrupt)"

# A write in flight over blocks 6 to 8 at the cut: old content, new
# content, a block torn (named), each allowed.
mk old 7 inflight=ooo
check 0 old old
out_is "$(heading old cut)" \
	"          11  acknowledged, intact" \
	"           3  in flight at the cut: old content (allowed)" \
	"           2  never written by the run" \
	"verdict: PASS"
mk new 7 inflight=nnn
check 0 new new
grep -qxF "           3  in flight at the cut: new content (allowed)" "$WORK/out" &&
	grep -qx "verdict: PASS" "$WORK/out" || fail "in flight, new: $(cat "$WORK/out")"
mk torn 7 inflight=otn
check 0 torn torn
out_is "$(heading torn cut)" \
	"          11  acknowledged, intact" \
	"           1  in flight at the cut: old content (allowed)" \
	"           1  in flight at the cut: new content (allowed)" \
	"           1  torn, inside a write in flight (allowed); at offset 28672" \
	"           2  never written by the run" \
	"verdict: PASS"

# Corrupt outside any write in flight: garbage in block 2; a byte flipped
# in block 4 (acknowledged, gen 1).
mk corrupt 7 corrupt
check 1 corrupt corrupt
grep -qxF "           1  CORRUPT outside any write in flight; at offset 8192" "$WORK/out" &&
	grep -qx "verdict: FAIL (0 acknowledged blocks lost, 1 corrupt)" "$WORK/out" ||
	fail "corrupt: $(cat "$WORK/out")"
mk flip 7
printf 'Z' | dd of="$WORK/flip.d" bs=1 seek=$((4 * 4096 + 1000)) conv=notrunc status=none
touch -d '2020-01-02 03:04:05' "$WORK/flip.d"
check 1 flip flip
grep -qxF "           1  CORRUPT outside any write in flight; at offset 16384" "$WORK/out" ||
	fail "a flipped byte: $(cat "$WORK/out")"
# A file of zeros: every written block corrupt, the first 8 named.
mk zero 7
dd if=/dev/zero of="$WORK/zero.d" bs=4096 count=16 conv=notrunc status=none
check 1 zero zero
grep -qxF "          14  CORRUPT outside any write in flight; at offsets 0, 4096, 8192, 12288, 16384, 20480, 24576, 28672 (the first 8)" "$WORK/out" &&
	grep -qx "verdict: FAIL (0 acknowledged blocks lost, 14 corrupt)" "$WORK/out" ||
	fail "zeros: $(cat "$WORK/out")"

# A journal of another data file (the size its header names), of another
# run (the seed of the blocks).
mk size 7 size
refused 2 "a journal of another data file: the file is 65536 bytes, the journal's 69632" size size
mk other 8
refused 2 "a journal of another run: its blocks' seed is $CS7, the journal's $CS8" pass other

# A journal cut inside a record, a byte flipped in a record, a file that
# is no journal, one shorter than a header: exit 1, one line.
cp "$WORK/pass.j" "$WORK/cut.j"
truncate -s $((64 + 32 * 3 + 10)) "$WORK/cut.j"
refused 1 "the journal: truncated inside record 3" pass cut
# A byte flipped near a journal's end is what a cut leaves of the pages
# it was writing: those records are dropped, and said; with whole
# records far past it, it is damage: refused.
cp "$WORK/pass.j" "$WORK/rec.j"
printf 'Z' | dd of="$WORK/rec.j" bs=1 seek=$((64 + 32 + 5)) conv=notrunc status=none
check 0 pass rec
grep -q "(the journal was cut before its end, its last 32 records torn by the cut and dropped)" "$WORK/out" ||
	fail "a torn tail: $(cat "$WORK/out")"
"$MKJOURNAL" "$WORK/long.d" "$WORK/long.j" 7 400 2>"$WORK/mkerr" ||
	fail "mkjournal long: $(cat "$WORK/mkerr")"
printf 'Z' | dd of="$WORK/long.j" bs=1 seek=$((64 + 32 + 5)) conv=notrunc status=none
refused 1 "the journal: record 1 at byte 96: bad CRC, with whole records after it (record 258)" long long
cp "$WORK/pass.d" "$WORK/data.j"
refused 1 "the journal: not a clyde journal" pass data
printf 'hello\n' >"$WORK/short.j"
refused 1 "the journal: truncated: 6 bytes, shorter than the 64-byte header" pass short
# Missing, or not a regular file: exit 2 (a FIFO is not opened at all).
expect_one_line 2 "--journal '$WORK/none.j': the journal: No such file or directory" \
	"$CLYDE" --verify-only="$WORK/pass.d" --journal="$WORK/none.j"
mkfifo "$WORK/fifo.j"
expect_one_line 2 "the journal: not a regular file" \
	timeout 20 "$CLYDE" --verify-only="$WORK/pass.d" --journal="$WORK/fifo.j"
expect_one_line 2 "--verify-only '$WORK/none.d' --journal '$WORK/pass.j': the data file: No such file or directory" \
	"$CLYDE" --verify-only="$WORK/none.d" --journal="$WORK/pass.j"
expect_refused "^clyde: --json with --verify-only needs --journal" \
	"$CLYDE" --verify-only="$WORK/pass.d" --json="$WORK/x.json"
[ -e "$WORK/x.json" ] && fail "a refused --json made its file"

# The document: every verdict at once.
mk mix 7 lost corrupt inflight=ont
check 1 mix mix --json="$WORK/mix.json"
cp "$WORK/out" "$WORK/mix.txt"
grep -qx "verdict: FAIL (1 acknowledged blocks lost, 1 corrupt)" "$WORK/mix.txt" ||
	fail "mix: $(cat "$WORK/mix.txt")"
jq -e --arg d "$WORK/mix.d" --arg j "$WORK/mix.j" --arg cs "$CS7" '
	.schema_version == 1 and .program == "clyde" and (has("runs") | not) and
	(.journal_verify | keys_unsorted) == ["data", "journal", "run_seed",
		"content_seed", "file_size", "data_size", "journal_clean", "journal_torn",
		"counts", "first_offsets", "verdict"] and
	.journal_verify.data == $d and .journal_verify.journal == $j and
	.journal_verify.run_seed == "7" and .journal_verify.content_seed == $cs and
	.journal_verify.file_size == 65536 and .journal_verify.data_size == 65536 and .journal_verify.journal_clean == false and
	.journal_verify.journal_torn == 0 and
	.journal_verify.counts == {"intact": 9, "lost": 1, "in-flight-old": 1,
		"in-flight-new": 1, "torn": 1, "corrupt": 1, "unwritten": 2} and
	.journal_verify.first_offsets.lost == [12288] and
	.journal_verify.first_offsets.corrupt == [8192] and
	.journal_verify.first_offsets.torn == [32768] and
	.journal_verify.first_offsets["in-flight-old"] == [24576] and
	.journal_verify.first_offsets["in-flight-new"] == [28672] and
	.journal_verify.first_offsets.unwritten == [57344, 61440] and
	(.journal_verify.first_offsets.intact | length) == 8 and
	.journal_verify.verdict == "fail"' "$WORK/mix.json" >/dev/null ||
	fail "the document: $(jq -c .journal_verify "$WORK/mix.json")"
p_sums=$(sums "$WORK/pass.d" "$WORK/pass.j")
jq -e '.journal_verify.verdict == "pass"' >/dev/null <<EOF || fail "a pass's document"
$("$CLYDE" --verify-only="$WORK/pass.d" --journal="$WORK/pass.j" --json 2>"$WORK/err")
EOF
grep -qx "verdict: PASS" "$WORK/err" || fail "--json on stdout: the report not on stderr: $(cat "$WORK/err")"
[ "$(sums "$WORK/pass.d" "$WORK/pass.j")" = "$p_sums" ] || fail "--json on stdout: a file changed"

# clyde-report: txt prints the same report; json writes it again (and
# that again reads the same); a bad value is one line; html refuses it.
expect_status 0 "$CLYDE_REPORT" txt "$WORK/mix.json"
cmp -s "$WORK/out" "$WORK/mix.txt" || fail "clyde-report txt: $(diff "$WORK/mix.txt" "$WORK/out")"
expect_status 0 "$CLYDE_REPORT" json "$WORK/mix.json"
mv "$WORK/out" "$WORK/again.json"
jq -e '.converted_by | startswith("clyde-report ")' "$WORK/again.json" >/dev/null ||
	fail "json: no converted_by"
[ "$(jq -S 'del(.converted_by)' "$WORK/again.json")" = "$(jq -S . "$WORK/mix.json")" ] ||
	fail "json: not the document again: $(jq -c .journal_verify "$WORK/again.json")"
expect_status 0 "$CLYDE_REPORT" txt "$WORK/again.json"
cmp -s "$WORK/out" "$WORK/mix.txt" || fail "clyde-report txt of json's document"
jq '.journal_verify.counts.lost = 2' "$WORK/mix.json" >"$WORK/bad.json"
expect_one_line 2 "clyde-report: $WORK/bad.json: journal_verify.counts add up to 17 blocks: expected the file's 16" \
	"$CLYDE_REPORT" txt "$WORK/bad.json"
jq '.journal_verify.verdict = "pass"' "$WORK/mix.json" >"$WORK/bad.json"
expect_one_line 2 "journal_verify.verdict \"pass\" is not its counts' verdict" \
	"$CLYDE_REPORT" txt "$WORK/bad.json"
jq '.journal_verify.content_seed = 5' "$WORK/mix.json" >"$WORK/bad.json"
expect_one_line 2 "journal_verify.content_seed 5 is not a seed" \
	"$CLYDE_REPORT" txt "$WORK/bad.json"
expect_one_line 2 "a clyde journal check document; html reads clyde and bonnie++ results" \
	"$CLYDE_REPORT" html "$WORK/mix.json"
exit 0
