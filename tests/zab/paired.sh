#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: verdict = paired (fixed placement): (R)/(I) from the runs of one slot
# paired, on result files with planted numbers read back by zab report, and
# on a live run.  Runs move by x1 or x2 at random, the same for A and B of a
# slot (a machine's slow mode lasting seconds):
#  - B 10% faster in every run: the CIs overlap (no flag by the seed's
#    rule), paired: (I), about +10%;
#  - A/A (same numbers but noise): no flag either way;
#  - a file without "verdict" is the overlap rule; report --verdict
#    overrides the file's; a bad "verdict" in a file, --verdict or
#    verdict= in an experiment file: one line naming the value, exit 2;
#  - files recorded under different rules are pooled only with --verdict;
#  - zab run --verdict paired / verdict = paired records "verdict" in the
#    JSON and says the rule under the table.
# Deterministic (seeded numbers): no timing involved.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v python3 >/dev/null || skip_all "python3 not found (writes the result files)"

# gen FILE CODE-EFFECT [VERDICT]: a fixed-placement result, 3 sessions x 6 runs
gen() {
	python3 - "$@" <<'PYEOF'
import json, random, sys
path, ceff = sys.argv[1], float(sys.argv[2])
verdict = sys.argv[3] if len(sys.argv) > 3 else None
rnd = random.Random(4242)
S, R = 3, 6
runs = [(s, rnd.choice((1.0, 2.0))) for s in range(1, S + 1) for _ in range(R)]
cells = []
for v, code in (('a', 1.0), ('b', ceff)):
    x = [1000.0 / f * code * (1 + 0.01 * rnd.gauss(0, 1)) for _, f in runs]
    ns = [200.0 * f / code * (1 + 0.01 * rnd.gauss(0, 1)) for _, f in runs]
    sess = [s for s, _ in runs]
    cells.append({'benchmark': 'x', 'variant': v, 'samples': x, 'sample_sessions': sess,
                  'failed': False, 'error': None})
    cells.append({'benchmark': 'x ns', 'variant': v, 'samples': ns, 'sample_sessions': sess,
                  'failed': False, 'error': None})
ex = {'name': 'pair', 'sessions': S, 'warmups': 0, 'repeats': R, 'base': 'a', 'placement': 'fixed'}
if verdict is not None:
    ex['verdict'] = verdict
doc = {'zab': 1, 'sut': 't', 'experiment': ex,
       'benchmarks': [{'name': 'x', 'group': 'g', 'unit': 'ops/s', 'better': 'higher',
                       'source': 'command'},
                      {'name': 'x ns', 'group': 'g', 'unit': 'ns', 'better': 'lower',
                       'source': 'command'}],
       'variants': [{'name': 'a'}, {'name': 'b'}],
       'cells': [cells[0], cells[2], cells[1], cells[3]]}
json.dump(doc, open(path, 'w'), indent=1)
PYEOF
}
# col FILE CLASS VARIANT N: column N of that CSV row
col() {
	awk -F, -v c="$2" -v v="$3" -v n="$4" '$3 == c && $6 == v { print $n }' "$1"
}

# --- B 10% faster, runs moving x1/x2 together -------------------------------------------
gen "$CZ_TMP/code.json" 1.1
"$ZAB" report "$CZ_TMP/code.json" --style grid --export-csv "$CZ_TMP/ov.csv" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "no verdict in the file: report exit 0" -- [ $? -eq 0 ]
for c in x 'x ns'; do
	s=$(col "$CZ_TMP/ov.csv" "$c" b 18)
	ok "overlap rule: $c / b not flagged, the CIs overlap under the x2 runs ('$s')" -- [ "$s" = none ]
done
ok "overlap rule: the footer says so" -- grep -q 'the 95% confidence intervals do not overlap' "$CZ_TMP/out"

gen "$CZ_TMP/code-p.json" 1.1 paired
"$ZAB" report "$CZ_TMP/code-p.json" --style grid --export-csv "$CZ_TMP/p.csv" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "verdict paired in the file: report exit 0" -- [ $? -eq 0 ]
for c in x 'x ns'; do
	s=$(col "$CZ_TMP/p.csv" "$c" b 18)
	ok "paired: $c / b is (I) ('$s')" -- [ "$s" = I ]
	s=$(col "$CZ_TMP/p.csv" "$c" b 17)
	# higher is better: B/A - 1 = +10%; lower is better: 1 - B/A = 1 - 1/1.1 = +9.1%
	ok "paired: $c / b change +9..+11% ('$s')" -- awk -v s="$s" 'BEGIN { exit !(s > 8.5 && s < 11) }'
done
ok "paired: the footer names the rule" -- grep -q 'runs of one slot paired, excludes 0' "$CZ_TMP/out"

"$ZAB" report --verdict paired "$CZ_TMP/code.json" --style plain --export-csv "$CZ_TMP/o.csv" \
	--export-zab "$CZ_TMP/o.json" >/dev/null 2>"$CZ_TMP/err"
