#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: Statistical honesty of zab's (R)/(I) flags, with a deterministic fake benchmark:
#  - A/A: two identical variants over many simulated experiments -> flag rate <= 5%
#  - a known +3% shift with low noise -> flagged in the right direction, % change
#    within 0.5 points of the truth, for higher- and lower-is-better benchmarks.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

# --- A/A ------------------------------------------------------------------------
N=120
NU=40	# the U-test column (detailed view) for the first NU: its exact p is slow at n = 10
if [ "$ZERO_ARCH" = aarch64 ] && [ "$(uname -m)" != aarch64 ]; then
	N=40; NU=10	# every process runs under qemu-user: ~10x slower
	diag "under emulation: $N A/A experiments instead of 120"
fi
i=1
flags=0; utest=0; bad=0
while [ $i -le $N ]; do
	if [ $((i % 2)) -eq 0 ]; then dist=lognormal; else dist=normal; fi
	if "$ZAB" run -b "aa=$FAKE --dist $dist --sd 0.02" -v a -v b -S 2 -R 5 \
		--seed $i --style plain --json "$CZ_TMP/aa.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"; then
		if grep -q -E '\((R|I)\) [-+]?[0-9]' "$CZ_TMP/out"; then flags=$((flags + 1)); fi
		if [ $i -le $NU ]; then
			"$ZAB" report --style detail "$CZ_TMP/aa.json" >"$CZ_TMP/detail"
			# the variant row: "| b | n | mean | ci | cv | median | change | p |"
			p=$(grep '^| b ' "$CZ_TMP/detail" | awk -F'|' '{gsub(/ /, "", $9); print $9}')
			case $p in "<0.001") utest=$((utest + 1)) ;;
			*) if awk "BEGIN { exit !($p < 0.05) }"; then utest=$((utest + 1)); fi ;;
			esac
		fi
	else
		bad=$((bad + 1))
		diag "A/A experiment $i failed: $(head -3 "$CZ_TMP/err")"
	fi
	i=$((i + 1))
done
ok "A/A: all $N experiments ran" -- [ $bad -eq 0 ]
diag "A/A: $flags of $N experiments flagged (R)/(I) by the CI rule; Mann-Whitney p < 0.05 in $utest of $NU"
# <= 5%: 6 of 120
ok "A/A: (R)/(I) rate $flags/$N <= 5%" -- [ $((flags * 100)) -le $((5 * N)) ]
ok "A/A: Mann-Whitney p < 0.05 rate $utest/$NU <= 12.5% (nominal 5%)" -- [ $((utest * 1000)) -le $((125 * NU)) ]

# --- a known 3% shift ----------------------------------------------------------------
shift_case() {	# shift_case NAME BETTER_OPT EXPECTED_FLAG EXPECTED_SIGN
	"$ZAB" run -b "s=$FAKE --sd 0.005 --seed 77" $2 -v base -v 'up:FAKE_SCALE=1.03' \
		-S 3 -W 1 -R 4 --seed 42 --style plain >"$CZ_TMP/shift" 2>"$CZ_TMP/err"
	line=$(grep '^  s ' "$CZ_TMP/shift")
	pct=$(echo "$line" | awk '{print $NF}' | tr -d '%')
	flag=$(echo "$line" | awk '{print $(NF-1)}')
	if [ "$flag" = "$3" ]; then pass "$1: flagged $3"
	else fail "$1: expected $3, got line '$line'"; fi
	if awk "BEGIN { d = $pct - ($4 3.0); exit !(d <= 0.5 && d >= -0.5) }"; then
		pass "$1: change $pct% within 0.5 points of $4 3%"
	else
		fail "$1: change $pct% not within 0.5 points of $4 3%"
	fi
}
shift_case "+3% higher-is-better" "" "(I)" "+"
shift_case "+3% lower-is-better (the value grew: +, worse: (R))" "--lower" "(R)" "+"

# one sample per cell has no confidence interval: a change, but never a flag
"$ZAB" run -b "s=$FAKE --sd 0.005" -v base -v 'up:FAKE_SCALE=1.03' -S 1 -R 1 --seed 42 \
	--style plain >"$CZ_TMP/one" 2>"$CZ_TMP/err"
line=$(grep '^  s ' "$CZ_TMP/one")
case $line in
*"(R)"*|*"(I)"*) fail "n = 1: flagged without a confidence interval: '$line'" ;;
*%) pass "n = 1: change shown, not flagged: '$line'" ;;
*) fail "n = 1: no change shown: '$line'" ;;
esac

done_testing
