#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench mem memset exits as perf bench mem memset does for the
# same bad input.  A table of arguments runs through both; every "same" row
# must give perf's exit status (129: perf's usage error, 1: a bad value,
# 255: --cycles without a cycles counter -- no PMU, as in most VMs).  The
# "refused" rows are inputs perf (6.1) takes and answers with a number that
# is none ("-nan GB/sec", "inf", or status 0 after "# Memory allocation
# failed"): zbench refuses them with 1, and the test checks that perf still
# does what the row says (so a newer perf that refuses them too shows here).
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"

if ! command -v perf >/dev/null 2>&1 || ! perf bench mem memset -f default -s 4KB >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && { echo "1..1"; echo "not ok 1 - perf bench mem memset not available (linux-perf)"; exit 1; }
	skip_all "perf bench mem memset not available: nothing to compare exit statuses with"
fi

# run TOOL ARGS: the exit status (stdout and stderr in $CZ_TMP/TOOL.{out,err})
run() {
	tool=$1; shift
	if [ "$tool" = perf ]; then
		perf bench mem memset "$@" >"$CZ_TMP/perf.out" 2>"$CZ_TMP/perf.err"
	else
		"$ZBENCH" mem memset "$@" >"$CZ_TMP/zbench.out" 2>"$CZ_TMP/zbench.err"
	fi
}

# same WHAT ARGS...: both tools exit with the same status, which is not 0
same() {
	what=$1; shift
	run perf "$@"; p=$?
	run zbench "$@"; z=$?
	if [ "$p" -eq "$z" ] && [ "$p" -ne 0 ]; then
		pass "$what ($*): perf $p, zbench $z"
	else
		fail "$what ($*): perf $p, zbench $z ($(head -n 1 "$CZ_TMP/zbench.err"))"
	fi
}

# refused WHAT ZB-STATUS ARGS...: perf exits 0 with no real number (nan, inf, 0.000000 from
# no loop at all, a negative rate from -l -1 -- which of these depends on the run's timing --,
# allocation failed); zbench refuses
refused() {
	what=$1 want=$2; shift 2
	run perf "$@"; p=$?
	run zbench "$@"; z=$?
	if [ "$p" -eq 0 ] && grep -Eqi 'nan|inf|allocation failed|[[:space:]]0\.0+ |[[:space:]]-[0-9]' "$CZ_TMP/perf.out" && [ "$z" -eq "$want" ]; then
		pass "$what ($*): perf $p printing '$(tail -n 1 "$CZ_TMP/perf.out" | tr -s ' ')', zbench refuses: $z"
	else
		fail "$what ($*): perf $p ($(tail -n 1 "$CZ_TMP/perf.out")), zbench $z (want $want)"
	fi
}

same "unknown long option" --bogus
same "unknown short option" -x
same "bad size unit" -s 4XB
same "size 0" -s 0
same "empty size" -s ''
same "negative size" -s -1
same "fractional size" -s 1.5MB
same "--size= empty" --size=
same "unknown function" -f nosuch -s 4KB
same "empty function" -f '' -s 4KB
same "function help (the list, then 1)" -f help
same "a list with an unknown function" -f default,nosuch -s 4KB
same "-s without a value" -s
same "-f without a value" -f
same "-l without a value" -l
same "-l not a number" -l x
same "-l 1x" -l 1x -s 4KB
same "--cycles, then a bad size (the counter is opened first)" -c -s 0
same "--cycles with an unknown function" -c -f nosuch
if cycles_counter; then
	skip "--cycles: this machine has a cycles counter, perf's 'Failed to open cycles counter' is not reachable"
else
	run perf -c -s 4KB -f default; p=$?
	run zbench -c -s 4KB -f default; z=$?
	ok "--cycles, no counter: perf $p, zbench $z, both 'Failed to open cycles counter' on stderr" -- \
		eval '[ $p -eq $z ] && [ "$(cat "$CZ_TMP/perf.err")" = "$(cat "$CZ_TMP/zbench.err")" ]'
fi

refused "zero loops" 1 -l 0 -s 4KB -f default
refused "negative loops" 1 -l -1 -s 4KB -f default
refused "empty loops" 1 -l '' -s 4KB -f default
refused "size overflowing 64 bits" 1 -s 99999999999TB -f default -l 1
done_testing
