#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: bisect and history use a stored run only when zab report
# would pool it with the runs they stand for (tests/zab/seqlib.sh,
# fakebench).  A stored sweep of another file of the same experiment name
# and step labels (another benchmark command, the slowdown at step 9) is
# refused by report, left out by bisect of the new file (slowdown at step
# 3; one line says how many runs and why, with report's reason): --stored
# cannot decide (exit 125), probing finds step 3; history --by series
# pools the newest file's sweep alone (step 3 its one change point) and
# says in one line what it left out; a second sweep of the new file on
# the class is pooled.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/zab/seqlib.sh"
unset CUSEZERO_STORE
url="sqlite:$CZ_TMP/p.db"
seq_file "$CZ_TMP/old.ini" bspool 16 9
SEQ_MEAN=2000
seq_file "$CZ_TMP/new.ini" bspool 16 3
SEQ_MEAN=

sweep() {	# sweep FILE SEED: a full sweep on class zen, stored
	"$ZAB" run -e "$1" --store "$url" --sut zen --seed "$2" --no-progress >/dev/null 2>"$CZ_TMP/err" ||
		{ echo "Bail out! zab run $1: $(tail -1 "$CZ_TMP/err")"; exit 1; }
}
bisect() {	# bisect NAME ARGS...: stdout to NAME.out, stderr NAME.err, exit in $rc
	n=$1
	shift
	"$ZAB" bisect --store "$url" --sut zen --seed 3 "$@" >"$CZ_TMP/$n.out" 2>"$CZ_TMP/$n.err"
	rc=$?
}

sweep "$CZ_TMP/old.ini" 4
"$ZAB" run -e "$CZ_TMP/new.ini" --no-store --sut zen --seed 5 --no-progress --json "$CZ_TMP/new.json" \
	>/dev/null 2>&1
"$ZAB" report --store "$url" --experiment bspool "$CZ_TMP/new.json" >/dev/null 2>"$CZ_TMP/r.err"
rc=$?
ok "report refuses to pool the old sweep with a run of the new file: exit $rc, $(cat "$CZ_TMP/r.err")" -- \
	sh -c "[ $rc -ne 0 ] && grep -q \"benchmark 'x' differs in cmd\" '$CZ_TMP/r.err'"

bisect s --stored "$CZ_TMP/new.ini"
ok "--stored, only the old file's sweep stored: exit $rc (125), $(cat "$CZ_TMP/s.out")" -- sh -c "[ $rc -eq 125 ] &&
	grep -q '^could not decide: no stored run .* that pools with this file' '$CZ_TMP/s.out'"
ok "one line: 1 run left out, report's reason: $(grep 'not used' "$CZ_TMP/s.err")" -- sh -c "
	[ \$(grep -c 'not used' '$CZ_TMP/s.err') -eq 1 ] &&
	grep -q \"^zab: bisect: 1 stored run of 'bspool' not used: .*benchmark 'x' differs in cmd\" '$CZ_TMP/s.err'"
bisect p "$CZ_TMP/new.ini"
ok "probing: step 3, exit $rc, $(cat "$CZ_TMP/p.out")" -- sh -c "[ $rc -eq 0 ] &&
	grep -qx 'first change: step 3/16 s@3: -[23][0-9.]*% (R) in x on zen' '$CZ_TMP/p.out' &&
	grep -q '^zab: bisect: [1-9][0-9]* runs made, 0 stored runs pooled' '$CZ_TMP/p.err' &&
	[ \$(grep -c 'not used' '$CZ_TMP/p.err') -eq 1 ]"
bisect p2 "$CZ_TMP/new.ini"
ok "a second bisect reuses its own probes, not the old sweep: $(tail -1 "$CZ_TMP/p2.err")" -- sh -c "
	[ $rc -eq 0 ] && cmp -s '$CZ_TMP/p.out' '$CZ_TMP/p2.out' &&
	grep -q ' runs\\? made, [1-9][0-9]* stored runs\\? pooled' '$CZ_TMP/p2.err' &&
	! grep -q ' vs the base: .*([1-9][0-9]* runs\\? new' '$CZ_TMP/p2.err'"

# history: the new file's sweep the newest run of the class
url="sqlite:$CZ_TMP/h.db"
sweep "$CZ_TMP/old.ini" 4
sweep "$CZ_TMP/new.ini" 6
"$ZAB" history --store "$url" --experiment bspool --by series --export-csv "$CZ_TMP/h.csv" \
	>"$CZ_TMP/h.txt" 2>"$CZ_TMP/h.err"
rc=$?
flags=$(awk -F, 'NR > 1 && $NF != "" { print $2 ":" $NF }' "$CZ_TMP/h.csv" | tr '\n' ' ')
ok "history --by series: exit $rc, the new file's step 3 alone flagged ($flags)" -- \
	sh -c "[ $rc -eq 0 ] && [ '$flags' = '3:R ' ]"
ok "one run per step, the old sweep's left out" -- \
	sh -c "[ \$(awk -F, 'NR > 1 && \$6 != 1' '$CZ_TMP/h.csv' | wc -l) -eq 0 ]"
ok "one line says so: $(cat "$CZ_TMP/h.err")" -- sh -c "[ \$(wc -l <'$CZ_TMP/h.err') -eq 1 ] &&
	grep -q \"^zab: history: 1 of 2 stored runs left out: .*benchmark 'x' differs in cmd\" '$CZ_TMP/h.err'"
sweep "$CZ_TMP/new.ini" 7
"$ZAB" history --store "$url" --experiment bspool --by series --export-csv "$CZ_TMP/h2.csv" \
	>/dev/null 2>"$CZ_TMP/h2.err"
ok "a second sweep of the new file pooled: two runs per step" -- \
	sh -c "[ \$(awk -F, 'NR > 1 && \$6 != 2' '$CZ_TMP/h2.csv' | wc -l) -eq 0 ] &&
	grep -q '1 of 3 stored runs left out' '$CZ_TMP/h2.err'"
done_testing
