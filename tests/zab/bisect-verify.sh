#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab bisect's three answers and its checks, on fakebench
# sequences (deterministic: every number comes from the seeds).  A/A
# sequences with a session offset and 3% noise never name a culprit over
# five seeds; a planted 5% slowdown (2% noise) is named after probes that
# needed more sessions (said per probe) and verified against its parent;
# a drift of 0.75% a step (no single step the change) fails the parent
# check: the range 1..K, exit 3; an A/A sequence with a budget too small
# to decide is undecided (exit 125), never "no change"; bad budgets exit
# 2 with one line; zab run --order abba runs A B, B A by round.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
unset CUSEZERO_STORE
# vseq FILE NAME N SD SCALES: steps s@0..s@N, step k's FAKE_SCALE the k+1th of SCALES (the last repeats)
vseq() {
	{
		printf '[experiment]\nname = %s\nsessions = 2\nrepeats = 3\n\n' "$2"
		printf '[benchmark x]\ncmd = %s --sd %s --mean 1000 %s\nbetter = higher\nunit = bytes/sec\n' \
			"$FAKE" "$4" "${VSEQ_OPTS:-}"
		k=0
		last=$3
		set -- $5
		while [ "$k" -le "$last" ]; do
			printf '\n[variant s@%d]\nenv.FAKE_SCALE = %s\n' "$k" "$1"
			[ $# -gt 1 ] && shift
			k=$((k + 1))
		done
	} >"$1"
}
bisect() {	# bisect NAME ARGS...: stdout to NAME.out, stderr NAME.err, exit in $rc
	n=$1
	shift
	"$ZAB" bisect --store "sqlite:$CZ_TMP/$n.db" --sut zen "$@" >"$CZ_TMP/$n.out" 2>"$CZ_TMP/$n.err"
	rc=$?
}

# A/A: a session offset of +-5% moves every variant of a session alike
VSEQ_OPTS="--session-effect 0.05" vseq "$CZ_TMP/aa.ini" vaa 16 0.03 1
named=
for s in 1 2 3 4 5; do
	bisect aa$s --seed $s --max-sessions 16 "$CZ_TMP/aa.ini"
	case $rc in 1|125) ;; *) named="$named seed $s: exit $rc $(head -1 "$CZ_TMP/aa$s.out");"; esac
	grep -q '^first change' "$CZ_TMP/aa$s.out" && named="$named seed $s names a step;"
done
ok "A/A over 5 seeds: no culprit named${named:+:$named} ($(cut -c1-40 "$CZ_TMP"/aa?.out | tr '\n' '|'))" -- \
	[ -z "$named" ]

# a planted 5% slowdown from step 11, 2% noise
vseq "$CZ_TMP/p.ini" vplant 16 0.02 "1 1 1 1 1 1 1 1 1 1 1 0.95"
bisect p --seed 7 "$CZ_TMP/p.ini"
ok "-5% at step 11: named, exit $rc: $(head -1 "$CZ_TMP/p.out")" -- sh -c "[ $rc -eq 0 ] &&
	grep -qx 'first change: step 11/16 s@11: -[3-7].[0-9]*% (R) in x on zen' '$CZ_TMP/p.out'"
ok "and verified: $(grep -c -- '-- verified' "$CZ_TMP/p.out") checks" -- sh -c "
	grep -q '^  check vs its parent: step 11/16 vs step 10/16 .*: changed -- verified' '$CZ_TMP/p.out' &&
	grep -q '^  check of the last step against it: step 16/16 vs step 11/16 .*: same -- verified' '$CZ_TMP/p.out'"
more=$(grep -c 'vs the base: .* \([4-9]\|[1-9][0-9]\) sessions: ' "$CZ_TMP/p.err")
ok "undecided probes got more sessions ($more probes past 2, each said)" -- [ "$more" -gt 0 ]

# a drift: step k at 1 - 0.0075 k, 0.1% noise: no step alone is the change
vseq "$CZ_TMP/d.ini" vdrift 16 0.001 "$(awk 'BEGIN { for (k = 0; k <= 16; k++) printf "%.4f ", 1 - 0.0075 * k }')"
bisect d --seed 2 "$CZ_TMP/d.ini"
ok "a drift: the parent check fails, exit $rc: $(tail -1 "$CZ_TMP/d.out")" -- sh -c "[ $rc -eq 3 ] &&
	grep -q '^  check vs its parent: .* -- FAILED' '$CZ_TMP/d.out' &&
	grep -q '^unverified on zen: .*: the change is in steps 1\.\.3 ' '$CZ_TMP/d.out' &&
	! grep -q '^first change:.*verified' '$CZ_TMP/d.out'"

# a budget too small to decide an A/A sequence with 3% noise
vseq "$CZ_TMP/u.ini" vund 16 0.03 1
bisect u --seed 1 --max-sessions 2 "$CZ_TMP/u.ini"
ok "--max-sessions 2: undecided, exit $rc: $(cat "$CZ_TMP/u.out")" -- sh -c "[ $rc -eq 125 ] &&
	grep -q '^undecided on zen: step 16/16 s@16 vs the base: .*2 sessions, neither beyond nor within +-2.0% (the budget ran out)' '$CZ_TMP/u.out' &&
	! grep -q 'no change' '$CZ_TMP/u.out'"
bisect u2 --seed 1 --budget-seconds 0.000001 "$CZ_TMP/u.ini"
ok "--budget-seconds spent after the first run: undecided, exit $rc" -- sh -c "[ $rc -eq 125 ] &&
	grep -q '^undecided on zen: .*(the budget ran out)' '$CZ_TMP/u2.out' && grep -q '^zab: bisect: 1 run made' '$CZ_TMP/u2.err'"
for bad in "--max-sessions 1" "--max-sessions 2.5" "--budget-seconds -1" "--budget-seconds x"; do
	bisect bad $bad "$CZ_TMP/u.ini"
	ok "$bad: exit $rc, one line: $(cat "$CZ_TMP/bad.err")" -- sh -c "[ $rc -eq 2 ] &&
		[ \$(wc -l <'$CZ_TMP/bad.err') -eq 1 ] && grep -q -- '${bad#* }' '$CZ_TMP/bad.err'"
done

# --order abba: per session, A B then B A, round by round (the next session starts reversed)
printf '[experiment]\nname = o\nsessions = 2\nrepeats = 4\norder = abba\n[benchmark x]\ncmd = %s --log %s\n[variant A]\n[variant B]\n' \
	"$FAKE" "$CZ_TMP/order.log" >"$CZ_TMP/o.ini"
"$ZAB" run -e "$CZ_TMP/o.ini" --no-store --no-progress >/dev/null 2>"$CZ_TMP/o.err"
got=$(awk '{ printf "%s", $2 } $1 != s { s = $1 }' "$CZ_TMP/order.log")
ok "order = abba: $got" -- [ "$got" = ABBAABBABAABBAAB ]
done_testing
