#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab's bad input: experiment files (unknown keys, bad values, unknown {vars},
# bad sections), bad options, garbage from a benchmark, failing benchmarks
# (reported with command and output, retried, cell FAILED: never dropped).
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

# bad_file NAME EXPECTED_REGEX: run zab on $CZ_TMP/NAME; want exit 2 and ONE stderr line matching
bad_file() {
	"$ZAB" run "$CZ_TMP/$1" --dry-run >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	rc=$?
	n=$(wc -l <"$CZ_TMP/err")
	if [ $rc -eq 2 ] && [ "$n" -eq 1 ] && grep -q -E -- "$2" "$CZ_TMP/err"; then
		pass "$1: $(cat "$CZ_TMP/err")"
	else
		fail "$1: exit $rc, $n stderr lines, wanted /$2/: $(head -2 "$CZ_TMP/err" | tr '\n' ' ')"
	fi
}
# rc_grep WANT_RC GOT_RC FIXED_STRING FILE: exit status and a line of output
rc_grep() { [ "$2" -eq "$1" ] && grep -q -F -- "$3" "$4"; }
good='[benchmark b]
cmd = true
[variant x]
[variant y]'

printf '[experiment]\nsessions = 2\nfrobnicate = 1\n' >"$CZ_TMP/unknown-key"
bad_file unknown-key "unknown-key:3: unknown key 'frobnicate' in \[experiment\]"
printf '[experiment]\nsessions = many\n%s\n' "$good" >"$CZ_TMP/bad-number"
bad_file bad-number "bad-number:2: bad value 'many' for 'sessions'"
printf '%s\nroutine = clear_user_arm64\nalign = 5000\n' "$good" >"$CZ_TMP/bad-align"
bad_file bad-align "bad-align:6: bad value '5000' for 'align'"
printf '[benchmark b]\ncmd = fake --size {size}\n[variant x]\n[variant y]\n' >"$CZ_TMP/unknown-var"
bad_file unknown-var "unknown-var:2: unknown variable \{size\}"
printf '[bench b]\ncmd = true\n' >"$CZ_TMP/bad-section"
bad_file bad-section "bad-section:1: unknown section kind 'bench'"
printf '[benchmark b\ncmd = true\n' >"$CZ_TMP/bad-header"
bad_file bad-header "bad-header:1: bad section header"
printf '%s\n[benchmark b]\ncmd = true\n' "$good" >"$CZ_TMP/dup-bench"
bad_file dup-bench "dup-bench:5: benchmark 'b' defined twice"
printf '%s\nenv.FOO\n' "$good" >"$CZ_TMP/no-equals"
bad_file no-equals "no-equals:5: expected KEY = VALUE"
printf '[variant x]\n[variant y]\n' >"$CZ_TMP/no-bench"
bad_file no-bench "no-bench: no benchmark"
printf '[benchmark b]\ncmd = true\n[variant only]\n' >"$CZ_TMP/one-variant"
bad_file one-variant "need at least two variants"
# arch = left out every variant: each named with its arch and this machine's
m=$(uname -m)
printf '[benchmark b]\ncmd = true\n[variant x]\narch = no_such_arch\n[variant y]\narch = other_arch\n' >"$CZ_TMP/arch-none"
bad_file arch-none "need at least two variants to compare \(got 0; left out: 'x' \(arch = no_such_arch\), 'y' \(arch = other_arch\), not for this $m machine\)"
printf '[benchmark b]\ncmd = true\n[variant x]\n[variant y]\narch = no_such_arch\n' >"$CZ_TMP/arch-one"
bad_file arch-one "\(got 1; left out: 'y' \(arch = no_such_arch\), not for this $m machine\)"
printf '[experiment]\nbase = nope\n%s\n' "$good" >"$CZ_TMP/bad-base"
bad_file bad-base "base variant 'nope' is not defined"
# a key given twice in one section: which one was meant?  (one line: key and lines)
printf '[experiment]\nsessions = 2\nrepeats = 3\nsessions = 4\n%s\n' "$good" >"$CZ_TMP/dup-key"
bad_file dup-key "dup-key:4: key 'sessions' given twice in \[experiment\] \(first at line 2\)"
printf '%s\nroutine = rep_stosb\nvar.n = 1\nvar.n = 2\n' "$good" >"$CZ_TMP/dup-var"
bad_file dup-var "dup-var:7: key 'var.n' given twice in \[variant y\] \(first at line 6\)"
printf '[experiment]\nsessions = 2\n%s\n[experiment]\nsessions = 3\n' "$good" >"$CZ_TMP/dup-exp"
bad_file dup-exp "dup-exp:8: key 'sessions' given twice in \[experiment\] \(first at line 2\)"
# the same key in two sections is fine
printf '[benchmark b]\ncmd = true\nunit = x\n[benchmark c]\ncmd = true\nunit = x\n[variant x]\n[variant y]\n' >"$CZ_TMP/two-sections"
"$ZAB" run "$CZ_TMP/two-sections" --dry-run >/dev/null 2>"$CZ_TMP/err"
ok "one key in two sections is not a duplicate" -- [ ! -s "$CZ_TMP/err" ]
# a directory where a file belongs
mkdir "$CZ_TMP/exps" && printf '%s\n' "$good" >"$CZ_TMP/exps/one" && : >"$CZ_TMP/exps/README.md"
bad_file exps "exps: is a directory, not an experiment file \(files in it: one\)"

