#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --steady on a device of plainly known speed, as root: a loop device
# with ext4 on it under a blkio cap of 1000 writes a second, clyde in a
# cgroup of its own, -D. Such a device is steady from the start: ran_write
# at 4k in rounds of 1 s is steady after the first window (5 rounds),
# and its figure is within 3% of the cap. On a busy machine (some task
# waiting for a CPU over 5% of the run) rounds may fall off the cap and
# settle later; the verdict is always the rule's on the rounds given.
# A figure that misses is measured once more (lib.sh's measure_again).
# Everything set up is undone on every exit path.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
need_root "loop device, mount, cgroup" losetup mkfs.ext4 mount umount truncate
need_blkio_iops
ext4_rig 100
iops_cgroup

# judged: the first window of rounds (the rule's own count of them) that
# the rule in the document holds for, by steady_judge's sums; 0 if none.
judged() {
	jq "$1.steady as \$st | \$st.rule as \$r | [\$st.rounds[].value] as \$v |
		[range(\$r.rounds; (\$v | length) + 1) as \$k |
		\$v[\$k - \$r.rounds:\$k] as \$y | (\$y | length) as \$n |
		([range(0; \$n)] | add) as \$sx | (\$y | add) as \$sy |
		([range(0; \$n) | . * .] | add) as \$sxx |
		([range(0; \$n) as \$i | \$i * \$y[\$i]] | add) as \$sxy |
		(\$sy / \$n) as \$avg |
		((\$n * \$sxy - \$sx * \$sy) / (\$n * \$sxx - \$sx * \$sx)) as \$sl |
		select((\$y | max) - (\$y | min) <= \$r.range_pct / 100 * \$avg and
			(\$sl | fabs) * (\$n - 1) <= \$r.slope_pct / 100 * \$avg) |
		\$k] | first // 0" "$WORK/c.json"
}

steady() {
	st_mark=$(psi_mark)
	in_cgroup \
		"$CLYDE" -d "$MNT" -r 0 -q -n 0 -f -D -s 32m --only=ran_write \
		--steady --round=1 --steady-max=20 \
		--json="$WORK/c.json" >/dev/null 2>"$WORK/err" ||
		fail "clyde: $(cat "$WORK/err")"
	busy=$(busy_since "$st_mark")
	[ "$(ls -A "$MNT")" = lost+found ] || fail "left behind: $(ls -A "$MNT")"
	s=.runs[0].tests.ran_write
	rounds=$(jq "$s.steady | if .steady then .rounds | length else 0 end" "$WORK/c.json")
	echo "steady after $rounds rounds: $(jq -c "[$s.steady.rounds[].value | round]" "$WORK/c.json"), the CPU busy $busy% of the time" >&2
	# Its verdict is the rule's on its own rounds, whatever their values.
	[ "$(judged "$s")" = "$rounds" ] ||
		fail "steady after $rounds rounds, where the rule holds first after $(judged "$s"): $(jq -c "$s.steady" "$WORK/c.json")"
	# The device is steady from the start; rounds a busy machine put
	# off the cap may take longer to settle, and are said.
	if [ "$rounds" != 5 ] && [ "$busy" -gt 5 ]; then
		echo "not steady after the first window: the machine was busy" >&2
	elif [ "$rounds" != 5 ]; then
		missed_figure "rounds to steady" "$rounds (0: never)" 0 5
	fi
	near "steady ran_write" "$(jq "$s.rate" "$WORK/c.json")" 1000 3
}
caps 0 1000
steady
while measure_again; do
	steady
done
judge_figures
exit 0
