#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab bisect over a 16-step sequence (tests/zab/seqlib.sh,
# fakebench): the step of a planted slowdown named in the documented line,
# verified against its parent and the last step, exit 0, each probe
# stored; a second bisect reuses them all (the checks run fresh); a
# one-step blip is named but fails the check of the last step: the range
# it vouches for, exit 3; an A/A sequence: no change, exit 1; a last step
# that fails: could not decide, exit 125; --stored answers per SUT class from a full sweep of
# one file, 6 sessions a step (one class with the slowdown, one without) without running
# anything, and with no stored run cannot decide (125); bad usage exits 2
# with one line; zab run --only-variants runs the variants named and
# refuses a name that is none or a set without the base.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/zab/seqlib.sh"
unset CUSEZERO_STORE
url="sqlite:$CZ_TMP/b.db"
seq_file "$CZ_TMP/plant.ini" bsseq 16 9
seq_file "$CZ_TMP/aa.ini" bsaa 16 0
seq_file "$CZ_TMP/fail.ini" bsfail 16 0 "cmd = {cmd} --fail"
SEQ_BLIP=8:0.93 seq_file "$CZ_TMP/blip.ini" bsblip 16 9

bisect() {	# bisect NAME ARGS...: stdout to NAME.out, stderr NAME.err, exit in $rc
	n=$1
	shift
	"$ZAB" bisect --store "$url" --seed 3 "$@" >"$CZ_TMP/$n.out" 2>"$CZ_TMP/$n.err"
	rc=$?
}

bisect p --sut zen "$CZ_TMP/plant.ini"
ok "planted at step 9: exit $rc, $(cat "$CZ_TMP/p.out")" -- sh -c "[ $rc -eq 0 ] &&
	grep -qx 'first change: step 9/16 s@9: -[23][0-9.]*% (R) in x on zen' '$CZ_TMP/p.out'"
ok "verified: $(sed -n 3,4p "$CZ_TMP/p.out" | tr -s ' ')" -- sh -c "
	grep -q '^  check vs its parent: step 9/16 vs step 8/16 .*: changed -- verified' '$CZ_TMP/p.out' &&
	grep -q '^  check of the last step against it: step 16/16 vs step 9/16 .*: same -- verified' '$CZ_TMP/p.out'"
ok "each probe says its sessions: $(grep -c 'sessions: ' "$CZ_TMP/p.err") lines" -- \
	grep -q '^zab: bisect: zen: step 8/16 s@8 vs the base: .* [0-9]* sessions: same' "$CZ_TMP/p.err"
runs=$("$ZAB" store ls runs --store "$url" --experiment bsseq 2>/dev/null | grep -c zen)
ok "every run stored ($runs runs): $(tail -1 "$CZ_TMP/p.err")" -- \
	sh -c "grep -q '^zab: bisect: $runs runs made, 0 stored runs pooled' '$CZ_TMP/p.err'"
bisect p2 --sut zen "$CZ_TMP/plant.ini"
ok "a second bisect: the same answer, every probe from the store: $(tail -1 "$CZ_TMP/p2.err")" -- sh -c "[ $rc -eq 0 ] &&
	cmp -s '$CZ_TMP/p.out' '$CZ_TMP/p2.out' &&
	! grep -q '^zab: bisect: zen: step .* vs the base: .*([1-9][0-9]* runs\? new' '$CZ_TMP/p2.err'"
# The equivalence band: the 30% change of step 9 inside a 50% band is the
# same (from the stored probes: nothing runs again).
bisect band --sut zen --band 50 "$CZ_TMP/plant.ini"
ok "--band 50: the -30% step is the same: exit $rc, $(cat "$CZ_TMP/band.out")" -- \
	sh -c "[ $rc -eq 1 ] && grep -q '^no change on zen: step 16/16 .*the same as the base within +-50.0%' '$CZ_TMP/band.out' &&
	grep -q ' 0 runs made' '$CZ_TMP/band.err'"
bisect bandbad --sut zen --band 2x "$CZ_TMP/plant.ini"
ok "--band 2x: exit $rc, one line naming it: $(cat "$CZ_TMP/bandbad.err")" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/bandbad.err') -eq 1 ] && grep -q -- '--band 2x' '$CZ_TMP/bandbad.err'"
bisect b --sut zen "$CZ_TMP/blip.ini"
ok "a -7% blip at step 8 fails the last step's check: exit $rc, $(tail -1 "$CZ_TMP/b.out")" -- sh -c "[ $rc -eq 3 ] &&
	grep -q '^  check of the last step against it: step 16/16 vs step 8/16 .*: changed -- FAILED' '$CZ_TMP/b.out' &&
	grep -qx 'unverified on zen: step 8/16 changes the figure, but the last step differs from it: the change is in steps 8..16, not step 8 alone' '$CZ_TMP/b.out'"
