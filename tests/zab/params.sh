#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: one {NAME} substitution for zab run's --parameter-list and
# hyperfine mode's -L: a parameter value holding its own {NAME} is put in
# once, as it is (substitution is one pass; it once searched the result
# again and never ended), and an experiment's ${NAME} stays the shell's.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

# Every zab here is bounded: a substitution that never ends is exit 124.
# zab run --dry-run: the variants in each session's order, no command runs.
timeout 120 "$ZAB" run --dry-run --no-progress -b 'e=echo $X' -v 'a:X={n}' \
	-L 'n={n}1,2' >"$CZ_TMP/self" 2>"$CZ_TMP/self.err"
rc=$?
ok "run -L n={n}1,2 with {n} in a variant: exit $rc (124: it never ended)" -- [ "$rc" -eq 0 ]
ok "run: the variant named with the value as given (a n={n}1)" -- grep -q 'a n={n}1' "$CZ_TMP/self"

# The value reaches the command once, as it is: X={n}1, echo prints it.
: >"$CZ_TMP/seen"
LOG="$CZ_TMP/seen" timeout 120 "$ZAB" run --no-progress -R 1 -S 1 -W 0 \
	-b 'e=echo 1; echo "$X" >>"$LOG"' -v 'a:X=<{n}>' -L 'n={n},2' --seed 1 \
	>"$CZ_TMP/cmd" 2>"$CZ_TMP/cmd.err"
rc=$?
ok "run: a command sees the value once ({n} -> <{n}>): exit $rc" -- \
	eval '[ $rc -eq 0 ] && grep -qx "<{n}>" "$CZ_TMP/seen" && grep -qx "<2>" "$CZ_TMP/seen"'

# hyperfine mode: -L NAME VALUES, the command's {NAME}.
timeout 120 "$ZAB" hyperfine --runs 1 -L n '{n}x,2' 'echo {n}' \
	>"$CZ_TMP/hf" 2>"$CZ_TMP/hf.err"
rc=$?
ok "hyperfine -L n {n}x,2: exit $rc (124: it never ended)" -- [ "$rc" -eq 0 ]
ok "hyperfine: the command named with the value as given (echo {n}x)" -- grep -q 'echo {n}x' "$CZ_TMP/hf"

# An experiment's ${NAME} is the shell's, {NAME} an error when undefined.
timeout 120 "$ZAB" run --dry-run --no-progress -b 'e=echo ${HOME}' -v a -v b >"$CZ_TMP/shell" 2>&1
rc=$?
ok "run: \${HOME} is the shell's: exit $rc" -- [ "$rc" -eq 0 ]
timeout 120 "$ZAB" run --dry-run --no-progress -b 'e=echo {nope}' -v a -v b >"$CZ_TMP/undef" 2>&1
rc=$?
ok "run: an undefined {nope}: exit $rc, one line naming it" -- \
	eval '[ $rc -eq 2 ] && [ $(wc -l <"$CZ_TMP/undef") -eq 1 ] && grep -q "{nope}" "$CZ_TMP/undef"'
done_testing
