#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab's hyperfine mode against hyperfine 1.15 itself.  The
# example lines of hyperfine's man page (-P threads 1 8, -P size 0 3,
# -P delay 0.3 0.7 -D 0.2, -L compiler gcc,clang) and README (--runs,
# --warmup 3 'grep -R TODO *', --prepare, --min-runs, -N, -n, --export-*),
# with cheap commands in place of make and compilers and a run count where a
# line sets none (so the test takes seconds), run through both
# "hyperfine ARGS" and "zab hyperfine ARGS": the same exit status and the same
# SHAPE of --export-json (number of results, their command names, parameters,
# keys, and the number of runs when the line fixes it), the same CSV header
# and Markdown table header.  Then "zab ARGS" (no word) and "zab run CMD..."
# (zab's own mode: the commands as variants, zab's table).
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

if ! command -v hyperfine >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && { echo "1..1"; echo "not ok 1 - hyperfine not installed (PKG_TEST)"; exit 1; }
	skip_all "hyperfine not installed: nothing to compare zab's hyperfine mode with"
fi
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed: the JSON is not compared"
cd "$CZ_TMP" || exit 1
printf 'a TODO here\n' >file
printf 'nothing\n' >other

# shape H.json Z.json RUNS: the results' count, commands, parameters and keys (and runs) equal
shape() {
	python3 - "$@" <<'PY'
import json, sys
h, z = (json.load(open(f))["results"] for f in sys.argv[1:3])
runs = sys.argv[3] == "yes"
def sig(rs):
    return [(r["command"], r.get("parameters"), sorted(r),
             len(r["times"]) if runs else None, len(r["exit_codes"]) == len(r["times"])) for r in rs]
if sig(h) != sig(z):
    print("# hyperfine:", sig(h)); print("# zab:      ", sig(z)); sys.exit(1)
PY
}

# line RUNS-FIXED ARGS...: both tools, the same exit status and JSON shape
n=0
line() {
	runs=$1; shift
	n=$((n + 1))
	hyperfine "$@" --style basic --export-json "h$n.json" >"h$n.out" 2>&1; hrc=$?
	"$ZAB" hyperfine "$@" --style basic --export-json "z$n.json" >"z$n.out" 2>&1; zrc=$?
	if [ "$hrc" -ne "$zrc" ]; then
		fail "hyperfine $*: exit $hrc, zab hyperfine: exit $zrc ($(tail -n 1 "z$n.out"))"
	elif [ "$hrc" -ne 0 ]; then
		pass "hyperfine $*: both exit $hrc"
	else
		ok "hyperfine $*: the same results, names, parameters, keys" -- shape "h$n.json" "z$n.json" "$runs"
	fi
}

line yes --runs 5 'sleep 0.01'
line yes --warmup 3 -r 4 'grep -R TODO *'
line yes -r 3 'od file' 'cksum file'
line yes --prepare 'sync' -r 3 'grep -R TODO *'
line yes --min-runs 5 -M 5 'sleep 0.01' 'sleep 0.02'
line no -M 10 'sleep 0.001'
line yes -r 2 -P threads 1 8 'echo make -j {threads}'
line yes -r 2 -S bash -P size 0 3 'sleep 0.00$((2**{size}))'
line yes -r 2 -P delay 0.3 0.7 -D 0.2 -N 'echo {delay}'
line yes -r 2 -L compiler gcc,clang 'echo {compiler} -O2 main.cpp'
line yes -r 2 -L x 1,2 -L y p,q 'echo {x}{y}'
line yes -N -r 3 'grep TODO file'
line yes -r 2 -n short -n long 'sleep 0.001' 'sleep 0.002'
line yes -r 2 -L n 1,2 -n 'run {n}' 'echo {n}'
line yes -r 2 -s 'touch s' -c 'rm s' 'test -f s'
line yes -r 2 -p 'true' -p 'true' 'echo a' 'echo b'
line yes -r 2 -S bash 'echo $BASH_VERSION'
line yes -r 2 false
line yes -r 2 -i false
line yes -r 2 -p false true
line yes -r 2 -s false true
line yes -r 2 -n a -n b true
line yes -m 5 -M 3 true
line yes -r 2 -P x 3 1 true
line yes -r 2 -P x 1.5 3 true
line yes -r 2 -D 1 true
line yes -r 2 -u foo true
line yes -r 2 -w x true
line yes -r 2 -p a -p b x y z
line yes --bogus true

