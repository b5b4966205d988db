#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# clyde-pgscan on a small table (32 MiB, two cold scans): the one line
# (scan MB/s, its share of block input, the backend's CPU share, the
# verdict) and the JSON document (program, settings.pgscan, a pg_scan
# test beside get_block in each run, the line's figures the document's).
# Refusals are one line naming the value, exit 2, nothing made: root
# without -u, --drop-caches not as root, a socket path too long for
# sun_path, bad -x and -s. A server that does not start (a pg_ctl that
# gives it a setting it refuses) is one line from the server's log,
# exit 1. SIGINT in the middle of a scan (as root, slowed by a blkio read
# cap on a loop device) stops with 130: no server process, no file, no
# shared memory left. As root everything runs as nobody (-u nobody), and
# the --json file is nobody's as clyde's is: a directory only root may
# write is refused before anything runs, by clyde-pgscan and by clyde,
# and the document is written where nobody can write, owned by nobody.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

PGSCAN=${CLYDE_PGSCAN:-$(dirname "$CLYDE")/clyde-pgscan}
command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n | tail -1)
[ -n "$BIN" ] && [ -x "$BIN/initdb" ] && [ -x "$BIN/pgbench" ] ||
	skip "PostgreSQL not installed (apt-get install postgresql)"

# As root: every run as nobody, in directories nobody may enter.
AS=""
if [ "$(id -u)" = 0 ]; then
	id nobody >/dev/null 2>&1 || skip "no user nobody to run PostgreSQL as"
	AS="-u nobody"
	chmod 711 "$WORK"
	# The clyde that runs block input runs as nobody too: from a tree
	# nobody cannot enter (a clone under /root), a copy of the two
	# programs in WORK is run instead.
	if ! runuser -u nobody -- test -x "$CLYDE" 2>/dev/null ||
		! runuser -u nobody -- test -x "$PGSCAN" 2>/dev/null; then
		mkdir "$WORK/bin"
		cp "$CLYDE" "$WORK/bin/clyde" && cp "$PGSCAN" "$WORK/bin/clyde-pgscan" ||
			fail "cannot copy the programs to $WORK/bin"
		chmod 755 "$WORK/bin" "$WORK/bin/clyde" "$WORK/bin/clyde-pgscan"
		CLYDE_BIN=$WORK/bin/clyde
		export CLYDE_BIN
		PGSCAN=$WORK/bin/clyde-pgscan
	fi
fi
D="$WORK/pg"
mkdir "$D"
[ -n "$AS" ] && chown nobody "$D"
# Where the document goes: as root, a directory nobody can write.
OUT="$WORK"
if [ -n "$AS" ]; then
	OUT="$WORK/pub"
	mkdir -m 1777 "$OUT"
fi

# no_server DIR WHAT: no process names DIR (a postgres, psql, clyde).
no_server() {
	left=$(pgrep -af -- "$1" | grep -v "^$$ ")
	[ -z "$left" ] || fail "$2: left running: $left"
}
# The System V segments and /dev/shm segments of now, to compare.
shm_now() {
	{ ipcs -m 2>/dev/null | awk '$2 ~ /^[0-9]+$/ { print "shm " $2 }'
	  ls /dev/shm 2>/dev/null | grep '^PostgreSQL\.'; } | sort
}
shm_before=$(shm_now)
no_shm() {
	[ -z "$(shm_now | comm -23 - "$WORK/shm.before")" ] ||
		fail "$1: shared memory left: $(shm_now | comm -23 - "$WORK/shm.before")"
}
printf '%s\n' "$shm_before" >"$WORK/shm.before"

