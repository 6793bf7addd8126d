#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab compare OLD.json NEW.json prints benchstat's rows (old,
# new, delta with Mann-Whitney p, or ~) for every benchmark and variant in
# both files, from two machines; a file against itself changes nothing; a
# benchmark whose unit differs is listed as only in one file, never compared;
# bad input is one line and exit 1 or 2.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
A=$top_srcdir/tests/zab/golden/sut-a.json
B=$top_srcdir/tests/zab/golden/sut-b.json

"$ZAB" compare "$A" "$B" >"$CZ_TMP/ab" 2>"$CZ_TMP/err"
rc=$?
ok "compare two machines' files: exit $rc" -- test $rc -eq 0
ok "memset row: old, new, a significant delta with p and n" -- \
	grep -Eq '^memset 1GB / next-20260821-vanilla \[bytes/sec\] +6\.392e\+10 ± 0% +3\.391e\+10 ± 0% +-46\.95% \(p=[0-9.]+ n=12\+12\)$' "$CZ_TMP/ab"
ok "direction said per block (ns: lower is better)" -- grep -q 'delta (lower is better)' "$CZ_TMP/ab"
ok "variants in one file only are named" -- \
	sh -c "grep -qx 'only in old: variant stnp' '$CZ_TMP/ab' && grep -qx 'only in new: variant broken' '$CZ_TMP/ab'"
ok "footer: 6 rows compared" -- grep -q '^6 rows compared, 6 with p < 0.05$' "$CZ_TMP/ab"

"$ZAB" compare "$A" "$A" >"$CZ_TMP/aa" 2>&1
ok "a file against itself: every row ~" -- \
	sh -c "grep -q '^0 rows\\|^[0-9]* rows compared, 0 with' '$CZ_TMP/aa' && ! grep -q '%  *[+-][0-9]' '$CZ_TMP/aa'"

# Another unit is another measurement: not compared, listed.
sed 's|"unit": "ns"|"unit": "us"|' "$A" >"$CZ_TMP/us.json"
"$ZAB" compare "$A" "$CZ_TMP/us.json" >"$CZ_TMP/us" 2>&1
ok "unit ns vs us: not compared, named in both" -- \
	sh -c "grep -q '^only in old: fault latency \\[ns' '$CZ_TMP/us' && grep -q '^only in new: fault latency \\[us' '$CZ_TMP/us' && ! grep -q '^fault latency /' '$CZ_TMP/us'"

"$ZAB" compare "$A" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
rc=$?
ok "one file: exit 2, one line" -- sh -c "test $rc -eq 2 && test \$(wc -l <'$CZ_TMP/err') -eq 1"
"$ZAB" compare "$A" "$CZ_TMP/none.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
rc=$?
ok "missing file: exit 1 naming it" -- sh -c "test $rc -eq 1 && grep -q 'none.json' '$CZ_TMP/err'"
ok "zab compare --help" -- sh -c "'$ZAB' compare --help | grep -q 'OLD.json NEW.json'"
done_testing
