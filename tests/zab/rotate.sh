#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: placement = rotate, the statistics (doc/layouts.md, "Rotation"), on result
# files with planted numbers read back by zab report (the reader and the
# verdicts both): every run holds every layout, runs move by x1 or x2 at
# random (a machine slow mode, the same for A and B of a slot):
#  - a 30% layout effect at two offsets, no code effect: layout significant
#    (two-way F test), A vs B no difference;
#  - B 20% faster at every layout, no layout effect: (I), B better at every
#    layout, layout not significant;
#  - the command's class (no per-layout values): the note says the layouts
#    rotate, the verdict is the paired one;
#  - two files pooled by report: the runs pair across both, per-layout
#    values kept;
#  - malformed layout_offsets / sample_layouts: one line, exit 2;
#  - refused placements (65 offsets, c_store_loop by its loop, a variant
#    without a device): one line, exit 2.
# Deterministic (seeded numbers): no timing involved.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/zab/samelib.sh"
command -v python3 >/dev/null || skip_all "python3 not found (writes the result files)"

# gen FILE LAYOUT-EFFECT CODE-EFFECT [BAD]: a rotate result, 2 sessions x 8 runs, 8 layouts
gen() {
	python3 - "$@" <<'PYEOF'
import json, math, random, sys
path, leff, ceff = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
bad = sys.argv[4] if len(sys.argv) > 4 else ''
rnd = random.Random(12345)
offs = list(range(0, 29, 4))
slow = {16, 20}                     # the offsets the layout effect slows
S, R = 2, 8
runs = [(s, rnd.choice((1.0, 2.0))) for s in range(1, S + 1) for _ in range(R)]
def cell(bench, var, samples, sess, lay=None):
    c = {'benchmark': bench, 'variant': var, 'samples': samples, 'sample_sessions': sess,
         'layout_offsets': offs, 'failed': False, 'error': None}
    if lay is not None:
        c['sample_layouts'] = lay
    return c
cells = {}
for v, code in (('a', 1.0), ('b', ceff)):
    ns_runs, cmd = [], []
    for s, f in runs:
        ns = [200.0 * f / code * (1 + leff if o in slow else 1) * (1 + 0.01 * rnd.gauss(0, 1))
              for o in offs]
        ns_runs.append(ns)
        cmd.append(1000.0 / f * code * (1 + 0.005 * rnd.gauss(0, 1)))
    sess = [s for s, _ in runs]
    cells[v] = [
        cell('x', v, cmd, sess),
        cell('x in-device', v, [4096e9 / (sum(r) / len(r)) for r in ns_runs], sess,
             [[4096e9 / y for y in r] for r in ns_runs]),
        cell('x in-device per chunk', v, [sum(r) / len(r) for r in ns_runs], sess, ns_runs)]
if bad == 'row':
    cells['b'][1]['sample_layouts'][3] = cells['b'][1]['sample_layouts'][3][:5]
elif bad == 'offset':
    cells['b'][1]['layout_offsets'] = offs[:7] + [offs[0]]
elif bad == 'value':
    cells['b'][1]['sample_layouts'][0][0] = -1
doc = {'zab': 1, 'sut': 't',
       'experiment': {'name': 'rot', 'sessions': S, 'warmups': 0, 'repeats': R, 'base': 'a',
                      'placement': 'rotate:0..28:4@entry'},
       'benchmarks': [{'name': 'x', 'group': 'g', 'unit': 'ops/s', 'better': 'higher',
                       'source': 'command'},
                      {'name': 'x in-device', 'group': 'g', 'unit': 'bytes/sec', 'better': 'higher',
                       'source': 'device: bytes per second of routine time'},
                      {'name': 'x in-device per chunk', 'group': 'g', 'unit': 'ns', 'better': 'lower',
                       'source': 'device: routine ns per chunk'}],
       'variants': [{'name': 'a', 'placement': 'rotate:0..28:4@entry'},
                    {'name': 'b', 'placement': 'rotate:0..28:4@entry'}],
       'cells': [c for i in range(3) for c in (cells['a'][i], cells['b'][i])]}
json.dump(doc, open(path, 'w'), indent=1)
PYEOF
}
# col FILE CLASS VARIANT N: column N of that CSV row
col() {
	awk -F, -v c="$2" -v v="$3" -v n="$4" '$3 == c && $6 == v { print $n }' "$1"
}

