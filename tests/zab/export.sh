#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab's output files (--export-zab/--export-markdown/--export-csv, hyperfine's
# names, any together beside the table), the warning for cells with fewer than
# five samples, and CPU names without their CPUID padding.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

echo stale >"$CZ_TMP/r.csv"	# an existing file is replaced, not appended to
"$ZAB" run -b "x=$FAKE --sd 0.01" --unit bytes/sec -b "y=$FAKE --sd 0.01 --mean 5" --lower \
	-v a -v 'b:FAKE_SCALE=1.5' -S 2 -R 3 --seed 3 --style box \
	--export-zab "$CZ_TMP/r.json" --export-markdown "$CZ_TMP/r.md" --export-csv "$CZ_TMP/r.csv" \
	>"$CZ_TMP/out" 2>"$CZ_TMP/err"
rc=$?
ok "run with three exports: exit 0" -- [ $rc -eq 0 ]
ok "the table still goes to stdout" -- grep -q '^Results for SUT Class' "$CZ_TMP/out"
ok "export-json: a zab result" -- grep -q '"zab": 1' "$CZ_TMP/r.json"
"$ZAB" report "$CZ_TMP/r.json" --style box >"$CZ_TMP/again" 2>/dev/null
ok "export-json: re-renders to the same table" -- cmp -s "$CZ_TMP/out" "$CZ_TMP/again"
ok "export-markdown: a Markdown table" -- grep -q '^| Benchmark ' "$CZ_TMP/r.md"
ok "export-csv: the header" -- [ "$(head -1 "$CZ_TMP/r.csv")" = \
	"sut,group,result_class,unit,better,variant,base,n,mean,stddev,ci_low,ci_high,cv,median,min,max,change_pct,verdict,mann_whitney_p,layouts,layout_sensitivity_pct,layout_share,layout_best_offset,layout_worst_offset,better_layouts,worse_layouts,layout_means,layout_sensitive,variant_label" ]
ok "export-csv: one row per cell (2 x 2), the old content gone" -- [ "$(wc -l <"$CZ_TMP/r.csv")" -eq 5 ]
ok "export-csv: 29 fields per row (the 9 layout ones empty: fixed placement; no step label)" -- awk -F, 'NR > 1 && NF != 29 { bad = 1 } END { exit bad }' "$CZ_TMP/r.csv"
ok "export-csv: the base row says base, n = 6" -- grep -q ',a,a,6,.*,base,,,,,,,,,,,$' "$CZ_TMP/r.csv"
# b is 1.5x a: flagged; x is higher-better (I), y lower-better (R)
ok "export-csv: verdicts I (x, higher better) and R (y, lower better)" -- \
	sh -c "grep -q ',x,bytes/sec,higher,b,a,6,.*,I,' '$CZ_TMP/r.csv' && grep -q ',y,,lower,b,a,6,.*,R,' '$CZ_TMP/r.csv'"
chg=$(grep ',x,bytes/sec' "$CZ_TMP/r.csv" | grep ',b,a,' | cut -d, -f17)
ok "export-csv: the change ($chg) is the table's" -- grep -q "(I) $(printf '%+.2f' "$chg")%" "$CZ_TMP/out"
ok "6 samples per cell: no few-samples warning" -- sh -c "! grep -q 'fewer than 5 samples' '$CZ_TMP/out'"

"$ZAB" report "$CZ_TMP/r.json" --export-csv - --style plain >"$CZ_TMP/rep.csv" 2>"$CZ_TMP/rep.table"
ok "report --export-csv -: CSV on stdout, the table on stderr" -- \
	sh -c "head -1 '$CZ_TMP/rep.csv' | grep -q '^sut,group' && grep -q 'Change with b' '$CZ_TMP/rep.table'"

# fewer than five samples in a cell: said under the table, in every style
"$ZAB" run -b "x=$FAKE" -v a -v b -S 1 -R 3 --seed 1 >"$CZ_TMP/few" 2>/dev/null
ok "3 samples: the warning names the cells and the count" -- \
	grep -q '^Warning: fewer than 5 samples in 2 cells (x / a: 3, x / b: 3)' "$CZ_TMP/few"
"$ZAB" run -b "x=$FAKE" -v a -v b -S 1 -R 3 --seed 1 --style markdown >"$CZ_TMP/few.md" 2>/dev/null
ok "markdown: the warning is a list item" -- grep -q '^- Warning: fewer than 5 samples' "$CZ_TMP/few.md"

# CPU model strings are padded with blanks by CPUID: not in the JSON, not in the heading
ok "environment cpu without trailing blanks" -- \
	sh -c "! grep -q '\"cpu\": \".* \"' '$CZ_TMP/r.json'"
ok "SUT class heading without trailing blanks" -- sh -c "! grep -q 'Results for SUT Class .* :' '$CZ_TMP/out'"
done_testing
