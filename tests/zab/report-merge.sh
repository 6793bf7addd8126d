#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab report pools two files' samples under one name only when
# they mean the same thing.  A benchmark whose command, unit, direction or
# result class differs, or a variant whose settings (environment, device
# settings such as chunk or routine) differ, is refused with one line naming
# both files and the field; files that agree are pooled and the footer
# counts the runs the cells really hold.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

# run FILE ARGS...: a quick experiment (1 session x 2 repeats) written to FILE
run() {
	f=$1; shift
	"$ZAB" run --no-progress -R 2 --seed 7 -j "$f" "$@" >/dev/null 2>"$CZ_TMP/run.err" ||
		echo "# zab run for $f failed: $(cat "$CZ_TMP/run.err")"
}
# refused DESC FIELD A B: report A B exits 2 with one line naming A, B and FIELD
refused() {
	"$ZAB" report "$3" "$4" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	rc=$?
	n=$(wc -l <"$CZ_TMP/err")
	if [ $rc -eq 2 ] && [ "$n" -eq 1 ] && grep -q -F "$3 and $4" "$CZ_TMP/err" &&
	   grep -q -F -- "$2" "$CZ_TMP/err" && [ ! -s "$CZ_TMP/out" ]; then
		pass "$1: $(cat "$CZ_TMP/err")"
	else
		fail "$1: exit $rc, $n stderr lines, wanted both files and '$2': $(head -c 300 "$CZ_TMP/err" | tr '\n' ' ')"
	fi
}

run "$CZ_TMP/b.json" -b "x=$FAKE --mean 10980" -v a -v b
run "$CZ_TMP/b2.json" -b "x=$FAKE --mean 10980" -v a -v b
run "$CZ_TMP/e.json" -b "x=$FAKE --mean 5" -v a -v b
refused "same name, other command" "cmd" "$CZ_TMP/b.json" "$CZ_TMP/e.json"
run "$CZ_TMP/u.json" -b "x=$FAKE --mean 10980" --unit ns -v a -v b
refused "same name, other unit" "unit" "$CZ_TMP/b.json" "$CZ_TMP/u.json"
run "$CZ_TMP/l.json" -b "x=$FAKE --mean 10980" --lower -v a -v b
refused "same name, lower instead of higher is better" "better" "$CZ_TMP/b.json" "$CZ_TMP/l.json"
run "$CZ_TMP/env1.json" -b "x=$FAKE --mean 10980" -v a:FOO=1 -v b
run "$CZ_TMP/env2.json" -b "x=$FAKE --mean 10980" -v a:FOO=2 -v b
refused "variant with another environment" "env.FOO" "$CZ_TMP/env1.json" "$CZ_TMP/env2.json"
run "$CZ_TMP/var1.json" -b "x=$FAKE --mean {m}" --var m=1 -v a -v b
run "$CZ_TMP/var2.json" -b "x=$FAKE --mean {m}" --var m=2 -v a -v b
refused "one command template, other --var value" "var.m" "$CZ_TMP/var1.json" "$CZ_TMP/var2.json"
# A device variant's settings, and the result class, as another file would have them.
sed 's/"variants": \[/&{"name": "d", "device": {"routine": "rep_stosb", "chunk": "4096"}}, /; s/"cells": \[/&{"benchmark": "x", "variant": "d", "samples": [1, 2]}, /' \
	"$CZ_TMP/b.json" >"$CZ_TMP/d1.json"
sed 's/"chunk": "4096"/"chunk": "65536"/' "$CZ_TMP/d1.json" >"$CZ_TMP/d2.json"
sed 's/"routine": "rep_stosb"/"routine": "c_store_loop"/' "$CZ_TMP/d1.json" >"$CZ_TMP/d3.json"
if grep -q '"chunk": "4096"' "$CZ_TMP/d1.json"; then
	refused "device variant with another chunk" "device.chunk" "$CZ_TMP/d1.json" "$CZ_TMP/d2.json"
	refused "device variant with another routine" "device.routine" "$CZ_TMP/d1.json" "$CZ_TMP/d3.json"
else
	fail "could not add a device variant to the result file (its layout changed?)"
fi
run "$CZ_TMP/s1.json" -b "x=$FAKE --mean 10980" --unit seconds --lower -v a -v b
run "$CZ_TMP/t1.json" -b "x=$FAKE --mean 10980" --time -v a -v b
refused "same command and unit, timed in one file" "measure" "$CZ_TMP/s1.json" "$CZ_TMP/t1.json"
sed 's/"source": "command"/"source": "device: routine ns per chunk"/' "$CZ_TMP/b.json" >"$CZ_TMP/k.json"
refused "same name, another result class" "source" "$CZ_TMP/b.json" "$CZ_TMP/k.json"

# Files that agree are pooled: n = 2 + 2, and the footer says so.
"$ZAB" report -s plain "$CZ_TMP/b.json" "$CZ_TMP/b2.json" >"$CZ_TMP/plain" 2>"$CZ_TMP/err"
ok "same command twice: pooled, exit $?" -- test ! -s "$CZ_TMP/err"
"$ZAB" report "$CZ_TMP/b.json" "$CZ_TMP/b2.json" >"$CZ_TMP/box" 2>&1
ok "pooled: the footer counts 4 measured runs per cell" -- \
	grep -q '^2 sessions x (0 warm-ups + 2 repeats) = 4 measured runs per cell' "$CZ_TMP/box"
run "$CZ_TMP/r3.json" -b "x=$FAKE --mean 10980" -v a -v b -R 3
"$ZAB" report "$CZ_TMP/b.json" "$CZ_TMP/r3.json" >"$CZ_TMP/box" 2>&1
ok "pooled 2 + 3 repeats: 5 measured runs per cell, the repeats said to differ" -- \
	grep -q '^2 sessions (their warm-ups or repeats differ between the files) = 5 measured runs per cell' "$CZ_TMP/box"
# A file written before zab recorded settings (no cmd, no measure) pools with itself.
sed '/"cmd": /d' "$CZ_TMP/b.json" >"$CZ_TMP/old1.json"
"$ZAB" report "$CZ_TMP/old1.json" "$CZ_TMP/old1.json" >/dev/null 2>"$CZ_TMP/err"
ok "files without cmd: pooled, exit $?" -- \
	eval '[ ! -s "$CZ_TMP/err" ] && ! grep -q "\"cmd\"" "$CZ_TMP/old1.json"'
# Another SUT class is another section: nothing is pooled, nothing refused.
"$ZAB" report "$CZ_TMP/b.json" --sut other "$CZ_TMP/e.json" >"$CZ_TMP/box" 2>"$CZ_TMP/err"
ok "--sut puts the other file in a section of its own: exit $?" -- \
	eval '[ ! -s "$CZ_TMP/err" ] && [ "$(grep -c "Results for SUT Class" "$CZ_TMP/box")" -eq 2 ]'
done_testing
