#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench mmap prints perf bench mem mmap's lines for 4KB pages
# (demand, populate, randomized offsets); 2MB pages either work or the
# command says why not and fails.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"

"$ZBENCH" mmap -p 4KB -f demand -s 4MB -l 2 >"$CZ_TMP/d" 2>"$CZ_TMP/e"
ok "mmap -p 4KB -f demand: exit 0" -- test $? -eq 0
ok "mmap demand: perf's 5 lines" -- check_block "$CZ_TMP/d" "$RE_RUNNING_MMAP" 4MB
ok "mmap demand: function line" -- grep -qx "# function 'demand' (Demand loaded mmap())" "$CZ_TMP/d"

"$ZBENCH" mmap -p 4KB -f populate -s 4MB -r 7 >"$CZ_TMP/p" 2>/dev/null
ok "mmap -f populate -r 7: perf's 5 lines" -- check_block "$CZ_TMP/p" "$RE_RUNNING_MMAP" 4MB
ok "mmap populate: function line" -- grep -qx "# function 'populate' (Eagerly populated mmap())" "$CZ_TMP/p"

"$ZBENCH" mmap -s 1MB >"$CZ_TMP/all" 2>/dev/null
ok "mmap (default -f all): two result lines" -- test "$(grep -Ec "$RE_BPS" "$CZ_TMP/all")" -eq 2

"$ZBENCH" mmap -p 2MB -f demand -s 4MB >"$CZ_TMP/h" 2>"$CZ_TMP/he"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "mmap -p 2MB: pages available, perf's lines" -- check_block "$CZ_TMP/h" "$RE_RUNNING_MMAP" 4MB
else
	diag "2MB pages unavailable here: $(tail -n 1 "$CZ_TMP/he")"
	ok "mmap -p 2MB unavailable: exit $rc and a message naming the hugetlb pool and THP" -- \
		sh -c "grep -q '2MB pages unavailable' '$CZ_TMP/he' && grep -q 'hugepages-2048kB' '$CZ_TMP/he'"
fi
"$ZBENCH" mmap -p 1GB -f demand -s 1GB >"$CZ_TMP/g" 2>"$CZ_TMP/ge"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "mmap -p 1GB: pages available, perf's lines" -- check_block "$CZ_TMP/g" "$RE_RUNNING_MMAP" 1GB
else
	ok "mmap -p 1GB unavailable: perf's message on stdout and the reason on stderr" -- \
		sh -c "grep -q 'has insufficient hugepages' '$CZ_TMP/g' && grep -q '1GB pages unavailable' '$CZ_TMP/ge'"
fi

done_testing