bisect a --sut zen "$CZ_TMP/aa.ini"
ok "A/A sequence: exit $rc, $(cat "$CZ_TMP/a.out")" -- sh -c "[ $rc -eq 1 ] &&
	grep -q '^no change on zen: step 16/16 s@16 is the same as the base within +-2.0% in x: [-+][0-9.]*% \[95% ' '$CZ_TMP/a.out'"
bisect f --sut zen "$CZ_TMP/fail.ini"
ok "a failing step: exit $rc, $(cat "$CZ_TMP/f.out")" -- sh -c "[ $rc -eq 125 ] &&
	grep -q '^could not decide on zen: step 16/16' '$CZ_TMP/f.out'"

# a full sweep per class of one file, as a fleet stores it: the slowdown on
# zen only (sky's benchmark, the same command, does not feel the steps'
# FAKE_SCALE: a machine the patch does not slow down)
ln -s "$FAKE" "$CZ_TMP/bench"
fake=$FAKE
FAKE=$CZ_TMP/bench
seq_file "$CZ_TMP/fleet.ini" bsseq 16 9
FAKE=$fake
"$ZAB" run -e "$CZ_TMP/fleet.ini" --store "sqlite:$CZ_TMP/w.db" --sut zen --seed 4 --sessions 6 --no-progress \
	>/dev/null 2>&1
rm "$CZ_TMP/bench"
printf '#!/bin/sh\nFAKE_SCALE=1 exec "%s" "$@"\n' "$FAKE" >"$CZ_TMP/bench"
chmod +x "$CZ_TMP/bench"
"$ZAB" run -e "$CZ_TMP/fleet.ini" --store "sqlite:$CZ_TMP/w.db" --sut sky --seed 5 --sessions 6 --no-progress \
	>/dev/null 2>&1
url="sqlite:$CZ_TMP/w.db"
bisect w --stored "$CZ_TMP/fleet.ini"
ok "--stored over two classes: exit $rc, one answer each" -- sh -c "[ $rc -eq 0 ] &&
	grep -qx 'first change: step 9/16 s@9: -[23][0-9.]*% (R) in x on zen' '$CZ_TMP/w.out' &&
	grep -q '^  not verified: --stored runs nothing' '$CZ_TMP/w.out' &&
	grep -q '^no change on sky: step 16/16' '$CZ_TMP/w.out' && [ \$(grep -c '^[a-z]' '$CZ_TMP/w.out') -eq 2 ]"
ok "--stored ran nothing" -- grep -q '^zab: bisect: 0 runs made' "$CZ_TMP/w.err"
url="sqlite:$CZ_TMP/none.db"
bisect n --stored "$CZ_TMP/fleet.ini"
ok "--stored, no stored run of the experiment: exit $rc (125, could not decide), $(cat "$CZ_TMP/n.out")" -- \
	sh -c "[ $rc -eq 125 ] && grep -q '^could not decide: no stored run of experiment .bsseq.' '$CZ_TMP/n.out'"
bisect e
ok "no experiment file: exit $rc, one line: $(cat "$CZ_TMP/e.err")" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e.err') -eq 1 ]"
bisect e2 --variant nosuch "$CZ_TMP/plant.ini"
ok "an unknown sequence: exit $rc, one line: $(cat "$CZ_TMP/e2.err")" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e2.err') -eq 1 ]"
bisect e3 --seed x "$CZ_TMP/plant.ini"
ok "a bad seed: exit $rc, one line naming it" -- \
	sh -c "[ $rc -eq 2 ] && grep -q \"'x'\" '$CZ_TMP/e3.err' && [ \$(wc -l <'$CZ_TMP/e3.err') -eq 1 ]"
"$ZAB" run -e "$CZ_TMP/plant.ini" --only-variants s@3,nope --no-store >/dev/null 2>"$CZ_TMP/o.err"
rc=$?
ok "run --only-variants naming no variant: exit $rc, one line: $(cat "$CZ_TMP/o.err")" -- \
	sh -c "[ $rc -eq 2 ] && grep -q \"'nope'\" '$CZ_TMP/o.err' && [ \$(wc -l <'$CZ_TMP/o.err') -eq 1 ]"
"$ZAB" run -e "$CZ_TMP/plant.ini" --only-variants s@3 --base s@0 --no-store >/dev/null 2>"$CZ_TMP/o.err"
rc=$?
ok "run --only-variants without the base: exit $rc, one line: $(cat "$CZ_TMP/o.err")" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/o.err') -eq 1 ]"
"$ZAB" run -e "$CZ_TMP/plant.ini" --only-variants s@0,s@9 --no-store --json "$CZ_TMP/o.json" >/dev/null 2>&1
ok "run --only-variants s@0,s@9: those two variants run" -- \
	sh -c "grep -q '\"s@9\"' '$CZ_TMP/o.json' && ! grep -q '\"s@8\"' '$CZ_TMP/o.json'"
done_testing