ok "-i false: exit codes [1, 1] in zab's JSON, as hyperfine's" -- python3 -c '
import json, sys
sys.exit(not all(json.load(open(f))["results"][0]["exit_codes"] == [1, 1] for f in sys.argv[1:]))' h19.json z19.json

# CSV and Markdown: hyperfine's headers, one row per command (sleep: hyperfine has no
# relative speed for a command shorter than its shell calibration)
hyperfine -r 2 -L n 1,2 'sleep 0.00{n}' --export-csv h.csv --export-markdown h.md >/dev/null 2>&1
"$ZAB" hyperfine -r 2 -L n 1,2 'sleep 0.00{n}' --export-csv z.csv --export-markdown z.md >/dev/null 2>&1
ok "--export-csv: the header '$(head -n 1 h.csv)', 3 lines" -- \
	eval '[ "$(head -n 1 h.csv)" = "$(head -n 1 z.csv)" ] && [ "$(wc -l <z.csv)" -eq 3 ]'
md_same() { [ "$(head -n 2 h.md)" = "$(head -n 2 z.md)" ] && [ "$(wc -l <z.md)" -eq 4 ] && grep -qF '| `sleep 0.002` |' z.md; }
ok "--export-markdown: the header '$(head -n 1 h.md)' and 4 lines" -- md_same

# The report: per command its lines, then the summary naming the fastest
"$ZAB" hyperfine -r 3 'sleep 0.001' 'sleep 0.03' >rep.out 2>&1
ok "the report: Benchmark 1/2, Time, Range, Summary 'sleep 0.001' ran ... faster" -- \
	eval 'grep -q "^Benchmark 2: sleep 0.03" rep.out && grep -q "Range (min" rep.out &&
	      grep -q "'"'"'sleep 0.001'"'"' ran" rep.out && grep -q "times faster than '"'"'sleep 0.03'"'"'" rep.out'
# sleep 0.03 takes at least 30 ms, each of its times says so
ok "times are wall-clock seconds: sleep 0.02 >= 0.02 s each" -- python3 -c '
import json, sys
sys.exit(not min(json.load(open(sys.argv[1]))["results"][1]["times"]) >= 0.02)' z5.json

# zab without a word: the same mode when the first word is an option or a program
"$ZAB" -w 1 -M 10 'sleep 0.001' --export-json bare.json >/dev/null 2>&1; rc=$?
ok "zab -w 1 -M 10 'sleep 0.001': exit $rc, hyperfine's JSON" -- \
	eval '[ $rc -eq 0 ] && shape h6.json bare.json no'
"$ZAB" frobnicate >/dev/null 2>frob.err; rc=$?
ok "zab frobnicate (no such program): exit $rc, an unknown command" -- \
	eval '[ $rc -eq 2 ] && grep -q "unknown command .frobnicate." frob.err'

# zab run CMD...: zab's own mode, -S are sessions, the commands as variants
"$ZAB" run --no-progress -S 2 -R 2 --seed 1 'sleep 0.001' 'sleep 0.03' \
	--export-json run.json --export-zab run.zab >run.out 2>run.err; rc=$?
ok "zab run -S 2 -R 2 CMD CMD: exit $rc, 2 sessions x 2 runs, sleep 0.03 a regression" -- \
	eval '[ $rc -eq 0 ] && grep -q "2 sessions x (0 warm-ups + 2 repeats)" run.out && grep -q "(R)" run.out'
ok "zab run --export-json: hyperfine's layout, 2 results; --export-zab: zab's JSON" -- python3 -c '
import json, sys
h = json.load(open("run.json"))["results"]; z = json.load(open("run.zab"))
sys.exit(not (len(h) == 2 and len(h[0]["times"]) == 4 and "zab" in z))'
done_testing