# options
"$ZAB" run -b x=true -v a -v 'b:frobnicate=1' 2>"$CZ_TMP/err"; rc=$?
ok "unknown --variant key: exit 2, names the option" -- \
	rc_grep 2 $rc "zab: --variant 'b:frobnicate=1': unknown key 'frobnicate'" "$CZ_TMP/err"
"$ZAB" run -b x=true -v a -v b -S 0 2>"$CZ_TMP/err"; rc=$?
ok "-S 0 rejected (exit $rc): $(cat "$CZ_TMP/err")" -- rc_grep 2 $rc "--sessions: invalid value '0'" "$CZ_TMP/err"
"$ZAB" run -b x=true -v a -v b --style fancy 2>"$CZ_TMP/err"; rc=$?
ok "--style fancy rejected (exit $rc)" -- rc_grep 2 $rc "--style 'fancy'" "$CZ_TMP/err"
"$ZAB" frobnicate 2>"$CZ_TMP/err"; rc=$?
ok "unknown subcommand rejected (exit $rc)" -- [ $rc -eq 2 ]
# An unknown option or a missing value: one line naming it, not the usage.
for args in "run --bogus" "report --bogus" "compare --bogus a b" "run -x" "run --runs" \
	    "report --style"; do
	# shellcheck disable=SC2086
	"$ZAB" $args >"$CZ_TMP/out" 2>"$CZ_TMP/err"; rc=$?
	opt=$(echo "$args" | cut -d' ' -f2)
	ok "zab $args: exit $rc, one line naming $opt: $(head -c 200 "$CZ_TMP/err")" -- \
		eval '[ $rc -eq 2 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] && grep -q -F -- "'"'$opt'"'" "$CZ_TMP/err" && grep -q -e "--help" "$CZ_TMP/err"'
done

# a benchmark printing garbage: the command and its output, the cell FAILED
"$ZAB" run -b "g=$FAKE --print garbage-not-a-number" --group fake -b "ok=$FAKE" --group fake -v a -v b -R 2 --seed 1 \
	--style grid >"$CZ_TMP/out" 2>"$CZ_TMP/err"; rc=$?
ok "garbage: exit 1 (a cell failed)" -- [ $rc -eq 1 ]
ok "garbage: stderr names the command and its output" -- \
	grep -q -F "\`$FAKE --print garbage-not-a-number\` printed 'garbage-not-a-number' (expected one number)" "$CZ_TMP/err"
