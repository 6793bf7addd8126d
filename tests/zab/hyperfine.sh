#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab for users coming from hyperfine.  A benchmark printing no
# number is timed (wall-clock seconds, lower is better; --time from the first
# run); --runs, -L/--parameter-list, --parameter-scan (+ step size) expand
# variants with {NAME} substituted; --prepare runs before each run, unmeasured;
# --export-hyperfine writes hyperfine's JSON field names; the default gives
# n >= 3 per cell.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

# zrun OUT ARGS...: zab run, the table in OUT, stderr in OUT.err, exit status in $rc
zrun() {
	o=$1; shift
	"$ZAB" run --no-progress --seed 3 "$@" >"$o" 2>"$o.err"
	rc=$?
}

# Plain commands, no option: timed, n = 3 per cell by default.
zrun "$CZ_TMP/true" -b 't=true' -v a -v b -j "$CZ_TMP/true.json"
ok "true, no option: exit $rc (timed, not 'printed no number')" -- \
	eval '[ $rc -eq 0 ] && ! grep -q "printed no number" "$CZ_TMP/true.err"'
ok "timed: the unit is seconds" -- grep -q 't (seconds)' "$CZ_TMP/true"
ok "the default gives 3 measured runs per cell" -- grep -q '= 3 measured runs per cell' "$CZ_TMP/true"
ok "JSON: timed, lower is better" -- \
	eval 'grep -q "\"measure\": \"time\"" "$CZ_TMP/true.json" && grep -q "\"better\": \"lower\"" "$CZ_TMP/true.json"'
# sleep 0.01 takes at least 10 ms: the samples are wall-clock times
zrun "$CZ_TMP/sleep" -b 's=sleep 0.01' -v a -v b --runs 2 --export-hyperfine "$CZ_TMP/sleep.hf"
ok "sleep 0.01: exit $rc, --runs 2: 2 measured runs per cell" -- \
	eval '[ $rc -eq 0 ] && grep -q "= 2 measured runs per cell" "$CZ_TMP/sleep"'
times=$(tr -d '\n ' <"$CZ_TMP/sleep.hf" | grep -o '"times":\[[^]]*\]' | tr -d '"times:[]' | tr ',' ' ')
short=$(for t in $times; do echo "$t"; done | awk '$1 < 0.01' | wc -l)
ok "sleep 0.01: every sample >= 0.01 s ($(echo $times))" -- \
	eval '[ -n "$times" ] && [ "$short" -eq 0 ]'

# --time: stdout ignored; with a unit that is not seconds it is refused.
zrun "$CZ_TMP/timed" -b "f=$FAKE --mean 5" --time -v a -v b -R 1 -j "$CZ_TMP/timed.json"
ok "--time on a command printing 5: its time, not 5" -- \
	eval '[ $rc -eq 0 ] && grep -q "f (seconds)" "$CZ_TMP/timed" && ! grep -q "\"samples\": \[5" "$CZ_TMP/timed.json"'
zrun "$CZ_TMP/bad" -b 't=true' --time --unit bytes -v a -v b
ok "--time --unit bytes: exit $rc, one line" -- \
	eval '[ $rc -eq 2 ] && [ "$(wc -l <"$CZ_TMP/bad.err")" -eq 1 ] && grep -q "bytes" "$CZ_TMP/bad.err"'
# A unit says the command prints its number: printing none is still a failure.
zrun "$CZ_TMP/unit" -b 't=true' --unit bytes/sec -v a -v b -R 1
ok "--unit given, nothing printed: exit $rc, the cell FAILED, --time suggested" -- \
	eval '[ $rc -eq 1 ] && grep -q "printed no number.*--time" "$CZ_TMP/unit.err"'

# -L NAME=A,B,C: one variant per value, {NAME} in commands.
zrun "$CZ_TMP/L" -b "f=$FAKE --sd 0 --mean {n}" -L n=10,20,30 -R 1 -s plain --export-hyperfine "$CZ_TMP/L.hf"
ok "-L n=10,20,30: exit $rc, variants n=10 n=20 n=30" -- \
	eval '[ $rc -eq 0 ] && grep -q "n=10" "$CZ_TMP/L" && grep -q "n=20" "$CZ_TMP/L" && grep -q "n=30" "$CZ_TMP/L"'
