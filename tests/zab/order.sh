#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab's run order: a random order is printed with its seed and --seed replays it
# exactly; interleave is ABAB; warm-ups run but are discarded; sessions x repeats
# samples per cell; the benchmark sees ZAB_* and variant environment.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

run() {	# run LOG [zab options...]: the order of the runs goes to LOG
	log=$1; shift
	rm -f "$log"
	"$ZAB" run -b "f=$FAKE --log $log" -v a -v b -v c -v d -S 3 -W 1 -R 3 --style plain "$@"
}

run "$CZ_TMP/l7" --seed 7 >"$CZ_TMP/o7" 2>"$CZ_TMP/e7"
run "$CZ_TMP/l7b" --seed 7 >"$CZ_TMP/o7b" 2>/dev/null
run "$CZ_TMP/l8" --seed 8 >/dev/null 2>&1
ok "--seed 7 printed" -- grep -q "order random, seed 7 (replay: --seed 7)" "$CZ_TMP/e7"
ok "--seed 7 twice: the same order" -- cmp -s "$CZ_TMP/l7" "$CZ_TMP/l7b"
ok "--seed 7 twice: the same table (deterministic fake benchmark)" -- cmp -s "$CZ_TMP/o7" "$CZ_TMP/o7b"
ok "--seed 8: another order" -- sh -c "! cmp -s '$CZ_TMP/l7' '$CZ_TMP/l8'"
ok "3 sessions x (1 + 3) runs x 4 variants = 48 runs" -- [ "$(wc -l <"$CZ_TMP/l7")" -eq 48 ]
ok "every round runs every variant once" -- \
	sh -c "awk '{ r = int((NR - 1) / 4); seen[r \" \" \$2]++ } END { for (k in seen) if (seen[k] != 1) exit 1 }' '$CZ_TMP/l7'"
ok "runs grouped by session, in order" -- sh -c "cut -d' ' -f1 '$CZ_TMP/l7' | uniq | tr '\n' ' ' | grep -qx '1 2 3 '"

# the seed zab chose replays too
run "$CZ_TMP/lr" >/dev/null 2>"$CZ_TMP/er"
seed=$(sed -n 's/.*order random, seed \([0-9]*\) .*/\1/p' "$CZ_TMP/er")
run "$CZ_TMP/lr2" --seed "$seed" >/dev/null 2>&1
ok "the printed seed ($seed) replays the same order" -- cmp -s "$CZ_TMP/lr" "$CZ_TMP/lr2"

# --dry-run prints the same plan as the run follows
"$ZAB" run -b "f=$FAKE" -v a -v b -v c -v d -S 3 -W 1 -R 3 --seed 7 --dry-run >"$CZ_TMP/plan"
awk '/^  /{ for (i = 4; i <= NF; i++) print $i }' "$CZ_TMP/plan" >"$CZ_TMP/plan.order"
cut -d' ' -f2 "$CZ_TMP/l7" >"$CZ_TMP/l7.order"
ok "--dry-run plan matches the executed order" -- cmp -s "$CZ_TMP/plan.order" "$CZ_TMP/l7.order"

# interleave: ABAB...
run "$CZ_TMP/li" --order interleave >/dev/null 2>&1
ok "--order interleave runs a b c d a b c d ..." -- \
	sh -c "cut -d' ' -f2 '$CZ_TMP/li' | tr '\n' ' ' | grep -q '^\\(a b c d \\)\\{12\\}\$'"
run "$CZ_TMP/ls" --order sequential >/dev/null 2>&1
ok "--order sequential runs a a a a b b b b ... per session" -- \
	sh -c "cut -d' ' -f2 '$CZ_TMP/ls' | head -8 | tr '\n' ' ' | grep -qx 'a a a a b b b b '"

# warm-ups discarded: n = S x R in the JSON
"$ZAB" run -b "f=$FAKE" -v a -v b -S 3 -W 2 -R 2 --seed 1 --json "$CZ_TMP/n.json" --style detail >"$CZ_TMP/n.out" 2>/dev/null
ok "n = sessions x repeats = 6 (warm-ups discarded)" -- grep -q '^| a (base) | 6 ' "$CZ_TMP/n.out"

# environment: variant env, ZAB_* variables; commands through the shell
"$ZAB" run -b 'e=echo $((FOO + ${ZAB_SESSION}))' -v 'a:FOO=10' -v 'b:env.FOO=20' -S 2 -R 1 \
	--seed 3 --json "$CZ_TMP/env.json" >/dev/null 2>&1
ok "variant env + ZAB_SESSION reach the command (a: 11,12)" -- \
	sh -c "tr -d ' \n' <'$CZ_TMP/env.json' | grep -q '\"variant\":\"a\",\"samples\":\[11,12\]'"
ok "variant env + ZAB_SESSION reach the command (b: 21,22)" -- \
	sh -c "tr -d ' \n' <'$CZ_TMP/env.json' | grep -q '\"variant\":\"b\",\"samples\":\[21,22\]'"
# {var} substitution and a variant's own command
"$ZAB" run -b 'v=echo {x}' --var x=5 -v a -v 'b:var.x=7' -v 'c:cmd={cmd} | sed s/^/1/' -R 1 --seed 3 \
	--json "$CZ_TMP/var.json" >/dev/null 2>&1
ok "{x} from --var, var.x per variant, cmd={cmd} wrapper" -- \
	sh -c "tr -d ' \n' <'$CZ_TMP/var.json' | grep -q '\"variant\":\"a\",\"samples\":\[5\].*\"variant\":\"b\",\"samples\":\[7\].*\"variant\":\"c\",\"samples\":\[15\]'"
# JSON has the environment
ok "JSON: environment with cpu and kernel" -- \
	sh -c "grep -q '\"cpu\": ' '$CZ_TMP/var.json' && grep -q '\"kernel\": \"$(uname -r)\"' '$CZ_TMP/var.json'"

done_testing
