#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: Placement as a factor (placement = random|sweep), with the fake benchmark:
#  - each run's offset is the one drawn ($ZAB_OFFSET), the one recorded, and
#    the same for every variant of a slot (paired);
#  - a planted layout effect and no code effect: no difference over layouts,
#    a large and significant layout sensitivity;
#  - a planted code effect and no layout effect: the reverse.
# Deterministic (seeded fake numbers): no timing involved.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/zab/samelib.sh"
command -v python3 >/dev/null || skip_all "python3 not found (reads the JSON)"

exp() {	# exp FILE PLACEMENT CMD [B-ENV]: an A/B experiment file
	cat >"$1" <<EOT
[experiment]
sessions = 2
repeats = 16
placement = $2
[benchmark x]
cmd = $3
[variant a]
[variant b]
$4
EOT
}
json() {	# json FILE PYTHON-EXPRESSION-OVER-d: exit 0 when true
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

# --- drawn = recorded, paired ---------------------------------------------------
exp "$CZ_TMP/rec" 'random:0..60:4' "sh -c 'echo \$ZAB_VARIANT \$ZAB_OFFSET >>$CZ_TMP/log; echo \$((1000 + ZAB_OFFSET))'"
"$ZAB" run "$CZ_TMP/rec" --seed 7 --style plain --export-zab "$CZ_TMP/rec.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "placement = random: exit 0" -- [ $? -eq 0 ]
ok "each sample is 1000 + the offset recorded with it (drawn = recorded)" -- \
	json "$CZ_TMP/rec.json" "all(s == 1000 + o for c in d['cells'] for s, o in zip(c['samples'], c['sample_offsets']))"
store_same "$CZ_TMP/rec.json" "per-sample offsets (placement random)"
ok "the offsets each variant's commands saw, in order, are the recorded ones" -- \
	sh -c "[ \"\$(awk '\$1 == \"a\" { print \$2 }' '$CZ_TMP/log' | tr '\n' ' ')\" = \"\$(python3 -c \"import json; print(' '.join(str(o) for o in json.load(open('$CZ_TMP/rec.json'))['cells'][0]['sample_offsets']) + ' ')\")\" ]"
ok "paired: a and b ran slot for slot at the same offsets" -- \
	json "$CZ_TMP/rec.json" "d['cells'][0]['sample_offsets'] == d['cells'][1]['sample_offsets']"
ok "offsets drawn from the set only, more than one" -- \
	json "$CZ_TMP/rec.json" "set(d['cells'][0]['sample_offsets']) <= set(range(0, 61, 4)) and len(set(d['cells'][0]['sample_offsets'])) > 1"
ok "the placement is recorded" -- \
	json "$CZ_TMP/rec.json" "d['experiment']['placement'] == 'random:0..60:4' and d['variants'][1]['placement'] == 'random:0..60:4'"
"$ZAB" run "$CZ_TMP/rec" --seed 7 --style plain --export-zab "$CZ_TMP/rec2.json" >/dev/null 2>&1
ok "the same seed draws the same offsets" -- \
	json "$CZ_TMP/rec2.json" "d['cells'][0]['sample_offsets'] == json.load(open('$CZ_TMP/rec.json'))['cells'][0]['sample_offsets']"
"$ZAB" run "$CZ_TMP/rec" --seed 8 --style plain --export-zab "$CZ_TMP/rec3.json" >/dev/null 2>&1
ok "another seed draws others" -- \
	json "$CZ_TMP/rec3.json" "d['cells'][0]['sample_offsets'] != json.load(open('$CZ_TMP/rec.json'))['cells'][0]['sample_offsets']"
"$ZAB" run "$CZ_TMP/rec" --seed 7 --dry-run >"$CZ_TMP/dry" 2>/dev/null
ok "--dry-run prints each run's offset, the recorded ones" -- \
	sh -c "[ \"\$(grep '^  repeat' '$CZ_TMP/dry' | sed 's/.* a@\\([0-9]*\\).*/\\1/' | tr '\\n' ' ')\" = \"\$(python3 -c \"import json; print(' '.join(str(o) for o in json.load(open('$CZ_TMP/rec.json'))['cells'][0]['sample_offsets']) + ' ')\")\" ]"
exp "$CZ_TMP/sweep" 'sweep:0..12:4' "sh -c 'echo \$((1000 + ZAB_OFFSET))'"
"$ZAB" run "$CZ_TMP/sweep" --seed 1 --style plain --export-zab "$CZ_TMP/sweep.json" >/dev/null 2>&1
ok "placement = sweep: the set in turn, 8 runs per offset" -- \
	json "$CZ_TMP/sweep.json" "d['cells'][0]['sample_offsets'] == [0, 4, 8, 12] * 8"
exp "$CZ_TMP/fixed" 'fixed' "$FAKE"
"$ZAB" run "$CZ_TMP/fixed" --seed 1 --style plain --export-zab "$CZ_TMP/fixed.json" >"$CZ_TMP/out" 2>&1
ok "placement = fixed: no offsets, no layout figures" -- \
	sh -c "! grep -q sample_offsets '$CZ_TMP/fixed.json' && ! grep -q 'layout' '$CZ_TMP/out'"

# --- a layout effect, no code effect ------------------------------------------------
exp "$CZ_TMP/lay" 'sweep:0..28:4' "$FAKE --sd 0.01 --offset-effect 0.1"
"$ZAB" run "$CZ_TMP/lay" --seed 3 --style grid --export-zab "$CZ_TMP/lay.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "layout effect only: exit 0" -- [ $? -eq 0 ]
ok "layout effect only: not flagged" -- sh -c "! grep -Eq '\((R|I)\) [-+]?[0-9]' '$CZ_TMP/out'"
ok "layout effect only: 'no difference' over 8 layouts" -- \
	grep -q 'b vs a over 8 layouts: no difference' "$CZ_TMP/out"
ok "layout effect only: JSON verdict paired by layout is no difference" -- \
	json "$CZ_TMP/lay.json" "d['cells'][1]['paired_by_layout']['verdict'] == 'no difference'"
ok "layout effect only: large, significant sensitivity for both (> 5%, layout > 80% of the variance)" -- \
	json "$CZ_TMP/lay.json" "all(c['over_layouts']['sensitivity_pct'] > 5 and c['over_layouts']['sensitivity_significant'] and c['over_layouts']['layout_share'] > 0.8 for c in d['cells'])"
ok "layout effect only: the interval over layouts holds the between-layout spread" -- \
	json "$CZ_TMP/lay.json" "all(c['over_layouts']['ci_hi'] - c['over_layouts']['ci_lo'] > 20 for c in d['cells'])"

# --- a code effect, no layout effect ------------------------------------------------
exp "$CZ_TMP/code" 'sweep:0..28:4' "$FAKE --sd 0.01" "env.FAKE_SCALE = 1.05"
"$ZAB" run "$CZ_TMP/code" --seed 3 --style grid --export-zab "$CZ_TMP/code.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "code effect only: exit 0" -- [ $? -eq 0 ]
ok "code effect only: (I) about +5%" -- grep -Eq '\(I\) \+[45]\.[0-9]+%' "$CZ_TMP/out"
ok "code effect only: b better at 8/8 layouts, worse at 0/8" -- \
	grep -q 'b better at 8/8 layouts, worse at 0/8' "$CZ_TMP/out"
ok "code effect only: JSON verdict improvement, change within 1 point of 5%" -- \
	json "$CZ_TMP/code.json" "d['cells'][1]['paired_by_layout']['verdict'] == 'improvement' and abs(d['cells'][1]['paired_by_layout']['change_pct'] - 5) < 1"
ok "code effect only: small sensitivity (< 5%), not significant (ANOVA p > 0.05), layout share < 50%" -- \
	json "$CZ_TMP/code.json" "all(c['over_layouts']['sensitivity_pct'] < 5 and not c['over_layouts']['sensitivity_significant'] and c['over_layouts']['layout_p'] > 0.05 and c['over_layouts']['layout_share'] < 0.5 for c in d['cells'])"
ok "layout effect only: ANOVA p < 0.001" -- \
	json "$CZ_TMP/lay.json" "all(c['over_layouts']['layout_p'] < 0.001 for c in d['cells'])"

# --- a session (CPU) effect, no layout effect: sessions are blocks, not layouts ----------
exp "$CZ_TMP/sess" 'random:0..60:4' "$FAKE --sd 0.01 --session-effect 0.2"
"$ZAB" run "$CZ_TMP/sess" --seed 1 -S 4 -R 8 --style grid --export-zab "$CZ_TMP/sess.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "session effect only: layout does not matter (ANOVA p > 0.05, sensitivity < 10%)" -- \
	json "$CZ_TMP/sess.json" "all(not c['over_layouts']['sensitivity_significant'] and c['over_layouts']['sensitivity_pct'] < 10 for c in d['cells'])"
ok "session effect only: not flagged" -- sh -c "! grep -Eq '\((R|I)\) [-+]?[0-9]' '$CZ_TMP/out'"

# --- in process: zbench memset placed at {offset} ---------------------------------------
ZBENCH=$top_builddir/zbench
rel=$("$ZBENCH" align -f help 2>/dev/null | sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' | head -n 1)
if [ -n "$rel" ]; then
	"$ZAB" run -b "memset=$ZBENCH memset -f $rel -s 64KB -l 2 --align {offset} --format simple" \
		-v a -v b --placement random:0..12:4 -R 4 --seed 2 --style plain \
		--export-zab "$CZ_TMP/mem.json" >/dev/null 2>"$CZ_TMP/err"
	ok "in process: zbench memset --align {offset} under placement = random (exit 0)" -- [ $? -eq 0 ]
	ok "in process: the offsets recorded, paired" -- \
		json "$CZ_TMP/mem.json" "len(d['cells'][0]['sample_offsets']) == 4 and d['cells'][0]['sample_offsets'] == d['cells'][1]['sample_offsets']"
else
	tap_skip "in process: no relocatable routine here"
fi

for good in 'random@entry' 'sweep:0,8,16@loop' 'random:0..63' 'fixed'; do
	exp "$CZ_TMP/good" "$good" "$FAKE"
	"$ZAB" run "$CZ_TMP/good" --dry-run >/dev/null 2>"$CZ_TMP/err"
	ok "placement = $good: accepted" -- [ $? -eq 0 ]
done

# --- errors -------------------------------------------------------------------------
for bad in 'random:0..5000' 'sometimes' 'sweep:@middle' 'random:'; do
	exp "$CZ_TMP/bad" "$bad" "$FAKE"
	"$ZAB" run "$CZ_TMP/bad" --dry-run >/dev/null 2>"$CZ_TMP/err"
	ok "placement = $bad: refused (exit 2)" -- [ $? -eq 2 ]
done
"$ZAB" run -b "x=$FAKE" -v 'a:routine=memset,placement=random' -v 'b:routine=memset' --dry-run \
	>/dev/null 2>"$CZ_TMP/err"
ok "a routine that cannot be placed: refused with the reason" -- \
	grep -q "routine memset cannot be placed (placement=random)" "$CZ_TMP/err"
"$ZAB" run -b "x=$FAKE" -v 'a:routine=c_store_loop,placement=random@loop' -v 'b:routine=c_store_loop' \
	--dry-run >/dev/null 2>"$CZ_TMP/err"
ok "compiled C placed by its loop: refused, use @entry" -- \
	grep -q "routine c_store_loop has no loop head to place .*: use random@loop@entry" "$CZ_TMP/err"
"$ZAB" run -b "x=$FAKE" -v 'a:routine=c_store_loop,placement=random@entry' -v 'b:routine=c_store_loop' \
	--dry-run >/dev/null 2>"$CZ_TMP/err"
ok "compiled C placed by its entry: accepted" -- [ $? -eq 0 ]

# --- layout or code?  the same experiment at own placements and over layouts --------------
# The fake's "own placement" is $OWN (zab sets $ZAB_OFFSET only when it places).
own() {	# own FILE PLACEMENT FAKE-ARGS B-ENV
	cat >"$1" <<EOT
[experiment]
sessions = 2
repeats = 8
placement = $2
[benchmark x]
cmd = sh -c 'ZAB_OFFSET=\${ZAB_OFFSET:-\$OWN} exec $FAKE $3'
[variant a]
env.OWN = 0
[variant b]
env.OWN = 12
$4
EOT
}
own "$CZ_TMP/lf" fixed "--sd 0.01 --offset-effect 0.2"
own "$CZ_TMP/lr" 'random:0..60:4' "--sd 0.01 --offset-effect 0.2"
"$ZAB" run "$CZ_TMP/lf" --seed 5 --export-zab "$CZ_TMP/lf.json" >/dev/null 2>&1 &&
	"$ZAB" run "$CZ_TMP/lr" --seed 5 --export-zab "$CZ_TMP/lr.json" >/dev/null 2>&1
ok "layout or code: both runs exit 0" -- [ $? -eq 0 ]
"$ZAB" report --layout-or-code "$CZ_TMP/lf.json" "$CZ_TMP/lr.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "layout or code: a planted layout effect is flagged at own placements, gone over layouts" -- \
	grep -Eq '^  x, b vs a: \((R|I)\) [-+][0-9.]+% -> [-+][0-9.]+%: layout: gone when the code moves$' "$CZ_TMP/out"
own "$CZ_TMP/cf" fixed "--sd 0.01" "env.FAKE_SCALE = 1.05"
own "$CZ_TMP/cr" 'random:0..60:4' "--sd 0.01" "env.FAKE_SCALE = 1.05"
"$ZAB" run "$CZ_TMP/cf" --seed 5 --export-zab "$CZ_TMP/cf.json" >/dev/null 2>&1 &&
	"$ZAB" run "$CZ_TMP/cr" --seed 5 --export-zab "$CZ_TMP/cr.json" >/dev/null 2>&1
"$ZAB" report --layout-or-code "$CZ_TMP/cf.json" "$CZ_TMP/cr.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "layout or code: a planted code effect survives moving the code" -- \
	grep -Eq '^  x, b vs a: \(I\) \+[45]\.[0-9]+% -> \(I\) \+[45]\.[0-9]+%: code: survives moving the code$' "$CZ_TMP/out"
"$ZAB" report --layout-or-code "$CZ_TMP/cf.json" >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "layout or code: one file refused (exit $rc)" -- \
	sh -c "[ $rc -eq 2 ] && grep -q 'exactly two files' '$CZ_TMP/err'"

# --- random: ceil(N/2) layouts, each measured twice, in two sessions ----------------------
exp "$CZ_TMP/bal" 'random:0..60:4' "$FAKE"
"$ZAB" run "$CZ_TMP/bal" --seed 9 -S 3 -R 4 --export-zab "$CZ_TMP/bal.json" >/dev/null 2>&1
ok "random: 12 runs measure 6 layouts twice each, the two in different sessions" -- \
	json "$CZ_TMP/bal.json" "(lambda o, s: len(set(o)) == 6 and all(o.count(x) == 2 for x in o) and all(len({s[i] for i in range(12) if o[i] == x}) == 2 for x in o))(d['cells'][0]['sample_offsets'], d['cells'][0]['sample_sessions'])"
done_testing