# refused PATTERN ARGS...: one line matching PATTERN, exit 2, D empty.
refused() {
	rf_pat=$1
	shift
	expect_refused "$rf_pat" "$PGSCAN" "$@"
	assert_empty "$D"
}
refused "-x '0': must be 1 to 100" -d "$D" $AS -x 0
refused "-x 'many': not a number" -d "$D" $AS -x many
refused "-x '101': must be 1 to 100" -d "$D" $AS -x 101
refused "--parallel '65': must be 0 to 64" -d "$D" $AS --parallel=65
refused "-s '1q':" -d "$D" $AS -s 1q
refused "-s '8m': must be at least 16m" -d "$D" $AS -s 8m
refused "-d '$WORK/nowhere': No such file" -d "$WORK/nowhere" $AS
LONG="$WORK/$(printf '%090d' 0)"
mkdir "$LONG"
refused "-d '$LONG': too long: the server's socket" -d "$LONG" $AS
rmdir "$LONG"
if [ -n "$AS" ]; then
	refused "PostgreSQL will not run as root: give -u USER" -d "$D"
	mkdir -m 700 "$WORK/closed"
	expect_refused "-d '$WORK/closed': user nobody cannot work in it (cd .*: Permission denied)" \
		"$PGSCAN" -d "$WORK/closed" $AS -s 32m
	assert_empty "$WORK/closed"
	mkdir -m 700 "$WORK/rootonly"
	refused "^clyde-pgscan: --json: '$WORK/rootonly/pg.json': Permission denied\$" \
		-d "$D" $AS -s 32m --json="$WORK/rootonly/pg.json"
	expect_refused "^clyde: --json: '$WORK/rootonly/c.json': Permission denied\$" \
		"$CLYDE" -d "$D" $AS -s 16m -r 0 -n 0 --json="$WORK/rootonly/c.json"
	grep -q 'Writing' "$WORK/err" && fail "clyde -u nobody: a test ran before --json was refused"
	assert_empty "$D"
	assert_empty "$WORK/rootonly"
	# A file of root's where nobody may make files: not nobody's to
	# replace, refused at once rather than at the end of the run.
	echo old >"$OUT/root.json"
	refused_unchanged "$OUT/root.json" "^clyde-pgscan: --json: '$OUT/root.json': Permission denied\$" \
		"$PGSCAN" -d "$D" $AS -s 32m --json="$OUT/root.json"
	assert_empty "$D"
	rm "$OUT/root.json"
	if runuser -u nobody -- test -x "$PGSCAN" 2>/dev/null; then
		expect_refused "--drop-caches needs root" \
			runuser -u nobody -- "$PGSCAN" -d "$D" --drop-caches
	fi
else
	refused "--drop-caches needs root" -d "$D" --drop-caches
fi

# A server that does not start: one line, the reason from its log.
FAKE="$WORK/fakebin"
mkdir "$FAKE"
for p in initdb postgres psql pgbench; do ln -s "$BIN/$p" "$FAKE/$p"; done
cat >"$FAKE/pg_ctl" <<EOF
#!/bin/sh
for a; do
	[ "\$a" = start ] && exec "$BIN/pg_ctl" "\$@" -o "-c no_such_setting=1"
done
exec "$BIN/pg_ctl" "\$@"
EOF
chmod 755 "$FAKE" "$FAKE/pg_ctl"
expect_one_line 1 'did not start:' "$PGSCAN" -d "$D" $AS -s 32m -q --bindir="$FAKE"
grep -q 'no_such_setting' "$WORK/err" || fail "start failure: not the log's reason: $(cat "$WORK/err")"
assert_empty "$D"
no_server "$D" "start failure"
no_shm "start failure"

# A run: the line, the document, nothing left.
expect_status 0 "$PGSCAN" -d "$D" $AS -s 32m -x 2 -q --json="$OUT/pg.json"
line=$(cat "$WORK/out")
echo "$line" >&2
printf '%s\n' "$line" | grep -Eqx "PostgreSQL seq scan [0-9]+ MB/s \(mean of 2, sd [0-9.]+\) = [0-9]+% of block input [0-9]+ MB/s \(sd [0-9.]+\), backend CPU [0-9]+%: (CPU-bound|at the device's rate|waiting on reads)" ||
	fail "the line: '$line'"
grep -v 'warning: .* too short to trust' "$WORK/err" | grep . &&
	fail "stderr: $(cat "$WORK/err")"
