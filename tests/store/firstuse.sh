#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the first use of a new SQLite store by eight writers at
# once, FIRSTUSE_TRIES times (default 20): the store is made once, its
# schema checked in the same transaction, and no writer is refused or
# loses its run (tests/store/pg-robust.sh does the same on PostgreSQL).
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/lib.sh"
unset CUSEZERO_STORE
results 8 "$CZ_TMP/r" || { echo "Bail out! zab run failed"; exit 1; }
tries=${FIRSTUSE_TRIES:-20}
bad=0
t=1
while [ "$t" -le "$tries" ]; do
	url=sqlite:$CZ_TMP/first$t/s.db
	for i in 1 2 3 4 5 6 7 8; do
		"$ZAB" store import --store "$url" "$CZ_TMP/r$i.json" >"$CZ_TMP/w$i" 2>&1 &
	done
	wait
	n=$("$ZAB" store ls runs --store "$url" --format csv 2>/dev/null | tail -n +2 | wc -l)
	if [ "$n" -ne 8 ] || grep -qv imported "$CZ_TMP"/w*; then
		bad=$((bad + 1))
		grep -hv imported "$CZ_TMP"/w* | while read -r line; do diag "try $t ($n runs): $line"; done
	fi
	t=$((t + 1))
done
ok "8 first-time writers, $tries tries: every run stored, none refused ($bad bad tries)" -- [ "$bad" -eq 0 ]
done_testing
