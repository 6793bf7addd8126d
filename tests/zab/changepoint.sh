#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab history --by series over stored runs of a 16-step
# sequence (tests/zab/seqlib.sh, fakebench): a slowdown planted at step 9
# is the one change point flagged, (R), its size's interval holding -30%,
# on the class where it was planted and not on the class running the same
# experiment without it; an A/A sequence has none and says so; the CSV
# has a row per step; a class filter and an unknown sequence are
# answered; --by kernel still works on the same store.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/zab/seqlib.sh"
unset CUSEZERO_STORE
url="sqlite:$CZ_TMP/s.db"
seq_file "$CZ_TMP/plant.ini" cpseq 16 9
seq_file "$CZ_TMP/aa.ini" cpseq 16 0
seq_file "$CZ_TMP/aa2.ini" aaseq 16 0
for x in "plant zen 3" "aa sky 4" "aa2 zen 5"; do
	set -- $x
	"$ZAB" run -e "$CZ_TMP/$1.ini" --store "$url" --sut "$2" --seed "$3" --no-progress \
		>/dev/null 2>"$CZ_TMP/err" || { echo "Bail out! zab run $1: $(tail -1 "$CZ_TMP/err")"; exit 1; }
done

"$ZAB" history --store "$url" --experiment cpseq --by series --export-csv "$CZ_TMP/h.csv" \
	>"$CZ_TMP/h.txt" 2>"$CZ_TMP/err"
rc=$?
ok "history --by series: exit $rc" -- [ "$rc" -eq 0 ]
flags=$(awk -F, 'NR > 1 && $NF != "" { print $1 ":" $2 ":" $NF }' "$CZ_TMP/h.csv" | tr '\n' ' ')
ok "exactly the planted step flagged, on zen only: $flags" -- [ "$flags" = "zen:9:R " ]
ok "CSV: 17 steps per class" -- [ "$(awk -F, 'NR > 1' "$CZ_TMP/h.csv" | wc -l)" -eq 34 ]
ok "its size's 95% interval holds -30%" -- awk -F, '$1 == "zen" && $2 == 9 {
	exit !($16 < -30 && $17 > -30) }' "$CZ_TMP/h.csv"
ok "text: the change named by its step, held on zen, not on sky" -- \
	grep -q '^  step 9/16 s@9: -[23][0-9.]*% (R) 95% CI .* on zen; no change on sky$' "$CZ_TMP/h.txt"
"$ZAB" history --store "$url" --experiment aaseq --by series --export-csv "$CZ_TMP/a.csv" \
	>"$CZ_TMP/a.txt" 2>&1
ok "A/A sequence: no step flagged" -- [ "$(awk -F, 'NR > 1 && $NF != ""' "$CZ_TMP/a.csv" | wc -l)" -eq 0 ]
ok "A/A sequence: says no step changes anything" -- \
	grep -q '^  none: no step changes anything on any of 1 SUT class' "$CZ_TMP/a.txt"
"$ZAB" history --store "$url" --experiment cpseq --by series --sut-class sky >"$CZ_TMP/k.txt" 2>&1
ok "--sut-class sky: its history alone, nothing flagged" -- \
	sh -c "! grep -q zen '$CZ_TMP/k.txt' && grep -q '^  none:' '$CZ_TMP/k.txt'"
"$ZAB" history --store "$url" --experiment cpseq --by series --variant t >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "an unknown sequence: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
"$ZAB" history --store "$url" --experiment cpseq --by kernel >"$CZ_TMP/kern.txt" 2>&1
ok "--by kernel on the same runs still answers" -- grep -q '^SUT class zen' "$CZ_TMP/kern.txt"
done_testing