ok "report --verdict paired overrides the file: exit 0" -- [ $? -eq 0 ]
s=$(col "$CZ_TMP/o.csv" x b 18)
ok "report --verdict paired: x / b is (I) ('$s')" -- [ "$s" = I ]
ok "report --verdict paired: its JSON says paired" -- grep -q '"verdict": *"paired"' "$CZ_TMP/o.json"
"$ZAB" report --verdict overlap "$CZ_TMP/code-p.json" --style plain --export-csv "$CZ_TMP/o.csv" \
	>/dev/null 2>"$CZ_TMP/err"
s=$(col "$CZ_TMP/o.csv" x b 18)
ok "report --verdict overlap on a paired file: x / b not flagged ('$s')" -- [ "$s" = none ]

# --- pooling files judged by different rules: only with --verdict ------------------------------
"$ZAB" report "$CZ_TMP/code.json" "$CZ_TMP/code-p.json" >/dev/null 2>"$CZ_TMP/err"
st=$?
ok "pooling an overlap and a paired file: exit 2, one line naming both ($(head -n 1 "$CZ_TMP/err"))" -- \
	eval '[ $st -eq 2 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] && grep -q "code.json" "$CZ_TMP/err" && grep -q "code-p.json" "$CZ_TMP/err"'
"$ZAB" report "$CZ_TMP/code.json" "$CZ_TMP/code-p.json" --verdict paired --style plain \
	--export-csv "$CZ_TMP/pool.csv" >/dev/null 2>"$CZ_TMP/err"
ok "pooling them with --verdict paired: exit 0" -- [ $? -eq 0 ]
s=$(col "$CZ_TMP/pool.csv" x b 18)
ok "pooled under --verdict paired: x / b is (I) ('$s')" -- [ "$s" = I ]

# --- A/A: no flag ------------------------------------------------------------------------
gen "$CZ_TMP/aa.json" 1.0 paired
"$ZAB" report "$CZ_TMP/aa.json" --style plain --export-csv "$CZ_TMP/aa.csv" >/dev/null 2>&1
for c in x 'x ns'; do
	s=$(col "$CZ_TMP/aa.csv" "$c" b 18)
	ok "A/A paired: $c / b not flagged ('$s')" -- [ "$s" = none ]
done

# --- bad values: one line naming it, exit 2 -------------------------------------------------
gen "$CZ_TMP/bad.json" 1.1 sideways
"$ZAB" report "$CZ_TMP/bad.json" >/dev/null 2>"$CZ_TMP/err"
st=$?
ok "a file with verdict 'sideways': exit 2, one line ($(head -n 1 "$CZ_TMP/err"))" -- \
	eval '[ $st -eq 2 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] && grep -q verdict "$CZ_TMP/err"'
"$ZAB" report --verdict maybe "$CZ_TMP/code.json" >/dev/null 2>"$CZ_TMP/err"
st=$?
ok "report --verdict maybe: exit 2, one line naming it" -- \
	eval '[ $st -eq 2 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] && grep -q "maybe" "$CZ_TMP/err"'
"$ZAB" run -b "s=$FAKE --sd 0.01" -v a -v b -S 1 -R 2 --verdict maybe >/dev/null 2>"$CZ_TMP/err"
st=$?
ok "run --verdict maybe: exit 2, one line naming it" -- \
	eval '[ $st -eq 2 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] && grep -q "maybe" "$CZ_TMP/err"'
printf '[experiment]\nverdict = maybe\n[benchmark s]\ncmd = %s --sd 0.01\n[variant a]\n[variant b]\n' \
	"$FAKE" >"$CZ_TMP/bad.ini"
"$ZAB" run "$CZ_TMP/bad.ini" >/dev/null 2>"$CZ_TMP/err"
st=$?
ok "verdict = maybe in an experiment file: exit 2, one line naming it" -- \
	eval '[ $st -eq 2 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] && grep -q "maybe" "$CZ_TMP/err"'

# --- a live run records the rule -----------------------------------------------------------
"$ZAB" run -b "s=$FAKE --sd 0.01" -v a -v 'b:FAKE_SCALE=1.05' -S 2 -R 3 --seed 7 --verdict paired \
	--style grid --export-zab "$CZ_TMP/run.json" --no-progress >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "run --verdict paired: exit 0" -- [ $? -eq 0 ]
ok "run --verdict paired: JSON experiment.verdict is paired" -- grep -q '"verdict": *"paired"' "$CZ_TMP/run.json"
ok "run --verdict paired: the footer names the rule" -- grep -q 'runs of one slot paired, excludes 0' "$CZ_TMP/out"
printf '[experiment]\nverdict = paired\nsessions = 1\nrepeats = 2\n[benchmark s]\ncmd = %s --sd 0.01\n[variant a]\n[variant b]\n' \
	"$FAKE" >"$CZ_TMP/ok.ini"
"$ZAB" run "$CZ_TMP/ok.ini" --export-zab "$CZ_TMP/ini.json" --no-progress >/dev/null 2>"$CZ_TMP/err"
ok "verdict = paired in an experiment file: recorded" -- grep -q '"verdict": *"paired"' "$CZ_TMP/ini.json"
"$ZAB" run -b "s=$FAKE --sd 0.01" -v a -v b -S 1 -R 2 --export-zab "$CZ_TMP/def.json" \
	--no-progress >/dev/null 2>"$CZ_TMP/err"
ok "the default rule is overlap (recorded)" -- grep -q '"verdict": *"overlap"' "$CZ_TMP/def.json"
done_testing
