#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench mmap prints perf bench mem mmap's lines for 4KB pages
# (demand, populate, randomized offsets); 2MB pages either work or the
# command says why not and fails.
. "$top_srcdir/tests/zbench/lib.sh"

"$ZBENCH" mmap -p 4KB -f demand -s 4MB -l 2 >"$tmpdir/d" 2>"$tmpdir/e"
ok "mmap -p 4KB -f demand: exit 0" -- test $? -eq 0
ok "mmap demand: perf's 5 lines" -- check_block "$tmpdir/d" "$RE_RUNNING_MMAP" 4MB
ok "mmap demand: function line" -- grep -qx "# function 'demand' (Demand loaded mmap())" "$tmpdir/d"

"$ZBENCH" mmap -p 4KB -f populate -s 4MB -r 7 >"$tmpdir/p" 2>/dev/null
ok "mmap -f populate -r 7: perf's 5 lines" -- check_block "$tmpdir/p" "$RE_RUNNING_MMAP" 4MB
ok "mmap populate: function line" -- grep -qx "# function 'populate' (Eagerly populated mmap())" "$tmpdir/p"

"$ZBENCH" mmap -s 1MB >"$tmpdir/all" 2>/dev/null
ok "mmap (default -f all): two result lines" -- test "$(grep -Ec "$RE_BPS" "$tmpdir/all")" -eq 2

"$ZBENCH" mmap -p 2MB -f demand -s 4MB >"$tmpdir/h" 2>"$tmpdir/he"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "mmap -p 2MB: pages available, perf's lines" -- check_block "$tmpdir/h" "$RE_RUNNING_MMAP" 4MB
else
	diag "2MB pages unavailable here: $(tail -n 1 "$tmpdir/he")"
	ok "mmap -p 2MB unavailable: exit $rc and a message naming the hugetlb pool and THP" -- \
		sh -c "grep -q '2MB pages unavailable' '$tmpdir/he' && grep -q 'hugepages-2048kB' '$tmpdir/he'"
fi
"$ZBENCH" mmap -p 1GB -f demand -s 1GB >"$tmpdir/g" 2>"$tmpdir/ge"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "mmap -p 1GB: pages available, perf's lines" -- check_block "$tmpdir/g" "$RE_RUNNING_MMAP" 1GB
else
	ok "mmap -p 1GB unavailable: perf's message on stdout and the reason on stderr" -- \
		sh -c "grep -q 'has insufficient hugepages' '$tmpdir/g' && grep -q '1GB pages unavailable' '$tmpdir/ge'"
fi

done_testing