assert_empty "$D"
no_server "$D" "a run"
no_shm "a run"
J="$OUT/pg.json"
[ -z "$AS" ] || [ "$(stat -c %U "$J")" = nobody ] || fail "-u nobody: the document's owner is $(stat -c %U "$J")"
[ -z "$(find "$OUT" -name '.pg.json.*')" ] || fail "a temporary document left: $(ls -A "$OUT")"
jq -e '.program == "clyde-pgscan" and (.schema_version | type) == "number"
	and (.settings.pgscan | .relation == "pgbench_accounts"
		and .relation_bytes > 16000000 and .scale == 2
		and .parallel_workers == 0 and .evict == "fadvise"
		and (.server_version | test("^[0-9]+\\.[0-9]+$"))
		and (.bindir | type) == "string"
		and .resident_after_evict >= 0 and .resident_after_evict <= 1)
	and .target.directory == $d and all(.targets[]; .directory == $d)
	and (.runs | length) == 2' --arg d "$(realpath "$D")" "$J" >/dev/null ||
	fail "document: $(jq -c '{program, pgscan: .settings.pgscan, n: (.runs | length)}' "$J")"
jq -e --argjson rb "$(jq .settings.pgscan.relation_bytes "$J")" 'all(.runs[].tests;
	(.pg_scan | (.status == "ok" or .status == "too-fast")
		and .work == $rb and .unit == "bytes" and .rate_unit == "KiB/s"
		and .elapsed > 0 and .user >= 0 and .sys >= 0
		and (.rate | floor) == .rate
		and ((.rate - $rb / 1024 / .elapsed) | fabs) <= 1
		and (.cpu_percent | type) == "number")
	and (.get_block | .work > 0 and .elapsed > 0))' "$J" >/dev/null ||
	fail "runs: $(jq -c '[.runs[].tests | {pg_scan, g: .get_block.work}]' "$J")"
# The line's figures are the document's means (rounded).
set -- $(jq -r '[.runs[].tests | .pg_scan.work / .pg_scan.elapsed / 1e6] | add / length' "$J") \
	$(jq -r '[.runs[].tests | .get_block.work / .get_block.elapsed / 1e6] | add / length' "$J")
scan=$(printf '%s\n' "$line" | sed 's/^PostgreSQL seq scan \([0-9]*\) .*/\1/')
block=$(printf '%s\n' "$line" | sed 's/.* of block input \([0-9]*\) MB.*/\1/')
awk -v a="$1" -v b="$scan" -v c="$2" -v d="$block" 'BEGIN {
	exit !((a - b) <= 0.51 && (b - a) <= 0.51 && (c - d) <= 0.51 && (d - c) <= 0.51) }' ||
	fail "the line ($scan, $block MB/s) is not the document's ($1, $2)"

# SIGINT mid-scan. As root, the scan slowed by a read cap on a loop
# device (16 MiB/s: the 32 MiB table takes two seconds); otherwise the
# stop comes as the first of three scans starts, with two to go.
S="$D"
if [ -n "$AS" ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null &&
	[ -w /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
	ext4_rig 400
	S="$MNT/pg"
	mkdir "$S"
	chown nobody "$S"
	at_exit "echo '$DEV 0' >/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device"
	echo "$DEV $((16 * 1024 * 1024))" >/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device
fi
echo "SIGINT mid-scan on $S" >&2
"$PGSCAN" -d "$S" $AS -s 32m -x 3 >"$WORK/out" 2>"$WORK/err" &
pid=$!
i=0
until grep -q 'scan 1 of 3 started' "$WORK/err"; do
	i=$((i + 1))
	[ $i -lt 1200 ] || { kill -9 $pid; fail "the scan never started: $(cat "$WORK/err")"; }
	kill -0 $pid 2>/dev/null || fail "ended before the scan: $(cat "$WORK/err")"
	sleep 0.05
done
# Under the cap, the stop lands while psql is inside count(*).
if [ "$S" != "$D" ]; then
	i=0
	until pgrep -f -- "$S/clyde\..*/sock" >/dev/null; do
		i=$((i + 1))
		[ $i -lt 40 ] || fail "SIGINT: no scan running to stop"
		sleep 0.05
	done
	sleep 0.2
fi
kill -INT $pid
echo "stopped: $(tail -1 "$WORK/err")" >&2
wait $pid
st=$?
[ "$st" = 130 ] || fail "SIGINT: exit $st: $(cat "$WORK/err")"
[ -s "$WORK/out" ] && fail "SIGINT: a result: $(cat "$WORK/out")"
assert_empty "$S"
no_server "$S" "SIGINT"
no_shm "SIGINT"
exit 0