# --- a layout effect under a large per-run factor, no code effect ------------------------
gen "$CZ_TMP/lay.json" 0.3 1.0
# the same runs with planted preempted shares (the footer shows them), into a store and back
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for c in d['cells']:
    if 'in-device' in c['benchmark']:
        c['sample_preempted'] = [(k % 4) / 8 for k in range(len(c['samples']))]
json.dump(d, open(sys.argv[2], 'w'))" "$CZ_TMP/lay.json" "$CZ_TMP/pre.json"
store_same "$CZ_TMP/pre.json" "per-layout values and preempted shares of rotating runs"
"$ZAB" report "$CZ_TMP/lay.json" --style grid --export-csv "$CZ_TMP/lay.csv" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "layout effect: report exit 0" -- [ $? -eq 0 ]
for v in a b; do
	for c in 'x in-device' 'x in-device per chunk'; do
		s=$(col "$CZ_TMP/lay.csv" "$c" $v 28)
		ok "layout effect: $c / $v: layout matters (CSV column 28 '$s')" -- [ "$s" = yes ]
		s=$(col "$CZ_TMP/lay.csv" "$c" $v 20)
		ok "layout effect: $c / $v: 8 layouts (CSV column 20 '$s')" -- [ "$s" = 8 ]
		s=$(col "$CZ_TMP/lay.csv" "$c" $v 21)
		ok "layout effect: $c / $v: sensitivity 20..35% (CSV column 21 '$s')" -- \
			awk -v s="$s" 'BEGIN { exit !(s > 20 && s < 35) }'
	done
done
ok "layout effect: not flagged (A vs B, runs paired)" -- sh -c "! grep -Eq '\((R|I)\) [-+]?[0-9]' '$CZ_TMP/out'"
ok "layout effect: 'b vs a, 16 runs paired: no difference'" -- \
	grep -q 'x in-device: layouts rotating within each run.*b vs a, 16 runs paired: no difference' "$CZ_TMP/out"
ok "layout effect: the sensitivity is starred (F test)" -- \
	grep -Eq 'x in-device per chunk: layouts rotating .*: a [0-9.]+%\* / b [0-9.]+%\*' "$CZ_TMP/out"
s=$(col "$CZ_TMP/lay.csv" 'x in-device' b 18)
ok "layout effect: CSV verdict of b is none ('$s')" -- [ "$s" = none ]
ok "command class: the layouts rotate, no sensitivity, paired verdict" -- \
	grep -q '^x: layouts rotating within each run (no sensitivity); b vs a, 16 runs paired: no difference' "$CZ_TMP/out"

# --- a code effect (B 20% faster at every layout), no layout effect ----------------------
gen "$CZ_TMP/code.json" 0 1.2
"$ZAB" report "$CZ_TMP/code.json" --style grid --export-csv "$CZ_TMP/code.csv" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "code effect: report exit 0" -- [ $? -eq 0 ]
ok "code effect: (I) in every row (three classes)" -- \
	[ "$(grep -Ec '\(I\) [-+](1[5-9]|2[0-5])\.[0-9]+%' "$CZ_TMP/out")" -eq 3 ]
ok "code effect: b better at 8/8 layouts, worse at 0/8" -- \
	grep -q 'b better at 8/8 layouts, worse at 0/8' "$CZ_TMP/out"
for v in a b; do
	s=$(col "$CZ_TMP/code.csv" 'x in-device per chunk' $v 28)
	ok "code effect: $v: layout does not matter (CSV column 28 '$s')" -- [ "$s" = no ]