ok "garbage: cells marked FAILED in the table" -- grep -q -E '^\| fake +\| g +\| +FAILED \| +FAILED \|$' "$CZ_TMP/out"
ok "garbage: the other benchmark still measured" -- grep -q -E '^\| +\| ok +\| +[0-9]+\.[0-9]{2} \|' "$CZ_TMP/out"
ok "garbage: the reason is printed under the table" -- grep -q "^FAILED g / a: session 1: " "$CZ_TMP/out"

# a failing benchmark is retried --retries times, then FAILED (never silently dropped)
"$ZAB" run -b "f=$FAKE --log $CZ_TMP/calls --fail" -v a -v b -R 1 --retries 2 --seed 1 \
	>"$CZ_TMP/out" 2>"$CZ_TMP/err"; rc=$?
ok "failing: exit 1" -- [ $rc -eq 1 ]
ok "failing: 3 attempts per cell (1 + 2 retries): $(wc -l <"$CZ_TMP/calls") calls" -- [ "$(wc -l <"$CZ_TMP/calls")" -eq 6 ]
ok "failing: status and output reported" -- \
	grep -q "exited with status 3: fakebench: failing on purpose; the cell is marked FAILED" "$CZ_TMP/err"
ok "failing: retries announced" -- grep -q "; retrying$" "$CZ_TMP/err"
ok "failing: JSON keeps the failure" -- sh -c "'$ZAB' run -b 'f=$FAKE --fail' -v a -v b --json - 2>/dev/null | grep -q '\"failed\": true'"

# a command that does not exist
"$ZAB" run -b "n=$CZ_TMP/absent/bench --x" -v a -v b >"$CZ_TMP/out" 2>"$CZ_TMP/err"; rc=$?
ok "missing program: exit 1, reported" -- \
	rc_grep 1 $rc "$CZ_TMP/absent/bench --x\` exited with status 127: cannot run $CZ_TMP/absent/bench" "$CZ_TMP/err"

# a hung benchmark: --timeout kills it, the cell FAILED with the reason
"$ZAB" run -b "h=sleep 30" -v a -v b --timeout 1 --seed 1 >"$CZ_TMP/out" 2>"$CZ_TMP/err"; rc=$?
ok "timeout: exit 1, reported" -- rc_grep 1 $rc "\`sleep 30\` timed out after 1 s (killed)" "$CZ_TMP/err"

# every output file is checked before the first run, not after the last
"$ZAB" run -b "l=$FAKE --log $CZ_TMP/early" -v a -v b -R 2 --export-csv "$CZ_TMP/absent/dir/x.csv" \
	>"$CZ_TMP/out" 2>"$CZ_TMP/err"; rc=$?
ok "unwritable --export-csv: exit 2, one line naming it" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q -- '--export-csv $CZ_TMP/absent/dir/x.csv: No such file' '$CZ_TMP/err'"
ok "unwritable --export-csv: no benchmark ran" -- [ ! -e "$CZ_TMP/early" ]
"$ZAB" run -b "l=$FAKE --log $CZ_TMP/early" -v a -v b --json "$CZ_TMP" >"$CZ_TMP/out" 2>"$CZ_TMP/err"; rc=$?
ok "--json DIR: exit 2 before any run" -- sh -c "[ $rc -eq 2 ] && [ ! -e '$CZ_TMP/early' ] && grep -q 'Is a directory' '$CZ_TMP/err'"

# bad JSON for report: file:line
printf '{\n  "zab": 1,\n  "sut": oops\n}\n' >"$CZ_TMP/bad.json"
"$ZAB" report "$CZ_TMP/bad.json" 2>"$CZ_TMP/err"; rc=$?
ok "report: bad JSON names file:line ($(cat "$CZ_TMP/err"))" -- rc_grep 2 $rc "bad.json:3: bad JSON" "$CZ_TMP/err"
printf '{"hello": 1}\n' >"$CZ_TMP/notzab.json"
"$ZAB" report "$CZ_TMP/notzab.json" 2>"$CZ_TMP/err"; rc=$?
ok "report: not a zab result ($(cat "$CZ_TMP/err"))" -- rc_grep 2 $rc "not a zab result" "$CZ_TMP/err"

done_testing
