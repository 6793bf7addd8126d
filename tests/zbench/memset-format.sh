#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench memset prints perf bench mem memset's lines (default,
# simple and cycles formats; -f all); when perf is installed, the same
# checker is run on perf's own output, proving the expressions are perf's.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"

"$ZBENCH" memset -s 4KB -f default -l 100 >"$CZ_TMP/d" 2>"$CZ_TMP/e"
ok "memset -s 4KB -f default: exit 0" -- test $? -eq 0
ok "memset default format: perf's 5 lines" -- check_block "$CZ_TMP/d" "$RE_RUNNING_MEMSET" 4KB
ok "memset: '# function 'default' (...)' names the function" -- grep -q "^# function 'default' (" "$CZ_TMP/d"

# perf prints the size exactly as typed.
"$ZBENCH" memset -s 64kb -f default -l 10 >"$CZ_TMP/d2" 2>/dev/null
ok "memset -s 64kb: '# Copying 64kb bytes ...' as typed" -- check_block "$CZ_TMP/d2" "$RE_RUNNING_MEMSET" 64kb

"$ZBENCH" memset -s 1MB -k 4KB -f default -l 2 >"$CZ_TMP/k" 2>/dev/null
ok "memset -k 4KB: perf's 5 lines" -- check_block "$CZ_TMP/k" "$RE_RUNNING_MEMSET" 1MB

"$ZBENCH" memset -s 64KB -f default -c -l 10 >"$CZ_TMP/c" 2>"$CZ_TMP/ce"
rc=$?
if cycles_counter; then
	ok "memset --cycles: ' %14lf cycles/byte'" -- check_block "$CZ_TMP/c" "$RE_RUNNING_MEMSET" 64KB "$RE_CYCLES"
else
	ok "memset --cycles, no cycles counter here: perf's 'Failed to open cycles counter', exit $rc (255)" -- \
		cycles_refused "$CZ_TMP/c" "$CZ_TMP/ce" "$rc"
fi

check_simple() {
	[ "$(wc -l <"$1")" -eq 2 ] || { diag "$1: $(wc -l <"$1") lines, want 2"; return 1; }
	sed -n 1p "$1" | grep -Eq "$RE_FUNCTION" || { diag "simple line 1: '$(sed -n 1p "$1")'"; return 1; }
	sed -n 2p "$1" | grep -Eq "$RE_SIMPLE" || { diag "simple line 2: '$(sed -n 2p "$1")'"; return 1; }
}
"$ZBENCH" memset --format simple -s 64KB -f default -l 10 >"$CZ_TMP/s1" 2>/dev/null
ok "memset --format simple: function line + bytes/sec" -- check_simple "$CZ_TMP/s1"
"$ZBENCH" --format simple memset -s 64KB -f default -l 10 >"$CZ_TMP/s2" 2>/dev/null
ok "zbench --format simple memset (perf's global position)" -- check_simple "$CZ_TMP/s2"

# --hugepages 2MB: works (hugetlb or THP, said on stderr) or says why not and fails.
"$ZBENCH" memset --hugepages 2MB -s 4MB -f default -l 2 >"$CZ_TMP/h" 2>"$CZ_TMP/he"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "memset --hugepages 2MB: perf's 5 lines" -- check_block "$CZ_TMP/h" "$RE_RUNNING_MEMSET" 4MB
	ok "memset --hugepages 2MB: stderr names the backing" -- grep -q "buffer backed by .*2MB" "$CZ_TMP/he"
else
	diag "2MB pages unavailable: $(tail -n 1 "$CZ_TMP/he")"
	ok "memset --hugepages 2MB unavailable: perf's allocation message" -- \
		grep -qx "# Memory allocation failed - maybe size (4MB) has insufficient hugepages?" "$CZ_TMP/h"
	ok "memset --hugepages 2MB unavailable: reason names the 2MB pool" -- grep -q "2MB pool" "$CZ_TMP/he"
fi

# No -f: perf's set under perf's names, as perf bench mem memset with no -f.
"$ZBENCH" memset -s 64KB >"$CZ_TMP/perfset" 2>/dev/null
names=$(sed -n "s/^# function '\([^']*\)'.*/\1/p" "$CZ_TMP/perfset" | tr '\n' ' ')
case $ZERO_ARCH in
x86_64) want_names="default x86-64-unrolled x86-64-stosq x86-64-stosb " ;;
*) want_names="default " ;;
esac
ok "memset, no -f: perf's functions ($names)" -- test "$names" = "$want_names"
# -f A,B: those, in that order
"$ZBENCH" memset -s 64KB -f c_store_loop,default >"$CZ_TMP/list" 2>/dev/null
names=$(sed -n "s/^# function '\([^']*\)'.*/\1/p" "$CZ_TMP/list" | tr '\n' ' ')
ok "memset -f c_store_loop,default: those two ($names)" -- test "$names" = "c_store_loop default "

# -f all: one block per usable routine, each with perf's 4 lines after the header.
"$ZBENCH" memset -f help >"$CZ_TMP/help" 2>/dev/null
# Routines are "\tNAME ... DESC"; perf's aliases say "perf's name for X".
want=$(grep "^	[a-z0-9_]* \.\.\. " "$CZ_TMP/help" | grep -v "perf's name for" | grep -vc "\[unusable here: ")
"$ZBENCH" memset -s 64KB -f all >"$CZ_TMP/all" 2>/dev/null
ok "memset -f all: exit 0" -- test $? -eq 0
n=$(grep -Ec "$RE_FUNCTION" "$CZ_TMP/all")
[ "$n" -eq "$want" ] || diag "-f all: $n function blocks, want $want (usable routines)"
ok "memset -f all: one block per usable routine ($want)" -- test "$n" -eq "$want"
nres=$(grep -Ec "$RE_BPS" "$CZ_TMP/all")
ok "memset -f all: one result line per block" -- test "$nres" -eq "$want"

# The same checker on perf's own output (x86 perf has no -k before 6.16: not used).
if command -v perf >/dev/null 2>&1 && perf bench mem memset -f default -s 4KB >/dev/null 2>&1; then
	perf bench mem memset -s 64KB -f default -l 100 >"$CZ_TMP/perf" 2>/dev/null
	ok "perf's own output passes the same line checks" -- check_block "$CZ_TMP/perf" "$RE_RUNNING_MEMSET" 64KB
	perf bench --format simple mem memset -s 64KB -f default -l 100 >"$CZ_TMP/perfs" 2>/dev/null
	ok "perf's own simple output passes the same checks" -- check_simple "$CZ_TMP/perfs"
else
	skip "perf bench mem memset not available: cannot compare against perf itself"
	skip "perf bench mem memset not available: cannot compare simple format"
fi

done_testing