ok "-L: n=20 measured 100% above n=10 (fakebench --mean {n})" -- grep -q ' +100.00%' "$CZ_TMP/L"
for f in results command mean stddev median min max times exit_codes parameters; do
	grep -q "\"$f\":" "$CZ_TMP/L.hf" || miss="$miss $f"
done
ok "--export-hyperfine: hyperfine's fields (missing:${miss:- none})" -- [ -z "$miss" ]
ok "--export-hyperfine: parameters of each variant" -- python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if {'n': '30'} in [r['parameters'] for r in d['results']] else 1)" "$CZ_TMP/L.hf"
ok "--export-hyperfine: one run, stddev null" -- grep -q '"stddev": null' "$CZ_TMP/L.hf"
if command -v python3 >/dev/null; then
	ok "--export-hyperfine: valid JSON, 3 results, mean of n=20 is 20" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["command"]: x for x in d["results"]}
sys.exit(not (len(r) == 3 and r["f / n=20"]["mean"] == 20 and r["f / n=20"]["times"] == [20]))' "$CZ_TMP/L.hf"
else
	skip "python3 not installed: the export's JSON is not parsed"
fi
# --parameter-list NAME VALUES (hyperfine's two-argument form) with --variants: every combination,
# {NAME} in the variant's own settings too.
zrun "$CZ_TMP/LV" -b 'e=echo $X' -v 'a:X={n}' -v 'b:X=1{n}' --parameter-list n 1,2 -R 1 -s plain
ok "--parameter-list n 1,2 x 2 variants: exit $rc, 4 variants" -- \
	eval '[ $rc -eq 0 ] && grep -q "a n=1" "$CZ_TMP/LV" && grep -q "a n=2" "$CZ_TMP/LV" && grep -q "b n=1" "$CZ_TMP/LV" && grep -q "b n=2" "$CZ_TMP/LV"'
ok "{n} in a variant's setting: b n=2 printed 12, 1100% above a n=1" -- grep -q ' +1100.00%' "$CZ_TMP/LV"
# --parameter-scan LO HI with a step size
zrun "$CZ_TMP/scan" -b "f=$FAKE --sd 0 --mean {k}" --parameter-scan k 0.5 1.5 --parameter-step-size 0.5 -R 1 -s plain
ok "--parameter-scan k 0.5 1.5 step 0.5: exit $rc, k=0.5 k=1 k=1.5" -- \
	eval '[ $rc -eq 0 ] && grep -q "k=0.5" "$CZ_TMP/scan" && grep -q "k=1 " "$CZ_TMP/scan" && grep -q "k=1.5" "$CZ_TMP/scan"'
zrun "$CZ_TMP/scan2" -b 't=true' --parameter-scan k 3 1
ok "--parameter-scan k 3 1: exit $rc, one line" -- \
	eval '[ $rc -eq 2 ] && [ "$(wc -l <"$CZ_TMP/scan2.err")" -eq 1 ]'

# --prepare: before every run (warm-ups too), not measured; failing, the run fails.
zrun "$CZ_TMP/prep" -b "f=$FAKE" -v a -v b -W 1 -R 2 --prepare "echo {variant} >>$CZ_TMP/prep.log"
ok "--prepare: exit $rc, run before each of the 2 x (1 + 2) runs" -- \
	eval '[ $rc -eq 0 ] && [ "$(wc -l <"$CZ_TMP/prep.log")" -eq 6 ] && [ "$(grep -c "^a$" "$CZ_TMP/prep.log")" -eq 3 ]'
zrun "$CZ_TMP/prepfail" -b "f=$FAKE" -v a -v b -R 1 --prepare false
ok "--prepare false: exit $rc, the cells FAILED naming --prepare" -- \
	eval '[ $rc -eq 1 ] && grep -q "FAILED.*--prepare .false." "$CZ_TMP/prepfail"'

# report re-exports a saved result in hyperfine's layout.
"$ZAB" report "$CZ_TMP/true.json" --export-hyperfine "$CZ_TMP/re.hf" >/dev/null 2>"$CZ_TMP/re.err"
ok "report --export-hyperfine: exit $?, two results" -- \
	eval '[ "$(grep -c "\"command\":" "$CZ_TMP/re.hf")" -eq 2 ]'
done_testing
