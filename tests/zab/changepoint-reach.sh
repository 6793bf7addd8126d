#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab history --by series says "none" only when its test
# could have found a change (tests/zab/seqlib.sh, fakebench): a one-patch
# series with a -30% change and 3 sessions per step cannot reach
# p < 0.01 with whole sessions permuted (smallest p 0.100): undecided,
# needs >= 6 sessions per step, never "none"; with 6 it finds the change;
# three steps of 3 sessions: smallest p 0.024, undecided; a failed base
# step is listed as failed, and neither history nor bisect --stored says
# "no change" (bisect says the base failed, exit 125); each output says
# which comparisons it made.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v python3 >/dev/null || skip_all "python3 not found (reads the JSON)"
. "$top_srcdir/tests/zab/seqlib.sh"
unset CUSEZERO_STORE
url="sqlite:$CZ_TMP/r.db"

# sweep FILE NAME N PLANT SESSIONS: the sequence written with that many sessions, swept on zen
sweep() {
	seq_file "$1.tmp" "$2" "$3" "$4"
	sed "s/^sessions = 2$/sessions = $5/" "$1.tmp" >"$1"
	"$ZAB" run -e "$1" --store "$url" --sut zen --seed 7 --no-progress >/dev/null 2>"$CZ_TMP/err" ||
		[ "${6:-}" = fails ] || { echo "Bail out! zab run $1: $(tail -1 "$CZ_TMP/err")"; exit 1; }
}
history() {	# history NAME EXPERIMENT: text to NAME.txt, JSON NAME.json
	"$ZAB" history --store "$url" --experiment "$2" --by series -j "$CZ_TMP/$1.json" \
		>"$CZ_TMP/$1.txt" 2>"$CZ_TMP/$1.err"
	rc=$?
}

sweep "$CZ_TMP/one3.ini" one3 1 1 3
history o3 one3
ok "one patch, -30%, 3 sessions: exit $rc, no 'none': $(grep -E '^  (none|undecided)' "$CZ_TMP/o3.txt")" -- \
	sh -c "[ $rc -eq 0 ] && ! grep -q '^  none' '$CZ_TMP/o3.txt'"
ok "it says undecided, needs >= 6 sessions per step, smallest p 0.100" -- grep -q \
	'^  undecided on zen: needs >= 6 sessions per step (with 3, a change at step 1/1 cannot reach p < 0.01: its smallest p is 0.100)$' \
	"$CZ_TMP/o3.txt"
ok "JSON: the class's undecided step, sessions and sessions needed" -- python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["classes"][0]
sys.exit(not (c["undecided_steps"] == [1] and round(c["smallest_p"], 3) == 0.1 and
              c["sessions"] == 3 and c["sessions_needed"] == 6 and c["base"] == "measured"))' "$CZ_TMP/o3.json"
ok "the text says which comparisons it made" -- grep -q '^Compared: per class, the session means' "$CZ_TMP/o3.txt"

sweep "$CZ_TMP/one6.ini" one6 1 1 6
history o6 one6
ok "with 6 sessions the change is found: $(grep '^  step' "$CZ_TMP/o6.txt")" -- sh -c "[ $rc -eq 0 ] &&
	grep -q '^  step 1/1 s@1: -[23][0-9.]*% (R)' '$CZ_TMP/o6.txt' && ! grep -q '^  undecided' '$CZ_TMP/o6.txt'"

sweep "$CZ_TMP/three.ini" three 2 1 3
history t3 three
ok "three steps, 3 sessions: undecided, smallest p 0.024: $(grep '^  undecided' "$CZ_TMP/t3.txt")" -- \
	sh -c "! grep -q '^  none' '$CZ_TMP/t3.txt' &&
	grep -q '^  undecided on zen: needs >= 4 sessions per step .*step 1/2, 2/2 .* 0.024)$' '$CZ_TMP/t3.txt'"

# the base step fails in every session
seq_file "$CZ_TMP/fb.tmp" failbase 4 0
awk '{ print } /^\[variant s@0\]$/ { print "cmd = {cmd} --fail" }' "$CZ_TMP/fb.tmp" >"$CZ_TMP/fb.ini.tmp"
sed 's/^sessions = 2$/sessions = 3/' "$CZ_TMP/fb.ini.tmp" >"$CZ_TMP/fb.ini"
"$ZAB" run -e "$CZ_TMP/fb.ini" --store "$url" --sut zen --seed 7 --no-progress >/dev/null 2>&1
history fb failbase
ok "a failed base: history lists it failed, no 'none': $(grep '^  ' "$CZ_TMP/fb.txt" | tr '\n' '|')" -- \
	sh -c "! grep -q '^  none' '$CZ_TMP/fb.txt' &&
	grep -q '^  undecided on zen: the base step 0/4 failed: no step compared with it$' '$CZ_TMP/fb.txt' &&
	grep -q '^  failed on zen: step 0/4 ' '$CZ_TMP/fb.txt' && grep -q '^0/4 .* failed: no sample$' '$CZ_TMP/fb.txt'"
"$ZAB" bisect --store "$url" --stored "$CZ_TMP/fb.ini" >"$CZ_TMP/b.out" 2>"$CZ_TMP/b.err"
rc=$?
sed 's/^/# bisect: /' "$CZ_TMP/b.out" "$CZ_TMP/b.err"
ok "bisect --stored: exit $rc (125), the base failed: $(cat "$CZ_TMP/b.out")" -- sh -c "[ $rc -eq 125 ] &&
	grep -q '^could not decide on zen: step 4/4 has no session to compare with the base: s@0 failed: ' '$CZ_TMP/b.out'"
ok "bisect says which comparison it tried and why it failed: $(grep 'zen: step' "$CZ_TMP/b.err")" -- \
	grep -q '^zab: bisect: zen: step 4/4: s@0 failed: session 1: ' "$CZ_TMP/b.err"
done_testing