done
s=$(col "$CZ_TMP/code.csv" 'x in-device per chunk' b 17)
# lower is better: 1 - B/A, the rule of every mode (B takes 1/1.2 of A's ns: +16.7%)
ok "code effect: CSV change of the ns row about +16.7% ('$s')" -- \
	awk -v s="$s" 'BEGIN { exit !(s > 15.7 && s < 17.7) }'

# --- two files pooled: their runs and per-layout values kept --------------------------
gen "$CZ_TMP/lay2.json" 0.3 1.0
"$ZAB" report "$CZ_TMP/lay.json" "$CZ_TMP/lay2.json" --style plain --export-csv "$CZ_TMP/pool.csv" \
	>"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "two rotate files pooled: exit 0" -- [ $? -eq 0 ]
ok "pooled: 32 runs paired" -- grep -q 'b vs a, 32 runs paired' "$CZ_TMP/out"
s=$(col "$CZ_TMP/pool.csv" 'x in-device' b 27)
ok "pooled: every layout holds the 32 runs (CSV column 27 '${s%%;*}...')" -- \
	[ "$(echo "$s" | tr ';' '\n' | awk -F: '$2 == 32' | wc -l)" -eq 8 ]

# --- layout or code? a rotate file as the one over layouts --------------------------------
"$ZAB" report --layout-or-code "$CZ_TMP/code.json" "$CZ_TMP/lay.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "--layout-or-code takes a rotate result (exit 0)" -- [ $? -eq 0 ]
ok "--layout-or-code: code effect at own placements gone over rotating layouts: layout" -- \
	grep -Eq 'x in-device per chunk \(ns\), b vs a: \(I\) [^ ]+ -> [-+][0-9.]+%: layout' "$CZ_TMP/out"

# --- malformed -------------------------------------------------------------------------
for bad in row offset value; do
	gen "$CZ_TMP/bad.json" 0.3 1.0 $bad
	"$ZAB" report "$CZ_TMP/bad.json" >/dev/null 2>"$CZ_TMP/err"
	rc=$?
	ok "malformed ($bad): exit 2 ($rc)" -- [ $rc -eq 2 ]
	ok "malformed ($bad): one line" -- [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ]
done
# --- refusals: one line naming the value, exit 2 (no device needed: --dry-run) ---------
refuse() {	# refuse WHAT GREP-PATTERN ZAB-RUN-ARGS...
	what=$1 pat=$2
	shift 2
	"$ZAB" run -b "x=$FAKE" "$@" --dry-run >/dev/null 2>"$CZ_TMP/err"
	rc=$?
	ok "$what: exit 2 ($rc)" -- [ $rc -eq 2 ]
	ok "$what: one line naming it ($(head -c 160 "$CZ_TMP/err"))" -- \
		sh -c "[ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q -- '$pat' '$CZ_TMP/err'"
}
D='-v a:routine=clear_user_arm64 -v b:routine=clear_user_arm64'
refuse "65 offsets" "rotate:0..256:4@entry: 65 offsets, at most 64" $D --placement rotate:0..256:4@entry
refuse "compiled C by its loop" "routine c_store_loop has no loop head" \
	-v 'a:routine=c_store_loop' -v 'b:routine=c_store_loop' --placement rotate:0..12:4@loop
refuse "a variant without a device" "placement=rotate rotates a cusezero daemon" \
	-v a -v b --placement rotate
refuse "rotate: without a set" "rotate:" $D --placement rotate:
"$ZAB" run -b "x=$FAKE" $D --placement rotate:0..60:4@entry --dry-run >/dev/null 2>"$CZ_TMP/err"
ok "rotate:0..60:4@entry (16 offsets): accepted" -- [ $? -eq 0 ]
"$ZAB" run -b "x=$FAKE" -v 'a:routine=c_store_loop' -v 'b:routine=c_store_loop' \
	--placement rotate:0..12:4@entry --dry-run >/dev/null 2>"$CZ_TMP/err"
ok "compiled C by its entry: accepted" -- [ $? -eq 0 ]
done_testing
